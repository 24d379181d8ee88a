// Turning a decoded working image upright (FrameOrientation): one pass over the pixels, in tiles.

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
        // Quarter turns write down columns: 32 × 32 tiles keep both the rows read and the columns written in cache.
        let tile = 32
        for y0 in Swift.stride(from: 0, to: h, by: tile) {
            let y1 = min(y0 + tile, h)
            for x0 in Swift.stride(from: 0, to: w, by: tile) {
                let x1 = min(x0 + tile, w)
                for y in y0..<y1 {
                    let row = src + y * w
                    var out = origin + y * stepY + x0 * stepX
                    for x in x0..<x1 {
                        dst[out] = row[x]
                        out += stepX
                    }
                }
            }
        }
    }
}
