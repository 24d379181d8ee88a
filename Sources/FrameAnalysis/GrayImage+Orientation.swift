// Turning a decoded working image upright (FrameOrientation): one pass over the pixels. A quarter turn (every Android
// frame from a phone held upright) moves each stored row into an upright column: it is done 8 × 8 pixels at a time,
// transposed in eight 64-bit registers, so that every load and store moves eight pixels.

extension GrayImage {
    /// Makes `self` the upright copy of `source` (`source` is left as it was; the two must differ).
    func setUpright(from source: GrayImage, orientation: FrameOrientation) {
        precondition(source !== self, "an image cannot be turned upright in place")
        let (w, h) = (source.width, source.height)
        let size = orientation.upright(width: w, height: h)
        resize(width: size.width, height: size.height)
        let map = orientation.pixelMap(width: w, height: h)
        // A stored pixel's offset in the upright image is affine in (x, y): one step along a stored row moves
        // `stepX` bytes there, one stored row `stepY`.
        let stepX = map.ax + map.ay * size.width
        let stepY = map.bx + map.by * size.width
        let origin = map.cx + map.cy * size.width
        let src = source.base, dst = base
        var blockedWidth = 0, blockedHeight = 0
        if orientation.swapsAxes {
            // Stored column x becomes upright row ay·x + cy; stored row y becomes upright column bx·y + cx.
            blockedWidth = w / 8 * 8
            blockedHeight = h / 8 * 8
            for y0 in Swift.stride(from: 0, to: blockedHeight, by: 8) {
                // The upright column of the block's first stored row, and where its eight bytes start: with bx = −1
                // the stored rows run right to left, so the block's bytes are stored reversed from the last one's.
                let firstColumn = map.bx > 0 ? map.bx * y0 + map.cx : map.bx * (y0 + 7) + map.cx
                for x0 in Swift.stride(from: 0, to: blockedWidth, by: 8) {
                    var rows = Self.transposed8x8(src + y0 * w + x0, stride: w)
                    if map.bx < 0 { rows = Self.eachByteSwapped(rows) }
                    withUnsafeBytes(of: rows) { columns in
                        for k in 0..<8 {
                            let uprightRow = map.ay * (x0 + k) + map.cy
                            UnsafeMutableRawPointer(dst + uprightRow * size.width + firstColumn)
                                .storeBytes(of: columns.load(fromByteOffset: 8 * k, as: UInt64.self), as: UInt64.self)
                        }
                    }
                }
            }
        }
        // Pixel by pixel: every orientation that keeps the axes (its rows stay rows, written in order), and the edges
        // a quarter turn's 8 × 8 blocks leave (the right-hand columns, then the bottom rows).
        func copy(xs: Range<Int>, ys: Range<Int>) {
            for y in ys {
                let row = src + y * w
                var out = origin + y * stepY + xs.lowerBound * stepX
                for x in xs {
                    dst[out] = row[x]
                    out += stepX
                }
            }
        }
        copy(xs: blockedWidth..<w, ys: 0..<blockedHeight)
        copy(xs: 0..<w, ys: blockedHeight..<h)
    }

    /// The 8 × 8 pixels at `start` (rows `stride` apart), transposed: element k of the result holds stored column k,
    /// its byte j the pixel of stored row j. Three rounds of masked swaps (2 × 2 blocks of single bytes, of byte pairs,
    /// of byte quads) in 64-bit registers; rows are read little-endian, byte j at bit 8·j.
    static func transposed8x8(_ start: UnsafePointer<UInt8>, stride: Int)
        -> (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) {
        func row(_ j: Int) -> UInt64 {
            UInt64(littleEndian: UnsafeRawPointer(start + j * stride).loadUnaligned(as: UInt64.self))
        }
        var r = (row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7))
        func swap(_ a: inout UInt64, _ b: inout UInt64, shift: UInt64, low: UInt64) {
            let high = ~low
            let (x, y) = (a, b)
            a = (x & low) | ((y & low) << shift)
            b = ((x & high) >> shift) | (y & high)
        }
        let bytes: UInt64 = 0x00FF_00FF_00FF_00FF, pairs: UInt64 = 0x0000_FFFF_0000_FFFF
        let quads: UInt64 = 0x0000_0000_FFFF_FFFF
        swap(&r.0, &r.1, shift: 8, low: bytes); swap(&r.2, &r.3, shift: 8, low: bytes)
        swap(&r.4, &r.5, shift: 8, low: bytes); swap(&r.6, &r.7, shift: 8, low: bytes)
        swap(&r.0, &r.2, shift: 16, low: pairs); swap(&r.1, &r.3, shift: 16, low: pairs)
        swap(&r.4, &r.6, shift: 16, low: pairs); swap(&r.5, &r.7, shift: 16, low: pairs)
        swap(&r.0, &r.4, shift: 32, low: quads); swap(&r.1, &r.5, shift: 32, low: quads)
        swap(&r.2, &r.6, shift: 32, low: quads); swap(&r.3, &r.7, shift: 32, low: quads)
        return (r.0.littleEndian, r.1.littleEndian, r.2.littleEndian, r.3.littleEndian,
                r.4.littleEndian, r.5.littleEndian, r.6.littleEndian, r.7.littleEndian)
    }

    /// Each register's eight bytes in reverse order (in memory, as stored).
    private static func eachByteSwapped(_ r: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64))
        -> (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) {
        (r.0.byteSwapped, r.1.byteSwapped, r.2.byteSwapped, r.3.byteSwapped,
         r.4.byteSwapped, r.5.byteSwapped, r.6.byteSwapped, r.7.byteSwapped)
    }
}
