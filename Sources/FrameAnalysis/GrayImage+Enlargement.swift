// A part of an image copied out, and an image at twice its size: the face search reads a small face's eyes on its
// part of the frame enlarged (FaceSearch.enlargedEyes).

extension GrayImage {
    /// Makes `self` a copy of `source`'s rectangle at (`x`, `y`), `width × height`, clamped to `source` (an empty
    /// image when nothing of it lies inside). `source` and `self` must differ.
    func crop(from source: GrayImage, x: Int, y: Int, width: Int, height: Int) {
        precondition(source !== self, "an image cannot be cropped in place")
        let x0 = min(max(x, 0), source.width), y0 = min(max(y, 0), source.height)
        let x1 = min(max(x + width, x0), source.width), y1 = min(max(y + height, y0), source.height)
        resize(width: x1 - x0, height: y1 - y0)
        for row in 0..<self.height {
            (base + row * self.width).update(from: source.base + (y0 + row) * source.width + x0, count: self.width)
        }
    }

    /// Makes `self` `source` at twice its width and height, each pixel interpolated linearly between the four
    /// source pixels around its centre (pixel centres aligned: output pixel 2i is a quarter of the way from source
    /// pixel i towards i − 1, 2i + 1 a quarter of the way towards i + 1; edges repeat). `source` and `self` must
    /// differ.
    func enlarge2x(from source: GrayImage) {
        precondition(source !== self, "an image cannot be enlarged in place")
        let w = source.width, h = source.height
        resize(width: 2 * w, height: 2 * h)
        guard w > 0, h > 0 else { return }
        let src = source.base, dst = base
        // For output index o along one axis: the nearer source index and the farther one, weighted 3 : 1.
        func taps(_ o: Int, _ n: Int) -> (near: Int, far: Int) {
            let near = o / 2
            let far = o % 2 == 0 ? max(near - 1, 0) : min(near + 1, n - 1)
            return (near, far)
        }
        for oy in 0..<(2 * h) {
            let (ny, fy) = taps(oy, h)
            let nearRow = src + ny * w, farRow = src + fy * w, out = dst + oy * 2 * w
            for ox in 0..<(2 * w) {
                let (nx, fx) = taps(ox, w)
                // (3·near + far) along x, then the same along y: weights 9, 3, 3, 1 over 16, rounded.
                let nearY = 3 * Int(nearRow[nx]) + Int(nearRow[fx])
                let farY = 3 * Int(farRow[nx]) + Int(farRow[fx])
                out[ox] = UInt8((3 * nearY + farY + 8) >> 4)
            }
        }
    }
}
