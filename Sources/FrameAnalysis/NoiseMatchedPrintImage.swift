// The image a full-size decode's print is judged on: the working image reduced to the detection size with a wider
// kernel, so that the sensor's noise is averaged about as a scaled decode averages it (docs/capture.md, "Document
// quad", "Print on small frames").
//
// A frame of 720p or more is decoded at half size or less (the DCT scaling averages about 2 × 2 of its pixels into
// each working pixel) and then halved again for detection: each detection pixel averages ~16 of the sensor's. A frame
// no larger than the working size (a VGA stream's) is decoded at full size, and its detection pixels average only 4:
// the noise there is about twice as strong (a frame between the two, decoded at 5/8-7/8, keeps most of it too, and one
// under 560 px long is searched at its own size, its noise not averaged at all). `DocumentFinder.interiorTexture`
// counts the share of a quad's inside with gradients above the weak edge threshold, which such noise crosses on a bare
// surface: hands, walls and boxes closed by the frame's border read as printed, and were told CUT_OFF in empty scenes.
// Reduced with the kernel [1 3 3 1] / 8 both ways (4 × 4 taps, each detection pixel ~16 of the frame's), or blurred
// with [1 2 1] / 4 where the frame is searched at its own size, the noise is averaged about as a scaled decode's is,
// and print is judged on it; lines and corners are still found on the plain detection image.
//
// `FrameAnalyzer` says per frame whether the frame needs it (`begin`); it is made only when a search first reads
// print on the frame's detection image (`prepared(for:)`): not for selfies, nor for a frame whose card is tracked
// without a search that judges print.

/// Makes and holds one frame's noise-matched print image and its gradients, in buffers reused between frames.
final class NoiseMatchedPrintImage {
    let image = GrayImage()
    let gradients = SobelGradients()
    /// This frame's working and detection images (the analyzer's own, the same objects frame after frame), whether
    /// the frame needs the image, and whether it is made.
    private var working: GrayImage?, detection: GrayImage?
    private var needed = false, made = false
    /// One row of the vertical pass (sums of four rows weighted 1, 3, 3, 1: at most 8 × 255).
    private var row: UnsafeMutableBufferPointer<UInt16> = .allocate(capacity: 1)

    deinit { row.deallocate() }

    /// Starts a frame: the image is needed (`needed`: the decode averaged fewer than 2 × 2 of the frame's pixels
    /// into each working pixel) for print read on `detection`, made from `working` when first asked for.
    func begin(working: GrayImage, detection: GrayImage, needed: Bool) {
        self.working = working
        self.detection = detection
        self.needed = needed
        made = false
    }

    /// This frame's image, made on first use, when the frame needs it and `searched` is its detection image (a
    /// window of the frame, or another image, judges its print on itself); nil otherwise.
    func prepared(for searched: GrayImage) -> NoiseMatchedPrintImage? {
        guard needed, let working, let detection, searched === detection else { return nil }
        if !made {
            if detection === working { makeSameSize(from: working) } else { make(from: working) }
            made = true
        }
        return self
    }

    /// The vertical pass's row, grown to `count` sums when shorter.
    private func rowSums(count: Int) -> UnsafeMutablePointer<UInt16> {
        if count > row.count {
            row.deallocate()
            row = .allocate(capacity: count)
        }
        return row.baseAddress!
    }

    /// `image` made from `working` (half its size both ways, odd last row and column dropped, as
    /// `GrayImage.downsample2x` does), and its gradients.
    func make(from working: GrayImage) {
        let sw = working.width, sh = working.height, w = sw / 2, h = sh / 2
        image.resize(width: w, height: h)
        let src = working.base, dst = image.base, sums = rowSums(count: sw)
        for y in 0..<h {
            // Rows 2y − 1 … 2y + 2, clamped at the image's edges.
            let r0 = src + max(2 * y - 1, 0) * sw, r1 = src + 2 * y * sw
            let r2 = src + min(2 * y + 1, sh - 1) * sw, r3 = src + min(2 * y + 2, sh - 1) * sw
            for x in 0..<sw {
                sums[x] = UInt16(r0[x]) &+ 3 &* (UInt16(r1[x]) &+ UInt16(r2[x])) &+ UInt16(r3[x])
            }
            let out = dst + y * w
            for x in 0..<w {
                let left = sums[max(2 * x - 1, 0)], right = sums[min(2 * x + 2, sw - 1)]
                let sum = UInt32(left) &+ 3 &* (UInt32(sums[2 * x]) &+ UInt32(sums[2 * x + 1])) &+ UInt32(right)
                out[x] = UInt8(truncatingIfNeeded: (sum &+ 32) &>> 6)
            }
        }
        gradients.compute(image)
    }

    /// `image` made from `working` at its own size, blurred with [1 2 1] / 4 both ways (3/8 of white noise kept),
    /// and its gradients: for a frame small enough to be searched at its working size (`FrameAnalyzer`: a working
    /// long side under 560 px is its own detection image, its noise not averaged at all).
    func makeSameSize(from working: GrayImage) {
        let w = working.width, h = working.height
        image.resize(width: w, height: h)
        let src = working.base, dst = image.base, sums = rowSums(count: w)
        for y in 0..<h {
            let r0 = src + max(y - 1, 0) * w, r1 = src + y * w, r2 = src + min(y + 1, h - 1) * w
            for x in 0..<w { sums[x] = UInt16(r0[x]) &+ 2 &* UInt16(r1[x]) &+ UInt16(r2[x]) }
            let out = dst + y * w
            for x in 0..<w {
                let sum = UInt32(sums[max(x - 1, 0)]) &+ 2 &* UInt32(sums[x]) &+ UInt32(sums[min(x + 1, w - 1)])
                out[x] = UInt8(truncatingIfNeeded: (sum &+ 8) &>> 4)
            }
        }
        gradients.compute(image)
    }
}
