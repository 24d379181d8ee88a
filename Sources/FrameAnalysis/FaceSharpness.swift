// Selfie sharpness judged at a fixed face scale, so that it does not depend on how close the face is.

/// Measures a face's sharpness after box-resampling the face box to `normalizedWidth` pixels.
///
/// Whether a face is sharp enough depends on detail relative to the face (what a face matcher sees at its ~100 px
/// input), not on how many pixels the face happens to span: edge steepness measured in pixels would call a close
/// face blurry just because its edges (skin, jaw, hair) span more pixels, and the same face farther away sharp.
/// A face smaller than the normalised width is measured as it is (it is FACE_TOO_SMALL anyway). Buffers are
/// reused between frames.
final class FaceSharpness {
    /// Face width (pixels) at which sharpness is measured: about what face matchers take as input.
    static let normalizedWidth = 96
    /// Edges reaching this luma (in the face crop, after its gain) are left out: before an over-exposed window a
    /// shaken or defocused head keeps a crisp outline (the blur spreads light far above the clip level, and clipping
    /// flattens it again), which would make a blurred face read sharp (docs/capture.md, selfie `sharpness`).
    static let clippedLuma = 250

    private let crop = GrayImage()
    private let spans = RegionSpans()

    /// Sharpness of the box `x0..<x1 × y0..<y1` of `image` (clamped to the image) at the normalised face scale.
    func measure(_ image: GrayImage, x0: Int, y0: Int, x1: Int, y1: Int) -> SharpnessMeasurement {
        let left = max(0, min(x0, image.width)), right = max(left, min(x1, image.width))
        let top = max(0, min(y0, image.height)), bottom = max(top, min(y1, image.height))
        let width = right - left, height = bottom - top
        let factor = max(1.0, Double(width) / Double(Self.normalizedWidth))
        let outWidth = max(1, Int(Double(width) / factor)), outHeight = max(1, Int(Double(height) / factor))
        guard width > 0, height > 0 else {
            return SharpnessMeasurement(horizontal: 0, vertical: 0, diagonal: 0, antidiagonal: 0)
        }
        crop.resize(width: outWidth, height: outHeight)
        let src = image.base, dst = crop.base, stride = image.width
        // The edge measure ignores steps below a fixed noise floor, which in an under-exposed face are all of them:
        // bring the face to a mid-grey mean first (gain at most 4, so noise is not made into edges), so the measure
        // judges focus, not exposure (TOO_DARK reports the exposure).
        var faceSum = 0
        for sy in top..<bottom {
            let row = src + sy * stride
            for sx in left..<right { faceSum &+= Int(row[sx]) }
        }
        let faceMean = Double(faceSum) / Double(width * height)
        let gain = min(4.0, max(1.0, 128.0 / max(faceMean, 1)))
        let gainFixed = Int(gain * 256)
        // Box (area) resampling: each output pixel averages the source pixels it covers, the anti-aliasing a
        // camera's larger pixels would give.
        for oy in 0..<outHeight {
            let sy0 = top + Int(Double(oy) * factor), sy1 = max(sy0 + 1, min(bottom, top + Int(Double(oy + 1) * factor)))
            let out = dst + oy * outWidth
            for ox in 0..<outWidth {
                let sx0 = left + Int(Double(ox) * factor)
                let sx1 = max(sx0 + 1, min(right, left + Int(Double(ox + 1) * factor)))
                var sum = 0
                for sy in sy0..<sy1 {
                    let row = src + sy * stride
                    for sx in sx0..<sx1 { sum &+= Int(row[sx]) }
                }
                let count = (sy1 - sy0) * (sx1 - sx0)
                let value = ((sum * gainFixed) / count + 128) >> 8
                out[ox] = UInt8(truncatingIfNeeded: min(value, 255))
            }
        }
        spans.set(for: crop, quad: nil)
        return FrameMeasurements.sharpness(crop, spans: spans, clippedLuma: Self.clippedLuma)
    }
}
