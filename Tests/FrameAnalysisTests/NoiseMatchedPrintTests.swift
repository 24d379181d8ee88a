// A frame decoded at full size (a VGA stream's) keeps its sensor noise, twice as strong at the detection size as a
// scaled decode's; its print is judged on the working image reduced with a wider kernel (`NoiseMatchedPrintImage`).
import Testing
@testable import FrameAnalysis

@Suite struct NoiseMatchedPrintTests {
    /// Fixtures/README.md: an empty 480×640 scene (a hand, a window, boxes), its bare surfaces read as printed through
    /// the noise: CUT_OFF on an outline of a box's edges closed by the frame. (Since session 36 that outline's soft
    /// inside in a scene under `maxBlurredSceneSharpness` puts BLURRY before the CUT_OFF: wrong either way.)
    @Test func aBareSurfaceInANoisyFullSizeFrameIsNoPrint() throws {
        let (_, without) = try expectSettingDecides("empty-scene-noisy-at-full-size-camsim-portrait-seed153.jpg",
                                                    primary: .noDocument, otherwise: .blurry) {
            $0.readsPrintNoiseMatched = false
        }
        #expect(without.region != nil && without.feedback.contains { $0.code == .cutOff }, "\(without.feedback)")
    }

    /// Fixtures/README.md: an empty 360×480 scene, searched at its own size (its noise not averaged at all): CUT_OFF
    /// on an outline of bare surfaces closed by the frame. (Since session 38's lower bar for a side a hand covers at
    /// the border, `DocumentFinder.coveredBorderSideSupport`, that search's outline is another, and without the
    /// noise-matched print the best outline read printed scores 0.55, just under `minDocumentConfidence`: its bare
    /// surfaces still read printed, 0.15 with the rule.)
    @Test func aBareSurfaceInASmallFrameSearchedAtItsOwnSizeIsNoPrint() throws {
        let (analysis, without) = try expectSettingDecides(
            "empty-scene-noisy-at-its-own-size-camsim-portrait-seed156.jpg", primary: .noDocument,
            otherwise: .noDocument) { $0.readsPrintNoiseMatched = false }
        #expect((analysis.metrics["documentConfidence"] ?? 1) < 0.3, "\(analysis.metrics)")
        #expect((without.metrics["documentConfidence"] ?? 0) > 0.5, "\(without.metrics)")
    }

    /// Fixtures/README.md: an empty 640×480 scene, a grey-blue wall above a yellow one. The colour search (its sides
    /// are colour edges) closed the wall's part by two frame borders, and its bare inside read printed through the
    /// noise, since that search read print on the plain image: CUT_OFF. It reads print as the luma searches do.
    @Test func aPlainWallsColourOutlineInANoisyFullSizeFrameIsNoPrint() throws {
        let (_, without) = try expectSettingDecides(
            "plain-wall-colour-outline-noisy-at-full-size-camsim-small-seed172.jpg", primary: .noDocument,
            otherwise: .cutOff) { $0.readsPrintNoiseMatched = false }
        #expect(without.metrics["colourEdges"] == 1, "\(without.metrics)")
    }

    /// Only a frame whose decode kept most of its noise gets the image, only for its own detection image, and only
    /// when a search reads print there: a 720p frame (decoded at half size) reads print on its detection image.
    @Test func onlyAFrameDecodedAboveHalfSizeJudgesPrintOnTheNoiseMatchedImage() throws {
        let analyzer = FrameAnalyzer()
        let vga = try analyzer.documentImages(.jpeg(try fixtureBytes("glare-on-a-card-in-a-vga-frame-camsim-portrait-seed153.jpg")))
        let matched = try #require(analyzer.documentFinder.noiseMatchedPrint?.prepared(for: vga.detection))
        #expect(matched.image.width == vga.detection.width && matched.image.height == vga.detection.height)
        // Another image of the detection image's size (a window's) judges print on itself.
        let other = GrayImage()
        other.resize(width: vga.detection.width, height: vga.detection.height)
        #expect(analyzer.documentFinder.noiseMatchedPrint?.prepared(for: other) == nil)
        let hd = try analyzer.documentImages(.jpeg(try fixtureBytes("card-inside-border-closed-desk-outline-camsim-seed3.jpg")))
        #expect(hd.inputSize.width == 1280 && hd.detection.width == 320)
        #expect(analyzer.documentFinder.noiseMatchedPrint?.prepared(for: hd.detection) == nil)
        analyzer.readsPrintNoiseMatched = false
        let off = try analyzer.documentImages(.jpeg(try fixtureBytes("glare-on-a-card-in-a-vga-frame-camsim-portrait-seed153.jpg")))
        #expect(analyzer.documentFinder.noiseMatchedPrint?.prepared(for: off.detection) == nil)
    }

    static func image(width: Int, height: Int, _ pixel: (Int, Int) -> UInt8) -> GrayImage {
        let image = GrayImage()
        image.resize(width: width, height: height)
        for y in 0..<height { for x in 0..<width { image.base[y * width + x] = pixel(x, y) } }
        return image
    }

    static func standardDeviation(_ image: GrayImage) -> Double {
        let n = Double(image.width * image.height)
        var sum = 0.0, squares = 0.0
        for i in 0..<(image.width * image.height) {
            let v = Double(image.base[i])
            sum += v
            squares += v * v
        }
        return (squares / n - (sum / n) * (sum / n)).squareRoot()
    }

    @Test func aFlatImageStaysFlatAtHalfSize() {
        let matched = NoiseMatchedPrintImage()
        matched.make(from: Self.image(width: 101, height: 64) { _, _ in 137 })
        #expect(matched.image.width == 50 && matched.image.height == 32)
        #expect((0..<(50 * 32)).allSatisfy { matched.image.base[$0] == 137 })
    }

    /// Noise of ±24 levels about mid-grey (a fixed linear congruential sequence from `seed`: the tests are repeatable).
    static func noisy(width: Int, height: Int, seed: UInt32) -> GrayImage {
        var state = seed
        return image(width: width, height: height) { _, _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(104 + Int(state >> 24) % 49)
        }
    }

    @Test func noiseIsAveragedMoreThanByTheBoxReduction() {
        let noisy = Self.noisy(width: 320, height: 240, seed: 12345)
        let box = GrayImage()
        box.downsample2x(from: noisy)
        let matched = NoiseMatchedPrintImage()
        matched.make(from: noisy)
        let input = Self.standardDeviation(noisy), boxed = Self.standardDeviation(box)
        let reduced = Self.standardDeviation(matched.image)
        // White noise: the 2 × 2 box halves it, the [1 3 3 1] kernel both ways keeps 5/16 of it.
        #expect(abs(boxed / input - 0.5) < 0.05, "\(boxed / input)")
        #expect(abs(reduced / input - 0.3125) < 0.05, "\(reduced / input)")
    }

    @Test func aSmallFrameSearchedAtItsOwnSizeIsBlurredInPlace() {
        let noisy = Self.noisy(width: 240, height: 180, seed: 777)
        let matched = NoiseMatchedPrintImage()
        matched.makeSameSize(from: noisy)
        #expect(matched.image.width == 240 && matched.image.height == 180)
        // [1 2 1] / 4 both ways keeps 3/8 of white noise.
        let kept = Self.standardDeviation(matched.image) / Self.standardDeviation(noisy)
        #expect(abs(kept - 0.375) < 0.05, "\(kept)")
        matched.makeSameSize(from: Self.image(width: 33, height: 17) { _, _ in 90 })
        #expect((0..<(33 * 17)).allSatisfy { matched.image.base[$0] == 90 })
    }
}
