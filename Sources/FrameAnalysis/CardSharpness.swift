// Sharpness of a document inside its quad: how steep its step edges are, judged only on real steps.

enum CardSharpness {
    /// How far either side of an edge pixel the whole step is read (working pixels). Four, not three: camera shake
    /// and defocus widen a card's edges to ramps many pixels wide, and a wider reach tells a soft ramp from a crisp
    /// edge by a wider margin (on camsim seeds 2/3 the gap between the softest GOOD and sharpest BLURRY card grew
    /// from 0.04 to 0.13 of the scale).
    static let stepReach = 4
    /// Raw steepness ratio (fine rise / whole step, strength-weighted) that maps to 0.5, the default BLURRY
    /// threshold, and the ratio that maps to 0 (1 stays 1).
    static let ratioAtHalf = 0.65
    static let ratioAtZero = 0.3
    /// Steps that reach this luma are left out: they are the rim of a clipped reflection (glare), not print.
    static let clippedLuma = 250

    /// Edge steepness per direction, like `FrameMeasurements.sharpness`, but an edge pixel counts only when it is
    /// part of a *step*: the whole rise I(p+4d) − I(p−4d) has the fine rise's sign and is at least as large.
    ///
    /// Why: in a camera frame a smeared card still has many fine differences above the floor that are not edges —
    /// sensor noise riding on a ramp, JPEG blocking, the thin overshoot (halo) that in-camera unsharp masking puts
    /// beside every blurred edge, and the crisp streaks a shake path draws along its own direction. Each of those is
    /// a ridge or a spike (the intensity comes back within a few pixels), so its fine rise exceeds its whole step and
    /// the old ratio, which clamped the step up to the fine rise, read it as a perfectly crisp edge: six blurred
    /// camsim frames (seeds 2/3) measured 0.50–0.68 and were judged GOOD. A real edge's intensity stays on its new
    /// level, so its whole step is at least its fine rise. Judging only steps makes the measure follow the edge width
    /// whatever the contrast, noise or sharpening. Thin printed strokes (ridges too) drop out as well; the card's
    /// outline, photo, blocks and the wider strokes remain, thousands of samples on any card.
    /// Samples every `rowStep`-th row and every other column inside `spans` (the vector walk reads 16 samples at a
    /// time, so the column step is fixed).
    static func measure(_ image: GrayImage, spans: RegionSpans, rowStep: Int = 4) -> SharpnessMeasurement {
        let reach = stepReach
        let w = image.width, h = image.height
        let glareReach = 5 * reach
        let margin = glareReach + 1
        guard w > 2 * margin, h > 2 * margin else {
            return SharpnessMeasurement(horizontal: 0, vertical: 0, diagonal: 0, antidiagonal: 0)
        }
        var num = SIMD4<Int>(repeating: 0), den = SIMD4<Int>(repeating: 0)
        let floor = 20
        @inline(__always) func edge(_ p: UnsafeMutablePointer<UInt8>, _ d: Int, _ k: Int) {
            guard let f = FrameMeasurements.steepestRise(p, d, floor: floor) else { return }
            let af = abs(f)
            // Only steps: the whole rise keeps the fine rise's sign and is not smaller (a spike or ridge is).
            let ahead = Int(p[reach * d]), behind = Int(p[-reach * d])
            let step = f > 0 ? ahead - behind : behind - ahead
            if step < af { return }
            // Not the falloff of a glare spot: a reflection's lobe is smooth whatever the focus, and its rim
            // (a large step, so heavily weighted) would make a sharp card with glare read as blurred. The rim
            // reaches the clipped core within five step widths (`glareReach`; at three, a soft reflection's outer
            // lobe still counted, and two sharp camsim cards with glare read as blurred).
            // (Each compared with the clipped level: the same test as the largest of the four, without the generic
            // `max`, which the compiler leaves as a call here.)
            if ahead >= clippedLuma || behind >= clippedLuma || Int(p[glareReach * d]) >= clippedLuma
                || Int(p[-glareReach * d]) >= clippedLuma { return }
            num[k] &+= af &* af
            den[k] &+= af &* step
        }
        // The same samples as `forEachBusyPixel`'s walk, 16 at a time in all four directions (`blockSums`), then
        // the rest of the row as there. (Integer sums: the order does not change them.)
        var y = margin
        while y < h - margin {
            let lo = max(margin, Int(spans.lo[y])), hi = min(w - margin, Int(spans.hi[y]))
            if lo < hi {
                let row = image.base + y * w
                var x0 = lo
                var squares = (SIMD8<UInt32>(), SIMD8<UInt32>(), SIMD8<UInt32>(), SIMD8<UInt32>())
                var products = (SIMD8<UInt32>(), SIMD8<UInt32>(), SIMD8<UInt32>(), SIMD8<UInt32>())
                // (A row's sums per lane stay far below 2³²: at most 2 · 255² per block.)
                while x0 + 30 < hi {
                    let p = row + x0
                    @inline(__always) func sums(_ d: Int) -> (squares: SIMD8<UInt32>, products: SIMD8<UInt32>) {
                        blockSums(p, direction: d, reach: reach, glareReach: glareReach, floor: Int16(floor))
                    }
                    let s0 = sums(1), s1 = sums(w), s2 = sums(w + 1), s3 = sums(w - 1)
                    squares.0 &+= s0.squares; products.0 &+= s0.products
                    squares.1 &+= s1.squares; products.1 &+= s1.products
                    squares.2 &+= s2.squares; products.2 &+= s2.products
                    squares.3 &+= s3.squares; products.3 &+= s3.products
                    x0 += 32
                }
                @inline(__always) func total(_ v: SIMD8<UInt32>) -> Int {
                    Int(v[0]) + Int(v[1]) + Int(v[2]) + Int(v[3]) + Int(v[4]) + Int(v[5]) + Int(v[6]) + Int(v[7])
                }
                num &+= SIMD4(total(squares.0), total(squares.1), total(squares.2), total(squares.3))
                den &+= SIMD4(total(products.0), total(products.1), total(products.2), total(products.3))
                for x in stride(from: x0, to: hi, by: 2) {
                    let p = row + x
                    if FrameMeasurements.isFlat(p, rowStride: w, within: floor / 2) { continue }
                    edge(p, 1, 0)
                    edge(p, w, 1)
                    edge(p, w + 1, 2)
                    edge(p, w - 1, 3)
                }
            }
            y += rowStep
        }
        func normalised(_ k: Int) -> Double {
            guard den[k] > 0 else { return 0 }
            let ratio = Double(num[k]) / Double(den[k])
            // Linear in the ratio: ratioAtZero → 0, ratioAtHalf → 0.5 (the BLURRY threshold), 1 (crisp) → 1.
            let scale = 0.5 / (ratioAtHalf - ratioAtZero)
            return max(0, min(1, (ratio - ratioAtZero) * scale))
        }
        return SharpnessMeasurement(horizontal: normalised(0), vertical: normalised(1), diagonal: normalised(2),
                                    antidiagonal: normalised(3))
    }
}
