// libjpeg-turbo (TurboJPEG API) decoding straight to 8-bit gray at a reduced working resolution.
// The header is read first so oversized images are refused before any pixel buffer is allocated; the DCT scaling
// factor is the smallest one whose result is still at least the working size (less IDCT work, no resize pass).
// Warnings are treated as errors: a truncated JPEG decodes "successfully" with a grey bottom, which must never be
// analysed or auto-captured.
import CTurboJPEG

/// Decodes JPEGs to gray at a working resolution. Owns one TurboJPEG handle; one decoder per thread.
public final class JPEGGrayDecoder {
    private var handle: tjhandle?
    private let scalingFactors: [(num: Int, denom: Int)]

    /// How many decodes (gray or planes) this decoder has run: tests check how often one frame is decoded.
    private(set) var decodeCount = 0

    public init() {
        handle = tjInitDecompress()
        var count: Int32 = 0
        var factors: [(Int, Int)] = []
        if let list = tjGetScalingFactors(&count) {
            for i in 0..<Int(count) { factors.append((Int(list[i].num), Int(list[i].denom))) }
        }
        scalingFactors = factors.isEmpty ? [(1, 1)] : factors
    }

    deinit { close() }

    /// Frees the TurboJPEG handle; safe to call more than once.
    public func close() {
        if let handle { tjDestroy(handle) }
        handle = nil
    }

    /// The header's size, checked against `maxPixels` (nothing is decoded).
    public func header(of jpeg: [UInt8], maxPixels: Int) throws(FrameAnalysisError) -> (width: Int, height: Int) {
        let header = try checkedHeader(of: jpeg, maxPixels: maxPixels)
        return (header.width, header.height)
    }

    /// The header's size, chroma subsampling (`TJSAMP`) and colour space (`TJCS`), checked as `header(of:)` says.
    private func checkedHeader(of jpeg: [UInt8], maxPixels: Int) throws(FrameAnalysisError)
        -> (width: Int, height: Int, subsampling: Int32, colorspace: Int32) {
        guard !jpeg.isEmpty else { throw FrameAnalysisError(code: .emptyInput, message: "the frame has no bytes") }
        guard let handle else { throw FrameAnalysisError(code: .unsupportedFormat, message: "decoder is closed") }
        var w: Int32 = 0, h: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let rc = jpeg.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &w, &h, &subsampling, &colorspace)
        }
        guard rc == 0, w > 0, h > 0 else {
            let reason = Self.message(handle)
            renewAfterError()
            throw FrameAnalysisError(code: .corruptImage, message: "not a readable JPEG (\(reason))")
        }
        // Print-production JPEGs (CMYK, YCCK) have no luma plane to decode to gray; cameras never write them.
        guard colorspace != Int32(TJCS_CMYK.rawValue), colorspace != Int32(TJCS_YCCK.rawValue) else {
            throw FrameAnalysisError(code: .unsupportedFormat,
                                     message: "CMYK JPEG (print colours): send the camera's YCbCr or grayscale JPEG")
        }
        guard Int(w) * Int(h) <= maxPixels else {
            throw FrameAnalysisError(code: .tooManyPixels,
                                     message: "image is \(w)×\(h) pixels, more than the maximum of \(maxPixels)")
        }
        return (Int(w), Int(h), subsampling, colorspace)
    }

    /// The decoded size for an image of `width × height` with the smallest scale whose long side is ≥ `longSide`.
    public func scaledSize(width: Int, height: Int, longSide: Int) -> (width: Int, height: Int) {
        let long = max(width, height)
        var best = (num: 1, denom: 1), bestLong = long
        for f in scalingFactors {
            let scaled = (long * f.num + f.denom - 1) / f.denom   // TJSCALED rounds up
            if scaled >= min(longSide, long), scaled < bestLong || (scaled == bestLong && f.num < f.denom) {
                best = f
                bestLong = scaled
            }
        }
        return ((width * best.num + best.denom - 1) / best.denom, (height * best.num + best.denom - 1) / best.denom)
    }

    /// Decodes `jpeg` to gray into `image` at the working size; returns the input size.
    @discardableResult
    func decode(_ jpeg: [UInt8], into image: GrayImage, longSide: Int,
                maxPixels: Int) throws(FrameAnalysisError) -> (width: Int, height: Int) {
        let size = try header(of: jpeg, maxPixels: maxPixels)
        guard let handle else { throw FrameAnalysisError(code: .unsupportedFormat, message: "decoder is closed") }
        let scaled = scaledSize(width: size.width, height: size.height, longSide: longSide)
        image.resize(width: scaled.width, height: scaled.height)
        decodeCount += 1
        let rc = jpeg.withUnsafeBufferPointer {
            tjDecompress2(handle, $0.baseAddress, UInt($0.count), image.base, Int32(scaled.width), Int32(scaled.width),
                          Int32(scaled.height), Int32(TJPF_GRAY.rawValue),
                          Self.flags(width: size.width, scaledWidth: scaled.width))
        }
        if rc != 0 {
            throw damaged(handle)
        }
        return size
    }

    /// Decodes the chroma planes (Cb, Cr) of `jpeg` into `cb` and `cr` at the DCT scale `decode` uses for
    /// `longSide`, each at its own plane size (half the working size both ways for a camera's 4:2:0), and, when `luma`
    /// is given, the Y plane into it exactly as `decode` would (gray output of a YCbCr JPEG is its Y plane: the same
    /// pixels, one decode for both). Only for the chroma search (`ChromaContrast`). Returns false, decoding nothing,
    /// for a grayscale JPEG; nil `size` then.
    @discardableResult
    func decodeChroma(_ jpeg: [UInt8], luma: GrayImage? = nil, cb: GrayImage, cr: GrayImage, longSide: Int,
                      maxPixels: Int) throws(FrameAnalysisError) -> (width: Int, height: Int)? {
        let size = try checkedHeader(of: jpeg, maxPixels: maxPixels)
        guard let handle else { throw FrameAnalysisError(code: .unsupportedFormat, message: "decoder is closed") }
        let subsampling = size.subsampling
        guard subsampling != Int32(TJSAMP_GRAY.rawValue), size.colorspace == Int32(TJCS_YCbCr.rawValue) else {
            return nil
        }
        let scaled = scaledSize(width: size.width, height: size.height, longSide: longSide)
        // (The Y plane is padded to whole MCUs: 720 × 406 for a 405-row working image at 4:2:0.)
        // (The three planes' pointers and strides in stack buffers: no array per decode.)
        let planes = (lumaScratch, cb, cr)
        let rc = withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3) { strides -> Int32? in
            withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<UInt8>?.self, capacity: 3) { pointers -> Int32? in
                for id in 0..<3 {
                    let plane = id == 0 ? planes.0 : id == 1 ? planes.1 : planes.2
                    let pw = Int(tjPlaneWidth(Int32(id), Int32(scaled.width), subsampling))
                    let ph = Int(tjPlaneHeight(Int32(id), Int32(scaled.height), subsampling))
                    guard pw > 0, ph > 0 else { return nil }
                    plane.resize(width: pw, height: ph)
                    strides[id] = Int32(pw)
                    pointers[id] = plane.base
                }
                decodeCount += 1
                return jpeg.withUnsafeBufferPointer { buffer in
                    tjDecompressToYUVPlanes(handle, buffer.baseAddress, UInt(buffer.count), pointers.baseAddress,
                                            Int32(scaled.width), strides.baseAddress, Int32(scaled.height),
                                            Self.flags(width: size.width, scaledWidth: scaled.width))
                }
            }
        }
        guard let rc else { return nil }
        if rc != 0 {
            throw damaged(handle)
        }
        if let luma {
            luma.resize(width: scaled.width, height: scaled.height)
            for y in 0..<scaled.height {
                (luma.base + y * scaled.width).update(from: lumaScratch.base + y * lumaScratch.width,
                                                      count: scaled.width)
            }
        }
        return (size.width, size.height)
    }

    /// The Y plane `decodeChroma` must also be given (the working image already holds the frame's luma).
    private let lumaScratch = GrayImage()

    /// Decodes only (the benchmark's baseline): same working size and flags as the analyzer.
    public func decodeOnly(_ jpeg: [UInt8], longSide: Int = AnalysisThresholds.default.workingLongSide,
                           maxPixels: Int = 40_000_000) throws(FrameAnalysisError) -> (width: Int, height: Int) {
        let image = scratch
        try decode(jpeg, into: image, longSide: longSide, maxPixels: maxPixels)
        return (image.width, image.height)
    }

    private let scratch = GrayImage()

    /// A TurboJPEG handle that failed mid-stream is left in libjpeg's state of that moment (TurboJPEG 2.1 does not
    /// abort the decompressor when it returns an error), and the next JPEG, however sound, then fails too ("Bogus DQT
    /// index", "Bogus Huffman table definition"): one damaged frame would make every later frame of the analyzer's
    /// thread `corrupt_image`, another tenant's included. So the handle is replaced after every error (errors only:
    /// a sound frame reuses it).
    /// A decode's flags: warnings as errors (a truncated frame), bounded progressive scans, and the IDCT for a frame
    /// of `width` decoded to `scaledWidth` pixels across. A frame decoded at full size (a long side under 8/7 of the
    /// working one: a VGA stream's) gets the accurate IDCT: the fast one read its clipped highlights a few levels
    /// darker, under the glare luma (250; on a 480×640 frame with a glare patch, 1,444 pixels at 250 or more for the
    /// accurate IDCT's, and OpenCV's, 28,908: GOOD for GLARE). A scaled decode keeps the fast one: its luma comes from
    /// a reduced IDCT whatever the method, and only its subsampled chroma planes (the colour search's, which libjpeg
    /// decodes with the 8×8 IDCT at half scale) would change, by a level here and there (docs/capture.md, "Pipeline").
    static func flags(width: Int, scaledWidth: Int) -> Int32 {
        (scaledWidth >= width ? TJFLAG_ACCURATEDCT : TJFLAG_FASTDCT) | TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS
    }

    /// The error for a decode `handle` failed, after replacing the handle (`renewAfterError`).
    private func damaged(_ handle: tjhandle) -> FrameAnalysisError {
        let reason = Self.message(handle)
        renewAfterError()
        return FrameAnalysisError(code: .corruptImage, message: "JPEG data is damaged or truncated (\(reason))")
    }

    private func renewAfterError() {
        if let handle { tjDestroy(handle) }
        handle = tjInitDecompress()
    }

    private static func message(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }
}
