// The chroma search (`ChromaContrast`, `DocumentFinder.findInChroma`): a card whose sides are colour edges at its
// background's brightness is found in the frame's colour contrast when the luma search finds none, from a JPEG and
// from NV12/NV21 raw frames; what inside a card looks most like one in colour (the holder's photo, a printed panel)
// is not taken for it.
import CTurboJPEG
import Foundation
import Testing
@testable import FrameAnalysis

@Suite struct ColourEdgeTests {
    private static func fixture(_ name: String) throws -> [UInt8] { try fixtureBytes("\(name).jpg") }

    /// Fixtures/README.md: a blue-grey card on a pink wall at about the wall's brightness, held by a hand whose
    /// thumb covers its right side; its corners as camsim drew them (input pixels, clockwise from top-left).
    static let colourEdgedCard = "colour-edged-card-camsim-seed4"
    static let colourEdgedCardCorners: [(Double, Double)] = [(702.19, 264.44), (1671.33, 182.74), (1687.85, 783.85),
                                                             (758.81, 844.98)]

    @Test func aCardAtItsBackgroundsBrightnessIsFoundInColour() throws {
        let input = FrameInput.jpeg(try Self.fixture(Self.colourEdgedCard))
        let analysis = try analyzeExpectingCard(input, primary: .good, corners: Self.colourEdgedCardCorners, within: 0.01)
        #expect(analysis.metrics["colourEdges"] == 1, "\(analysis.metrics)")
        // The luma search alone does not see it. (The search in the window around its print, which runs after nothing
        // was found in colour either, finds an outline there too: it is turned off here to show the colour search's
        // part.)
        let withoutColour = try analyzeDocument(input) {
            $0.searchesChroma = false
            $0.searchesPrintedRegions = false
        }
        #expect(withoutColour.primary == .noDocument && withoutColour.region == nil)
    }

    /// Fixtures/README.md: a card held too close, past the frame's edges, whose sides are colour edges: the outline
    /// closed by the frame's borders is taken (the border is not what keeps clutter out; the print and ring tests are).
    @Test func aCardTooCloseIsFoundInColourPastTheFrame() throws {
        let input = FrameInput.jpeg(try Self.fixture("colour-edged-close-card-camsim-seed3"))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.primary == .moveAway && analysis.metrics["colourEdges"] == 1, "\(analysis.feedback)")
        // (Its portrait, seen large, would tell MOVE_AWAY without an outline: `readsLargePortraitsWithoutOutline`.)
        #expect(try analyzeDocument(input) {
            $0.searchesChroma = false
            $0.readsLargePortraitsWithoutOutline = false
        }.primary == .noDocument)
    }

    /// In a stream the card found in colour is followed in colour (`trackInChroma`), as a luma card is in luma:
    /// every frame but the first and the one that may be captured is tracked, each answers as the frame alone does
    /// (GOOD, corners within a pixel or two of the whole search's), and the stream captures. Without colour tracking
    /// each frame would pay the full luma search, every fallback and the chroma search.
    @Test func aCardFoundInColourIsFollowedInColourInAStream() throws {
        let input = FrameInput.jpeg(try Self.fixture(Self.colourEdgedCard))
        let analyzer = FrameAnalyzer()
        let alone = try analyzer.analyze(input, mode: .document)
        var tracker = CaptureTracker()
        var tracked = 0, captured = 0
        for _ in 0..<6 {
            let frame = try analyzer.analyze(input, mode: .document, stream: &tracker)
            #expect(frame.analysis.primary == .good && frame.analysis.metrics["colourEdges"] == 1)
            if frame.analysis.metrics["tracked"] == 1 { tracked += 1 }
            if frame.capture { captured += 1 }
            let whole = try #require(alone.region?.corners).map { ($0.x, $0.y) }
            #expect(cornerErrorShare(frame.analysis, whole) < 0.002)
        }
        #expect(tracked == 4 && captured == 1, "tracked \(tracked), captured \(captured)")
    }

    /// A light search (a stream where nothing was found lately) leaves the chroma search out, as every fallback.
    @Test func aLightSearchDoesNotLookInColour() throws {
        let input = FrameInput.jpeg(try Self.fixture(Self.colourEdgedCard))
        let light = try FrameAnalyzer().analyze(input, mode: .document, lightSearch: true)
        #expect(light.primary == .noDocument && light.metrics["colourEdges"] == nil)
    }

    /// Fixtures/README.md: a card cut by the frame, whose holder photo is the strongest colour outline, with the
    /// card's plain body around it: the photo is an upright rectangle, and a card is held across.
    @Test func theHoldersPhotoIsNotTakenForTheCard() throws {
        let analysis = try FrameAnalyzer().analyze(.jpeg(try Self.fixture("holder-photo-in-colour-camsim-seed4")),
                                                   mode: .document)
        #expect(analysis.metrics["colourEdges"] == nil, "\(analysis.feedback) \(String(describing: analysis.region))")
        #expect(analysis.primary == .noDocument)
    }

    /// Fixtures/README.md: a card filling the frame whose guilloche panel, bounded by the photo and the MRZ band, is
    /// a card-shaped colour outline: it is surrounded by the card's print, not by a plain background. Taken for the
    /// card it was GOOD (the panel's fill and position pass) for a frame that must say MOVE_AWAY.
    @Test func aPrintedPanelInsideTheCardIsNotTakenForTheCard() throws {
        let analysis = try FrameAnalyzer().analyze(.jpeg(try Self.fixture("card-panel-in-colour-camsim-seed1")),
                                                   mode: .document)
        #expect(analysis.metrics["colourEdges"] == nil, "\(analysis.feedback) \(String(describing: analysis.region))")
        #expect(analysis.primary != .good)
    }

    /// The fixture re-encoded with another chroma subsampling (TurboJPEG: decoded to RGB, encoded again), baseline
    /// unless `progressive`.
    private static func reencoded(_ jpeg: [UInt8], subsampling: TJSAMP, progressive: Bool = false) throws -> [UInt8] {
        let decompressor = try #require(tjInitDecompress())
        defer { tjDestroy(decompressor) }
        var width: Int32 = 0, height: Int32 = 0, sampling: Int32 = 0, colorspace: Int32 = 0
        try #require(tjDecompressHeader3(decompressor, jpeg, UInt(jpeg.count), &width, &height, &sampling,
                                         &colorspace) == 0)
        var rgb = [UInt8](repeating: 0, count: Int(width) * Int(height) * 3)
        try #require(tjDecompress2(decompressor, jpeg, UInt(jpeg.count), &rgb, width, 0, height,
                                   Int32(TJPF_RGB.rawValue), 0) == 0)
        let compressor = try #require(tjInitCompress())
        defer { tjDestroy(compressor) }
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        try #require(tjCompress2(compressor, rgb, width, 0, height, Int32(TJPF_RGB.rawValue), &buffer, &size,
                                 Int32(subsampling.rawValue), 92, progressive ? TJFLAG_PROGRESSIVE : 0) == 0)
        defer { tjFree(buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }

    /// Chroma planes of every size a camera or an editor writes: 4:4:4 (planes the working size, area-averaged down),
    /// 4:2:2 (half width only) and 4:4:0 (half height only).
    @Test(arguments: [TJSAMP_444, TJSAMP_422, TJSAMP_440])
    func otherChromaSubsamplingsAreSearchedAlike(_ subsampling: TJSAMP) throws {
        let jpeg = try Self.reencoded(try Self.fixture(Self.colourEdgedCard), subsampling: subsampling)
        let analysis = try FrameAnalyzer().analyze(.jpeg(jpeg), mode: .document)
        #expect(analysis.metrics["colourEdges"] == 1, "\(analysis.feedback)")
        #expect(cornerErrorShare(analysis, Self.colourEdgedCardCorners) < 0.01)
    }

    /// A 1280 × 720 raw frame whose card (printed as `SyntheticFrame` prints one, without the portrait) has its
    /// background's luma, 120: its outline is a colour edge only (a blue card, Cb 150 / Cr 116, on a warm wall, Cb 112
    /// / Cr 138). The Y plane is followed by the interleaved chroma plane, Cb first (NV12) or Cr first (NV21).
    /// (What these tests check is the raw planes' layout and turning. A portrait would be a rectangle in luma, which
    /// the luma search takes first; a card's photo against its colour edges is the camsim fixtures' case above.)
    static let isoluminantCorners: [(Double, Double)] = [(330, 170), (950, 150), (975, 540), (310, 560)]
    private static func isoluminantCardFrame(crFirst: Bool) -> [UInt8] {
        let width = 1280, height = 720
        var luma = SyntheticFrame(width: width, height: height, pixels: [UInt8](repeating: 120, count: width * height))
        luma.drawCard(corners: isoluminantCorners, body: 120, photo: false)
        luma.addNoise(amplitude: 3)
        let quad = isoluminantCorners.map { SIMD2($0.0, $0.1) }
        func inside(_ p: SIMD2<Double>) -> Bool {
            (0..<4).allSatisfy { i in
                let a = quad[i], e = quad[(i + 1) % 4] - a, r = p - a
                return e.x * r.y - e.y * r.x >= 0
            }
        }
        var bytes = luma.pixels
        for y in 0..<(height / 2) {
            for x in 0..<(width / 2) {
                let card = inside(SIMD2(Double(2 * x) + 1, Double(2 * y) + 1))
                let cb: UInt8 = card ? 150 : 112, cr: UInt8 = card ? 116 : 138
                bytes.append(crFirst ? cr : cb)
                bytes.append(crFirst ? cb : cr)
            }
        }
        return bytes
    }

    /// A camera's raw buffers: the card is found in colour from NV12 (Cb first) and NV21 (Cr first) alike, and not
    /// from the Y plane alone (gray8 has no colour); NV12 read as NV21 (Cb and Cr swapped) still finds it, since the
    /// principal axis is found either way.
    @Test func rawSemiPlanarFramesAreSearchedInColour() throws {
        for (format, crFirst) in [(RawPixelFormat.nv12, false), (.nv21, true), (.nv12, true)] {
            let analysis = try FrameAnalyzer().analyze(.raw(bytes: Self.isoluminantCardFrame(crFirst: crFirst),
                                                            width: 1280, height: 720, stride: 1280, format: format),
                                                       mode: .document)
            #expect(analysis.metrics["colourEdges"] == 1, "\(format) Cr first \(crFirst): \(analysis.feedback)")
            #expect(cornerError(analysis.region, Self.isoluminantCorners) < 3, "\(format) Cr first \(crFirst)")
        }
        let y = Array(Self.isoluminantCardFrame(crFirst: false).prefix(1280 * 720))
        let lumaOnly = try FrameAnalyzer().analyze(.raw(bytes: y, width: 1280, height: 720, stride: 1280,
                                                        format: .gray8), mode: .document)
        #expect(lumaOnly.primary == .noDocument && lumaOnly.metrics["colourEdges"] == nil, "\(lumaOnly.feedback)")
    }

    /// NV12 carries Cb first, NV21 Cr first, box-sampled by the luma's factor (2 for 1280 × 720). The search
    /// above cannot tell the two apart (the principal axis is found either way), so the planes are checked here.
    @Test(arguments: [RawPixelFormat.nv12, .nv21])
    func rawChromaPlanesAreReadInTheirFormatsOrder(_ format: RawPixelFormat) {
        let width = 1280, height = 720
        var bytes = [UInt8](repeating: 100, count: width * height)
        for y in 0..<(height / 2) {
            for x in 0..<(width / 2) {
                // Cb 40 + (x / 2) % 50 along a row, Cr 200 − (y / 2) % 50 down the frame.
                let cb = UInt8(40 + (x / 2) % 50), cr = UInt8(200 - (y / 2) % 50)
                bytes += format == .nv12 ? [cb, cr] : [cr, cb]
            }
        }
        let cb = GrayImage(), cr = GrayImage()
        #expect(RawFrameSampler.sampleChroma(bytes: bytes, width: width, height: height, stride: width,
                                             format: format, cb: cb, cr: cr, longSide: 640))
        #expect(cb.width == 320 && cb.height == 180 && cr.width == 320 && cr.height == 180)
        for (x, y) in [(0, 0), (7, 3), (100, 50), (319, 179)] {
            // Each sample is the mean of a 2 × 2 block of chroma pixels: columns 2x, 2x+1 and rows 2y, 2y+1.
            #expect(cb.base[y * 320 + x] == UInt8(40 + x % 50), "Cb at \(x), \(y)")
            #expect(cr.base[y * 320 + x] == UInt8(200 - y % 50), "Cr at \(x), \(y)")
        }
        #expect(!RawFrameSampler.sampleChroma(bytes: Array(bytes.prefix(width * height)), width: width,
                                              height: height, stride: width, format: .gray8, cb: cb, cr: cr,
                                              longSide: 640))
    }

    /// A sideways frame is searched in colour upright: its chroma planes are turned with its luma.
    @Test func aTurnedFrameIsSearchedInColourUpright() throws {
        let upright = Self.isoluminantCardFrame(crFirst: false)
        // Turned a quarter anticlockwise (so it needs 90° clockwise): Y by pixels, the chroma plane by Cb-Cr pairs.
        let w = 1280, h = 720, cw = w / 2, ch = h / 2
        var turned = [UInt8](repeating: 0, count: upright.count)
        for y in 0..<h {
            for x in 0..<w { turned[(w - 1 - x) * h + y] = upright[y * w + x] }
        }
        for y in 0..<ch {
            for x in 0..<cw {
                let from = w * h + 2 * (y * cw + x), to = w * h + 2 * ((cw - 1 - x) * ch + y)
                turned[to] = upright[from]
                turned[to + 1] = upright[from + 1]
            }
        }
        let analysis = try FrameAnalyzer().analyze(.raw(bytes: turned, width: h, height: w, stride: h, format: .nv12),
                                                   mode: .document, rotation: .clockwise90)
        #expect(analysis.width == w && analysis.height == h)
        #expect(analysis.metrics["colourEdges"] == 1, "\(analysis.feedback)")
        #expect(cornerError(analysis.region, Self.isoluminantCorners) < 3)
    }

    // MARK: The colour contrast image

    private static func plane(width: Int, height: Int, value: (Int, Int) -> UInt8) -> GrayImage {
        let image = GrayImage()
        image.resize(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { image.base[y * width + x] = value(x, y) }
        }
        return image
    }

    @Test func aGreyFrameHasNoColourContrast() {
        let grey = Self.plane(width: 80, height: 60) { _, _ in 128 }
        #expect(!ChromaContrast().project(cb: grey, cr: grey, into: GrayImage(), width: 80, height: 60))
    }

    /// A blue rectangle on a yellow ground (Cb up, Cr down inside): one step along the principal axis, ×`gain`.
    @Test func aColourStepBecomesAGrayStep() {
        let inside = { (x: Int, y: Int) in x >= 20 && x < 60 && y >= 15 && y < 45 }
        let cb = Self.plane(width: 80, height: 60) { x, y in inside(x, y) ? 148 : 118 }
        let cr = Self.plane(width: 80, height: 60) { x, y in inside(x, y) ? 120 : 136 }
        let out = GrayImage()
        #expect(ChromaContrast().project(cb: cb, cr: cr, into: out, width: 80, height: 60))
        let a = Double(out.base[30 * 80 + 40]), b = Double(out.base[5 * 80 + 5])
        let du: Double = 148 - 118, dv: Double = 120 - 136
        let step: Double = (du * du + dv * dv).squareRoot() * ChromaContrast.gain
        #expect(abs(abs(a - b) - step) <= 2, "inside \(a) outside \(b) expected step \(step)")
        // Uniform inside and out.
        #expect(out.base[31 * 80 + 41] == out.base[30 * 80 + 40] && out.base[50 * 80 + 70] == out.base[5 * 80 + 5])
    }

    /// Planes larger than the detection image (a 4:4:4 frame) are averaged over the pixels that fall on each output
    /// pixel.
    @Test func largerPlanesAreAreaAveraged() {
        let plane = Self.plane(width: 8, height: 4) { x, _ in x % 2 == 0 ? 100 : 120 }
        var out = [Float](repeating: 0, count: 8)
        ChromaContrast.resample(plane, into: &out, width: 4, height: 2)
        #expect(out.allSatisfy { $0 == 110 })
    }

    @Test func aGrayscaleJPEGHasNoChromaPlanes() throws {
        let gray = SyntheticFrame.background(width: 320, height: 240).jpeg()
        #expect(try JPEGGrayDecoder().decodeChroma(gray, cb: GrayImage(), cr: GrayImage(), longSide: 640,
                                                   maxPixels: 1 << 24) == nil)
    }

    /// A camera's 4:2:0 JPEG: each chroma plane is half the working image both ways (the working image of a
    /// 1920 × 1080 frame is 720 × 405 at the 3/8 scale).
    @Test func chromaPlanesAreDecodedAtTheWorkingScale() throws {
        let cb = GrayImage(), cr = GrayImage()
        let size = try JPEGGrayDecoder().decodeChroma(try Self.fixture(Self.colourEdgedCard), cb: cb, cr: cr,
                                                      longSide: 640, maxPixels: 1 << 24)
        #expect(size?.width == 1920 && size?.height == 1080)
        #expect(cb.width == 360 && cb.height == 203 && cr.width == 360 && cr.height == 203)
    }

    /// The Y plane decoded with the chroma (a card followed in colour: one decode for both) is the gray decode's
    /// working image, pixel for pixel, though TurboJPEG pads it to whole MCUs (405 → 406 rows here): a frame's
    /// analysis does not depend on whether its colour was read.
    @Test(arguments: ["colour-edged-card-camsim-seed4", "colour-edged-close-card-camsim-seed3"])
    func theLumaDecodedWithTheChromaIsTheGrayDecode(_ name: String) throws {
        try Self.expectLumaWithChromaIsGray(try Self.fixture(name), longSide: 640)
    }

    /// Every progressive JPEG is decoded that way (below), so the same holds for every chroma subsampling, baseline
    /// and progressive, at every DCT scale a working size can ask for (3/8, 1/2, 3/4 and 1/1 of 1920 × 1080).
    @Test(arguments: [TJSAMP_420, TJSAMP_444, TJSAMP_422, TJSAMP_440], [false, true])
    func theLumaDecodedWithTheChromaIsTheGrayDecodeForEverySubsampling(_ subsampling: TJSAMP,
                                                                       progressive: Bool) throws {
        let jpeg = try Self.reencoded(try Self.fixture(Self.colourEdgedCard), subsampling: subsampling,
                                      progressive: progressive)
        #expect(JPEGCodingProcess.isProgressive(jpeg) == progressive)
        for longSide in [640, 960, 1280, 1920] { try Self.expectLumaWithChromaIsGray(jpeg, longSide: longSide) }
    }

    private static func expectLumaWithChromaIsGray(_ jpeg: [UInt8], longSide: Int) throws {
        let decoder = JPEGGrayDecoder()
        let gray = GrayImage(), luma = GrayImage()
        try decoder.decode(jpeg, into: gray, longSide: longSide, maxPixels: 1 << 24)
        try #require(try decoder.decodeChroma(jpeg, luma: luma, cb: GrayImage(), cr: GrayImage(), longSide: longSide,
                                              maxPixels: 1 << 24) != nil)
        #expect(luma.width == gray.width && luma.height == gray.height, "long side \(longSide)")
        #expect(Array(UnsafeBufferPointer(start: luma.base, count: luma.width * luma.height))
                == Array(UnsafeBufferPointer(start: gray.base, count: gray.width * gray.height)),
                "long side \(longSide)")
    }

    /// A progressive JPEG's chroma is decoded with its luma, in one decode, in case the luma search finds no card (a
    /// second progressive decode would cost about as much as the first); a baseline JPEG is decoded to gray, and
    /// again for its chroma only when the luma search found no card. Both answer alike.
    @Test func aProgressiveFrameIsDecodedOnceWithItsColour() throws {
        let progressive = try Self.fixture(Self.colourEdgedCard)
        let baseline = try Self.reencoded(progressive, subsampling: TJSAMP_420)
        #expect(JPEGCodingProcess.isProgressive(progressive) && !JPEGCodingProcess.isProgressive(baseline))
        for (jpeg, decodes) in [(progressive, 1), (baseline, 2)] {
            let analyzer = FrameAnalyzer()
            let analysis = try analyzer.analyze(.jpeg(jpeg), mode: .document)
            #expect(analysis.metrics["colourEdges"] == 1, "\(analysis.feedback)")
            #expect(cornerErrorShare(analysis, Self.colourEdgedCardCorners) < 0.01)
            #expect(analyzer.decoder.decodeCount == decodes)
        }
        // Nor does a light search (which never looks in colour) decode a progressive frame's chroma: it decodes
        // gray, once.
        let light = FrameAnalyzer()
        _ = try light.analyze(.jpeg(progressive), mode: .document, lightSearch: true)
        #expect(light.decoder.decodeCount == 1)
    }

    /// The coding process is read from the frame header's marker, past any application segments; anything that is
    /// not a JPEG's header reads as not progressive (the decoder then refuses it as it did).
    @Test func theCodingProcessIsReadFromTheFrameHeader() throws {
        let progressive = try Self.fixture(Self.colourEdgedCard)
        #expect(JPEGCodingProcess.isProgressive(progressive))
        #expect(!JPEGCodingProcess.isProgressive(try Self.fixture("holder-photo-in-colour-camsim-seed4")))
        #expect(!JPEGCodingProcess.isProgressive(SyntheticFrame.background(width: 64, height: 48).jpeg()))
        #expect(!JPEGCodingProcess.isProgressive([]))
        #expect(!JPEGCodingProcess.isProgressive([0xFF, 0xD8, 0xFF]))
        #expect(!JPEGCodingProcess.isProgressive(Array(progressive.prefix(20))))
        #expect(!JPEGCodingProcess.isProgressive([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01, 0xFF, 0xC2]))
        #expect(!JPEGCodingProcess.isProgressive([UInt8](repeating: 0xFF, count: 64)))
    }
}
