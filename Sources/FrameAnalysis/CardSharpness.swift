// Sharpness of a document inside its quad: how steep its step edges are, judged only on real steps.

enum CardSharpness {
    /// How far either side of an edge pixel the whole step is read (working pixels). Four, not three: camera shake
    /// and defocus widen a card's edges to ramps many pixels wide, and a wider reach tells a soft ramp from a crisp
    /// edge by a wider margin (on camsim seeds 2/3 the gap between the softest GOOD and sharpest BLURRY card grew
    /// from 0.04 to 0.13 of the scale).
    static let stepReach = 4
    /// Raw steepness ratio (fine rise / whole step, weighted by the fine rise squared) that maps to 0.5, the
    /// default BLURRY threshold, and the ratio that maps to 0 (1 stays 1). 0.61: halfway between the sharpest
    /// BLURRY and the softest sharp card (GOOD or GLARE, right quad) of the camsim tuning seeds 2, 3 and portrait 5.
    static let ratioAtHalf = 0.61
    static let ratioAtZero = 0.3
    /// A sample is judged when its fine rise is at least `riseFloor` and its whole step at least `stepFloor`.
    /// The noise floor is on the whole step (sensor noise does not build a 20-level step over 8 pixels); the fine
    /// rise only has to be above the grain, so the shallow ramps of a smeared edge are read too (with a floor of
    /// 20 on the fine rise they were not: a card smeared over 20 px kept only the edges along the smear, which are
    /// crisp, and read as sharp).
    static let riseFloor = 6
    static let stepFloor = 20
    /// Steps that reach this luma are left out: they are the rim of a clipped reflection (glare), not print.
    static let clippedLuma = 250
    /// Vector blocks summed in 32-bit lanes before the sums are moved to integers (see `measure`).
    static let blocksPerFlush = 64

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
    ///
    /// The ratio is Σ af³ / Σ af² · step: each step's fine-rise/step ratio weighted by af², not af. Strong steps (the
    /// card's outline, the photo's frame, dark print on a light body) are the ones a sharp camera draws crisp at any
    /// card size; weak ones are mostly smooth content (photo shading, guilloche, print finer than the optics
    /// resolve), which reads as soft ramps and more so the smaller the card is in the frame. With the old weighting
    /// sharp portrait cards (card ≤ 250 working px) read 0.44–0.50 and were told BLURRY; with af² they read 0.55+
    /// while the blurred frames stay at or below 0.45 (docs/capture.md, Document sharpness).
    /// Samples every `rowStep`-th row and every other column inside `spans` (the vector walk reads 16 samples at a
    /// time, so the column step is fixed).
    static func measure(_ image: GrayImage, spans: RegionSpans,
                        rowStep: Int = measuredRowStep) -> SharpnessMeasurement {
        guard let sums = stepSums(image, spans: spans, rowOffset: 0, rowStep: rowStep, reach: stepReach) else {
            return SharpnessMeasurement(horizontal: 0, vertical: 0, diagonal: 0, antidiagonal: 0)
        }
        return scored(sums.first.ratios)
    }

    /// `measure` at every fourth row, with `wideStepShare`'s sums over the same rows (half of its rows), read in one
    /// pass: the fine rise and its tests are shared, only the steps are read twice. `wideStepShare(completing:)`
    /// reads the other half when the wide share is needed.
    ///
    /// Why: a stream's tracked frame is nearly always one with nothing to fix, which pays for both measures, and the
    /// two passes were about a third of its analysis's instructions (callgrind, session 51). Frames that are not
    /// tracked call `measure` alone: most of them have something to fix and never read the wide share.
    static func measureWithWideRows(_ image: GrayImage, spans: RegionSpans)
        -> (sharpness: SharpnessMeasurement, wideRows: StepSums) {
        guard let sums = stepSums(image, spans: spans, rowOffset: 0, rowStep: measuredRowStep, reach: stepReach,
                                  secondReach: wideReach) else {
            return (SharpnessMeasurement(horizontal: 0, vertical: 0, diagonal: 0, antidiagonal: 0), StepSums())
        }
        return (scored(sums.first.ratios), sums.second)
    }

    /// The row step of `measure` (its default, the analysis's), twice `wideRowStep`: every row it reads, the wide share
    /// reads too.
    static let measuredRowStep = 4

    /// `measure`'s score of the raw ratios.
    private static func scored(_ ratio: SIMD4<Double>) -> SharpnessMeasurement {
        func normalised(_ k: Int) -> Double {
            // Linear in the ratio: ratioAtZero → 0, ratioAtHalf → 0.5 (the BLURRY threshold), 1 (crisp) → 1.
            let scale = 0.5 / (ratioAtHalf - ratioAtZero)
            return max(0, min(1, (ratio[k] - ratioAtZero) * scale))
        }
        return SharpnessMeasurement(horizontal: normalised(0), vertical: normalised(1), diagonal: normalised(2),
                                    antidiagonal: normalised(3))
    }

    /// The share of each step's whole rise, read `wideReach` pixels either side, that its steepest two pixels make
    /// (`measure`'s ratio with the wider reach, not mapped to a score), per direction; `overall` is the weakest.
    ///
    /// Why a second reach: a camera shaken with its speed varying leaves ghost copies of the card, so a strong
    /// step (the outline, the photo's frame, a block's edge) becomes a staircase of crisp stairs as wide as the
    /// shake. Read 4 px either side, one or two stairs pass for a whole step, crisp, and such cards scored
    /// 0.52-0.53 (camsim portrait 101 `blurry_0005`, `blurry_0008`, landscape 103 `blurry_0001`: 13-16 working px of
    /// shake, GOOD). Read 6 px either side the staircase's rise goes on and the share falls: 0.53-0.57 across the
    /// shake, where sharp cards about to be GOOD, their steps complete within 4 px, keep 0.64 or more (every other
    /// row; docs/capture.md, "Wide-reach sharpness"). 0 in a direction where no step is read.
    static func wideStepShare(_ image: GrayImage, spans: RegionSpans,
                              rowStep: Int = wideRowStep) -> SharpnessMeasurement {
        guard let sums = stepSums(image, spans: spans, rowOffset: 0, rowStep: rowStep, reach: wideReach) else {
            return SharpnessMeasurement(horizontal: 0, vertical: 0, diagonal: 0, antidiagonal: 0)
        }
        return shares(sums.first.ratios)
    }

    /// `wideStepShare` at `wideRowStep` given `measureWithWideRows`'s sums of every other of its rows: the rows
    /// between are read and added (integer sums: the same totals, so the same share, as reading every row here).
    static func wideStepShare(_ image: GrayImage, spans: RegionSpans,
                              completing wideRows: StepSums) -> SharpnessMeasurement {
        guard let sums = stepSums(image, spans: spans, rowOffset: wideRowStep, rowStep: measuredRowStep,
                                  reach: wideReach) else {
            return SharpnessMeasurement(horizontal: 0, vertical: 0, diagonal: 0, antidiagonal: 0)
        }
        return shares((sums.first + wideRows).ratios)
    }

    private static func shares(_ ratio: SIMD4<Double>) -> SharpnessMeasurement {
        SharpnessMeasurement(horizontal: ratio[0], vertical: ratio[1], diagonal: ratio[2], antidiagonal: ratio[3])
    }

    /// The reach (working pixels either side of an edge pixel) `wideStepShare` reads a step over.
    static let wideReach = 6
    /// The rows `wideStepShare` reads: every other one, not `measure`'s every fourth (the af² weighting lets a few
    /// strong samples decide, and every fourth row left a sharp card 0.001 above the threshold).
    static let wideRowStep = 2

    /// Σ af³ and Σ af² · step per direction over the samples read: the integer totals a ratio is read from.
    struct StepSums: Equatable {
        var cubes = SIMD4<Int>(repeating: 0), products = SIMD4<Int>(repeating: 0)

        static func + (a: StepSums, b: StepSums) -> StepSums {
            StepSums(cubes: a.cubes &+ b.cubes, products: a.products &+ b.products)
        }

        /// Σ af³ / Σ af² · step per direction, 0 where no sample counted.
        var ratios: SIMD4<Double> {
            func ratio(_ k: Int) -> Double { products[k] > 0 ? Double(cubes[k]) / Double(products[k]) : 0 }
            return SIMD4(ratio(0), ratio(1), ratio(2), ratio(3))
        }
    }

    /// The step sums for steps read `reach` pixels either side of the edge pixel (see `measure`), and for
    /// `secondReach` on the same samples when given (else empty), over every `rowStep`-th row from `rowOffset` rows
    /// below the margin; nil when the image is too small to sample.
    private static func stepSums(_ image: GrayImage, spans: RegionSpans, rowOffset: Int, rowStep: Int, reach: Int,
                                 secondReach: Int? = nil) -> (first: StepSums, second: StepSums)? {
        let w = image.width, h = image.height
        // A glare rim is looked for as far as with the standard reach (`glareReach`), whatever the step's reach.
        let glareReach = 5 * stepReach
        // (The same margin for both reaches while they stay under `glareReach`: measure's rows are then the wide
        // share's every other row.)
        let margin = max(glareReach, max(reach, secondReach ?? reach)) + 1
        guard w > 2 * margin, h > 2 * margin else { return nil }
        @inline(__always) func edge(_ p: UnsafeMutablePointer<UInt8>, _ d: Int, _ k: Int, reach: Int,
                                    into sums: inout StepSums) {
            guard let f = FrameMeasurements.steepestRise(p, d, floor: riseFloor) else { return }
            let af = abs(f)
            // Only steps: the whole rise keeps the fine rise's sign and is not smaller (a spike or ridge is), and
            // it is above the noise floor.
            let ahead = Int(p[reach * d]), behind = Int(p[-reach * d])
            let step = f > 0 ? ahead - behind : behind - ahead
            if step < af || step < stepFloor { return }
            // Not the falloff of a glare spot: a reflection's lobe is smooth whatever the focus, and its rim
            // (a large step, so heavily weighted) would make a sharp card with glare read as blurred. The rim
            // reaches the clipped core within five step widths (`glareReach`; at three, a soft reflection's outer
            // lobe still counted, and two sharp camsim cards with glare read as blurred).
            // (Each compared with the clipped level: the same test as the largest of the four, without the generic
            // `max`, which the compiler leaves as a call here.)
            if ahead >= clippedLuma || behind >= clippedLuma || Int(p[glareReach * d]) >= clippedLuma
                || Int(p[-glareReach * d]) >= clippedLuma { return }
            // Weighted by af² (see `measure`).
            sums.cubes[k] &+= af &* af &* af
            sums.products[k] &+= af &* af &* step
        }
        @inline(__always) func total(_ v: SIMD8<UInt32>) -> Int {
            Int(v[0]) + Int(v[1]) + Int(v[2]) + Int(v[3]) + Int(v[4]) + Int(v[5]) + Int(v[6]) + Int(v[7])
        }
        typealias Lanes = (SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>)
        @inline(__always) func add(_ cubes: Lanes, _ products: Lanes, to sums: inout StepSums) {
            sums.cubes &+= SIMD4(total(cubes.0), total(cubes.1), total(cubes.2), total(cubes.3))
            sums.products &+= SIMD4(total(products.0), total(products.1), total(products.2), total(products.3))
        }
        // The same samples as `forEachBusyPixel`'s walk, 16 at a time in all four directions (`blockRise`,
        // `blockStepTerms`), then the rest of the row as there. (Integer sums: the order does not change them.)
        // `both`: the second reach too (a separate walk, so the single reach's has no second sums to carry).
        @inline(__always) func walk(both: Bool) -> (first: StepSums, second: StepSums) {
            var first = StepSums(), second = StepSums()
            var y = margin + rowOffset
            while y < h - margin {
                defer { y += rowStep }
                let lo = max(margin, Int(spans.lo[y])), hi = min(w - margin, Int(spans.hi[y]))
                guard lo < hi else { continue }
                let row = image.base + y * w
                var x0 = lo
                // The lanes' sums are moved to the totals every `blocksPerFlush` blocks: a block adds at most
                // 2 · 255³ to a lane, so 64 blocks stay below 2³² whatever the working width.
                while x0 + 30 < hi {
                    var cubes: Lanes = (.zero, .zero, .zero, .zero), products: Lanes = (.zero, .zero, .zero, .zero)
                    var cubes2: Lanes = (.zero, .zero, .zero, .zero), products2: Lanes = (.zero, .zero, .zero, .zero)
                    let end = min(hi, x0 + 32 * blocksPerFlush)
                    while x0 + 30 < end {
                        let p = row + x0
                        // The fine rises in the four directions first: a block where no sample may count in any
                        // (a plain stretch of the card) adds nothing, and its steps are not read.
                        let riseFloor = Int16(riseFloor), stepFloor = Int16(stepFloor)
                        let r0 = blockRise(p, direction: 1, glareReach: glareReach, riseFloor: riseFloor)
                        let r1 = blockRise(p, direction: w, glareReach: glareReach, riseFloor: riseFloor)
                        let r2 = blockRise(p, direction: w + 1, glareReach: glareReach, riseFloor: riseFloor)
                        let r3 = blockRise(p, direction: w - 1, glareReach: glareReach, riseFloor: riseFloor)
                        if any(r0.counted .| r1.counted .| r2.counted .| r3.counted) {
                            let t0 = blockStepTerms(p, direction: 1, rise: r0, reach: reach, stepFloor: stepFloor)
                            let t1 = blockStepTerms(p, direction: w, rise: r1, reach: reach, stepFloor: stepFloor)
                            let t2 = blockStepTerms(p, direction: w + 1, rise: r2, reach: reach, stepFloor: stepFloor)
                            let t3 = blockStepTerms(p, direction: w - 1, rise: r3, reach: reach, stepFloor: stepFloor)
                            cubes.0 &+= t0.cubes; products.0 &+= t0.products
                            cubes.1 &+= t1.cubes; products.1 &+= t1.products
                            cubes.2 &+= t2.cubes; products.2 &+= t2.products
                            cubes.3 &+= t3.cubes; products.3 &+= t3.products
                            if both, let secondReach {
                                let u0 = blockStepTerms(p, direction: 1, rise: r0, reach: secondReach,
                                                        stepFloor: stepFloor)
                                let u1 = blockStepTerms(p, direction: w, rise: r1, reach: secondReach,
                                                        stepFloor: stepFloor)
                                let u2 = blockStepTerms(p, direction: w + 1, rise: r2, reach: secondReach,
                                                        stepFloor: stepFloor)
                                let u3 = blockStepTerms(p, direction: w - 1, rise: r3, reach: secondReach,
                                                        stepFloor: stepFloor)
                                cubes2.0 &+= u0.cubes; products2.0 &+= u0.products
                                cubes2.1 &+= u1.cubes; products2.1 &+= u1.products
                                cubes2.2 &+= u2.cubes; products2.2 &+= u2.products
                                cubes2.3 &+= u3.cubes; products2.3 &+= u3.products
                            }
                        }
                        x0 += 32
                    }
                    add(cubes, products, to: &first)
                    if both { add(cubes2, products2, to: &second) }
                }
                for x in stride(from: x0, to: hi, by: 2) {
                    let p = row + x
                    // (Flat within riseFloor / 2: no fine rise reaches riseFloor, as in `blockRise`.)
                    if FrameMeasurements.isFlat(p, rowStride: w, within: riseFloor / 2) { continue }
                    edge(p, 1, 0, reach: reach, into: &first)
                    edge(p, w, 1, reach: reach, into: &first)
                    edge(p, w + 1, 2, reach: reach, into: &first)
                    edge(p, w - 1, 3, reach: reach, into: &first)
                    if both, let secondReach {
                        edge(p, 1, 0, reach: secondReach, into: &second)
                        edge(p, w, 1, reach: secondReach, into: &second)
                        edge(p, w + 1, 2, reach: secondReach, into: &second)
                        edge(p, w - 1, 3, reach: secondReach, into: &second)
                    }
                }
            }
            return (first, second)
        }
        return secondReach != nil ? walk(both: true) : walk(both: false)
    }
}
