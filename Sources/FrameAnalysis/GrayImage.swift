// A reusable 8-bit gray image buffer: grows when needed, never shrinks, so steady-state frames allocate nothing.

/// An 8-bit luma image with `width × height` pixels, rows packed (`stride == width`).
/// Owned by one analyzer; reused between frames.
final class GrayImage {
    private(set) var width = 0
    private(set) var height = 0
    private(set) var pixels: UnsafeMutableBufferPointer<UInt8>

    init() {
        pixels = .allocate(capacity: 1)
    }

    deinit { pixels.deallocate() }

    /// Sets the size, growing the storage only when it is too small (contents are then undefined).
    func resize(width: Int, height: Int) {
        let needed = max(width * height, 1)
        if needed > pixels.count {
            pixels.deallocate()
            pixels = .allocate(capacity: needed)
        }
        self.width = width
        self.height = height
    }

    var base: UnsafeMutablePointer<UInt8> { pixels.baseAddress! }

    /// The luma at (`x`, `y`), bilinear between the four pixels around it. The caller keeps the point within
    /// 0 ≤ x < width - 1, 0 ≤ y < height - 1 (not checked).
    @inline(__always)
    func bilinear(x: Double, y: Double) -> Float {
        Self.bilinear(base, width: width, x: x, y: y)
    }

    /// `bilinear(x:y:)` on the pixels at `base`, rows `width` apart: for loops that read the image's storage once.
    @inline(__always)
    static func bilinear(_ base: UnsafeMutablePointer<UInt8>, width: Int, x: Double, y: Double) -> Float {
        let x0 = Int(x), y0 = Int(y)
        let fx = Float(x - Double(x0)), fy = Float(y - Double(y0))
        let p00 = base + y0 * width + x0
        let top = Float(p00[0]) + (Float(p00[1]) - Float(p00[0])) * fx
        let bottom = Float(p00[width]) + (Float(p00[width + 1]) - Float(p00[width])) * fx
        return top + (bottom - top) * fy
    }

    /// Makes `self` a 2×2 box-averaged copy of `source` (odd last row/column dropped).
    func downsample2x(from source: GrayImage) {
        let w = source.width / 2, h = source.height / 2
        resize(width: w, height: h)
        let src = source.base, dst = base, sw = source.width
        for y in 0..<h {
            let r0 = src + (2 * y) * sw, r1 = r0 + sw, out = dst + y * w
            // 16 output pixels at a time (the same integer arithmetic as the loop below). Each pair of input pixels
            // is read as one little-endian 16-bit lane: its low byte is the left pixel, its high byte the right one
            // (the generic byte-vector conversions are out-of-line calls; masks and shifts are not).
            var x0 = 0
            while x0 + 16 <= w {
                let a = UnsafeRawPointer(r0 + 2 * x0).loadUnaligned(as: SIMD16<UInt16>.self)
                let b = UnsafeRawPointer(r1 + 2 * x0).loadUnaligned(as: SIMD16<UInt16>.self)
                let low = SIMD16<UInt16>(repeating: 0xff)
                let sum = (a & low) &+ (a &>> 8) &+ (b & low) &+ (b &>> 8)
                let mean = SIMD16<UInt8>(truncatingIfNeeded: (sum &+ 2) &>> 2)
                UnsafeMutableRawPointer(out + x0).storeBytes(of: mean, as: SIMD16<UInt8>.self)
                x0 += 16
            }
            for x in x0..<w {
                let s = Int(r0[2 * x]) + Int(r0[2 * x + 1]) + Int(r1[2 * x]) + Int(r1[2 * x + 1])
                out[x] = UInt8(truncatingIfNeeded: (s + 2) >> 2)
            }
        }
    }

    /// Makes `self` a copy of `source` inside a `border` pixels wide frame of its nearest edge pixels.
    func pad(from source: GrayImage, border: Int) {
        let w = source.width + 2 * border, h = source.height + 2 * border
        resize(width: w, height: h)
        let src = source.base, dst = base, sw = source.width, sh = source.height
        for y in 0..<h {
            let row = src + min(max(y - border, 0), sh - 1) * sw, out = dst + y * w
            for x in 0..<border { out[x] = row[0] }
            (out + border).update(from: row, count: sw)
            for x in (border + sw)..<w { out[x] = row[sw - 1] }
        }
    }
}
