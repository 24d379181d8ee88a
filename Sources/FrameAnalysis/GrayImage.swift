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

    /// Makes `self` a 2×2 box-averaged copy of `source` (odd last row/column dropped).
    func downsample2x(from source: GrayImage) {
        let w = source.width / 2, h = source.height / 2
        resize(width: w, height: h)
        let src = source.base, dst = base, sw = source.width
        for y in 0..<h {
            let r0 = src + (2 * y) * sw, r1 = r0 + sw, out = dst + y * w
            for x in 0..<w {
                let s = Int(r0[2 * x]) + Int(r0[2 * x + 1]) + Int(r1[2 * x]) + Int(r1[2 * x + 1])
                out[x] = UInt8(truncatingIfNeeded: (s + 2) >> 2)
            }
        }
    }
}
