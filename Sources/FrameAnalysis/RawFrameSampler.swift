// Raw camera frames: only the Y (luma) plane is read; it is box-subsampled by an integer factor to the working size.

enum RawFrameSampler {
    /// Validates the layout and subsamples the Y plane into `image`. Returns the input size.
    /// A video-range frame (`lumaRange`) is stretched to full range in the same pass (`LumaRange.fullRangeOfVideoLuma`
    /// applied to each sampled pixel).
    static func sample(bytes: [UInt8], width: Int, height: Int, stride: Int, format: RawPixelFormat,
                       lumaRange: LumaRange = .full, into image: GrayImage, longSide: Int,
                       maxPixels: Int) throws(FrameAnalysisError) {
        guard !bytes.isEmpty else { throw FrameAnalysisError(code: .emptyInput, message: "the frame has no bytes") }
        guard width > 0, height > 0, stride >= width else {
            throw FrameAnalysisError(code: .wrongRawSize,
                                     message: "invalid raw layout \(width)×\(height) with stride \(stride)")
        }
        guard width.multipliedReportingOverflow(by: height).partialValue <= maxPixels,
              width <= maxPixels, height <= maxPixels else {
            throw FrameAnalysisError(code: .tooManyPixels,
                                     message: "frame is \(width)×\(height) pixels, more than the maximum of \(maxPixels)")
        }
        // Rows of the whole buffer: the Y plane, plus the interleaved half-height chroma plane for NV12/NV21.
        let chromaRows = format == .gray8 ? 0 : (height + 1) / 2
        let (yBytes, overflow) = stride.multipliedReportingOverflow(by: height + chromaRows)
        guard !overflow else { throw FrameAnalysisError(code: .wrongRawSize, message: "raw frame size overflows") }
        let lastRowWidth = format == .gray8 ? width : (width + 1) / 2 * 2
        let minimum = yBytes - stride + lastRowWidth   // the last row may come without its padding
        guard bytes.count >= minimum, bytes.count <= yBytes else {
            throw FrameAnalysisError(code: .wrongRawSize, message: "a \(format.rawValue) frame of \(width)×\(height) "
                + "with stride \(stride) needs \(yBytes) bytes (at least \(minimum)); got \(bytes.count)")
        }
        let factor = max(1, max(width, height) / max(longSide, 1))
        let w = width / factor, h = height / factor
        image.resize(width: w, height: h)
        let dst = image.base
        let video = lumaRange == .video
        bytes.withUnsafeBufferPointer { buffer in
            LumaRange.fullRangeOfVideoLuma.withUnsafeBufferPointer { fullRange in
                let src = buffer.baseAddress!
                if factor == 1 {
                    for y in 0..<h {
                        let row = src + y * stride, out = dst + y * w
                        if video {
                            for x in 0..<w { out[x] = fullRange[Int(row[x])] }
                        } else {
                            out.update(from: row, count: w)
                        }
                    }
                    return
                }
                let area = factor * factor, half = area / 2
                for y in 0..<h {
                    let out = dst + y * w
                    for x in 0..<w {
                        var sum = 0
                        var row = src + (y * factor) * stride + x * factor
                        for _ in 0..<factor {
                            for k in 0..<factor { sum &+= Int(row[k]) }
                            row += stride
                        }
                        let mean = (sum + half) / area
                        out[x] = video ? fullRange[mean] : UInt8(truncatingIfNeeded: mean)
                    }
                }
            }
        }
    }

    /// Box-subsamples the interleaved chroma plane of an NV12 (Cb, Cr) or NV21 (Cr, Cb) frame into `cb` and `cr`, by
    /// the luma's factor (so each is half the working size both ways); false for gray8, which has none. The layout
    /// must already have passed `sample` (same arguments). Only for the chroma search (`ChromaContrast`).
    static func sampleChroma(bytes: [UInt8], width: Int, height: Int, stride: Int, format: RawPixelFormat,
                             cb: GrayImage, cr: GrayImage, longSide: Int) -> Bool {
        guard format != .gray8 else { return false }
        let factor = max(1, max(width, height) / max(longSide, 1))
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        let w = chromaWidth / factor, h = chromaHeight / factor
        guard w > 0, h > 0, bytes.count >= stride * height + (chromaHeight - 1) * stride + 2 * chromaWidth else {
            return false
        }
        cb.resize(width: w, height: h)
        cr.resize(width: w, height: h)
        let (cbOffset, crOffset) = format == .nv12 ? (0, 1) : (1, 0)
        let area = factor * factor, half = area / 2
        bytes.withUnsafeBufferPointer { buffer in
            let plane = buffer.baseAddress! + stride * height
            for y in 0..<h {
                let cbOut = cb.base + y * w, crOut = cr.base + y * w
                for x in 0..<w {
                    var cbSum = 0, crSum = 0
                    var row = plane + (y * factor) * stride + 2 * x * factor
                    for _ in 0..<factor {
                        for k in 0..<factor {
                            cbSum &+= Int(row[2 * k + cbOffset])
                            crSum &+= Int(row[2 * k + crOffset])
                        }
                        row += stride
                    }
                    cbOut[x] = UInt8(truncatingIfNeeded: (cbSum + half) / area)
                    crOut[x] = UInt8(truncatingIfNeeded: (crSum + half) / area)
                }
            }
        }
        return true
    }
}
