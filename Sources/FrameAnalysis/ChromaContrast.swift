// The frame's colour contrast as a gray image, for the card a luma search cannot see: a card whose brightness matches
// its background's (a blue card on a yellow wall, a green one on a grey desk, both exposed to the same mean) has
// sides that are plain colour edges, nearly flat in luma. The chroma planes (Cb, Cr) are projected onto the direction
// in which the frame's colours vary most (their principal axis: with a card in view, mostly the card against its
// background) and stretched around mid-grey, so the document finder can look for the card there as in luma.
// docs/capture.md, "Colour edges", and ADR 12 say when this runs and what it costs.
import Foundation

/// Reuses its buffers between frames: one per analyzer (not Sendable).
final class ChromaContrast {
    /// Chroma code differences are multiplied by this: camera chroma spans a few tens of codes where luma spans a
    /// couple of hundred, and the finder's edge floors are luma-sized. (×4 keeps JPEG chroma noise, ±1–2 codes,
    /// under the finder's weak-edge floor.)
    static let gain = 4.0
    /// Below this standard deviation along the principal axis (chroma codes) the frame is close to grey all over:
    /// there is no colour edge to find, and the stretched noise would only make false lines.
    static let minSpread = 2.0

    /// The two planes at the detection size.
    private var u: UnsafeMutableBufferPointer<Float> = .allocate(capacity: 1)
    private var v: UnsafeMutableBufferPointer<Float> = .allocate(capacity: 1)

    deinit {
        u.deallocate()
        v.deallocate()
    }

    /// Projects `cb` and `cr` (any plane size; resampled by area to `width × height`, the detection image's size)
    /// into `image`. Returns false, leaving `image` unspecified, when the frame has no colour contrast to search.
    func project(cb: GrayImage, cr: GrayImage, into image: GrayImage, width: Int, height: Int) -> Bool {
        guard width > 0, height > 0, cb.width > 0, cb.height > 0, cb.width == cr.width, cb.height == cr.height else {
            return false
        }
        image.resize(width: width, height: height)
        let count = width * height
        if u.count < count {
            u.deallocate()
            v.deallocate()
            u = .allocate(capacity: count)
            v = .allocate(capacity: count)
        }
        let u = self.u.baseAddress!, v = self.v.baseAddress!
        Self.resample(cb, into: u, width: width, height: height)
        Self.resample(cr, into: v, width: width, height: height)
        var sumU: Float = 0, sumV: Float = 0
        for i in 0..<count {
            sumU += u[i]
            sumV += v[i]
        }
        let meanU = Double(sumU) / Double(count), meanV = Double(sumV) / Double(count)
        var uu = 0.0, uv = 0.0, vv = 0.0
        for i in 0..<count {
            let du = Double(u[i]) - meanU, dv = Double(v[i]) - meanV
            uu += du * du
            uv += du * dv
            vv += dv * dv
        }
        uu /= Double(count)
        uv /= Double(count)
        vv /= Double(count)
        // The covariance's principal axis and its variance (the larger eigenvalue of [[uu, uv], [uv, vv]]).
        let angle = 0.5 * atan2(2 * uv, uu - vv)
        let axis = SIMD2(cos(angle), sin(angle))
        let variance: Double = axis.x * axis.x * uu + 2 * axis.x * axis.y * uv + axis.y * axis.y * vv
        guard variance.squareRoot() >= Self.minSpread else { return false }
        let ku = Float(Self.gain * axis.x), kv = Float(Self.gain * axis.y)
        let offset = Float(128 - Self.gain * (axis.x * meanU + axis.y * meanV))
        let out = image.base
        for i in 0..<count {
            let value = offset + ku * u[i] + kv * v[i]
            out[i] = UInt8(min(255, max(0, value.rounded())))
        }
        return true
    }

    /// Area resampling of `plane` to `width × height` floats: each output pixel is the mean of the source pixels
    /// whose index ranges map onto it (at least one). A plane already of that size (a camera's 4:2:0 chroma) is
    /// copied.
    static func resample(_ plane: GrayImage, into out: UnsafeMutablePointer<Float>, width: Int, height: Int) {
        let sw = plane.width, sh = plane.height, src = plane.base
        if sw == width && sh == height {
            for i in 0..<(width * height) { out[i] = Float(src[i]) }
            return
        }
        for y in 0..<height {
            let y0 = y * sh / height, y1 = max(y0 + 1, (y + 1) * sh / height)
            var x0 = 0
            for x in 0..<width {
                let x1 = max(x0 + 1, (x + 1) * sw / width)
                var sum = 0
                for yy in y0..<y1 {
                    let row = src + yy * sw
                    for xx in x0..<min(x1, sw) { sum += Int(row[xx]) }
                }
                out[y * width + x] = Float(sum) / Float((y1 - y0) * (min(x1, sw) - x0))
                x0 = (x + 1) * sw / width
            }
        }
    }
}
