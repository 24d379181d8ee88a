// Whether a found outline's sides run on past the side that closes them, to the frame's border: a card's part.

/// Reads, on the working image, whether both sides beside one side of an outline carry their edges on past it, all
/// the way to the frame's border, while they stop at the opposite side.
///
/// A card that leaves the frame and whose finder closed it on a line across it (a photo's edge, a band's) gives an
/// outline that looks whole: four sides, well inside the frame, of a plausible shape. Its top and bottom edges (or a
/// band's edge along it) run on past that closing line to the frame's border, where the card goes on out of view
/// (camsim seed 34 `cut_off_0012`: a card cut at the right, closed on its photo's left edge and its MRZ band's top,
/// GOOD). A card seen whole has edges that stop at its corners. Both sides must run on: a wall's foot or a desk's
/// edge behind a card held up can run on from one of its sides by chance (camsim seed 39 `good_0007`, a wall's foot
/// along a passport's bottom edge out to the frame's right border). Stripes or a band of the background along a
/// card's sides run on past both ends, so both sides must stop at the opposite side.
///
/// Per side, the signed step across it (inward minus outward, `probe` pixels either side) is read at
/// `samplesPerSide` points between 15 % and 85 % of its length, and its median is the side's step (a side whose step
/// is below `minStep` levels is unreadable). Past a corner, along the side's line from `cornerSkip` pixels past it
/// to `borderGap` pixels from the frame's border, the edge is followed: over the first `firstPoints` points until
/// one carries it, looked for within `firstReach` pixels of the line (a side fitted a degree or two off the edge's
/// slant leaves it past the corner: seed 34's top side, 6 px off there), then within `followReach` of where it was
/// last carried. A point carries the edge when its step is at least `carriedShare` of the side's, at its sign. A side
/// runs on to the border when at least `minCarried` of the points do and the last third of them at least
/// `minCarriedNearBorder`, over at least `shortestRun` pixels: a card cut just past a band's edge leaves only a few
/// pixels to read (camsim seed 41 `cut_off_0018`, a passport closed on its MRZ band's top 9 working px from the
/// frame's bottom), and past a whole card's corner lies background, which carries no edge however short the run. It
/// stops when fewer than `maxCarriedToStop` of the points past that corner do (or nothing can be read past it); a
/// run is read only until that is certain. Allocation-free.
///
/// One run may be covered in its middle (`coveredRuns`): a card the frame cuts is held there, and the hand's thumb
/// can lie over one of its edges between the closing side and the border (held-out camsim portrait 111
/// `cut_off_0000`: a card cut at the left, closed on the thumb's edge and a print line, its bottom edge's run carried
/// at 0.6 past the thumb, GOOD). Such a run counts when it carries at least `coveredMinCarried` of its points and its
/// last third, at the border, at least `coveredNearBorder` (the edge comes out from under the thumb and goes on to
/// the border), beside a run that carries `besideCovered` all along and near the border.
enum OutlineRunOn {
    static let probe = 2.5
    static let samplesPerSide = 24
    static let minStep: Float = 8
    static let cornerSkip = 2.0
    static let borderGap = 1.5
    static let sampleSpacing = 1.5
    static let firstReach = 8.0
    static let firstPoints = 8
    static let followReach = 1.0
    static let offsetStep = 0.5
    static let carriedShare: Float = 0.5
    static let minCarried = 0.7
    static let minCarriedNearBorder = 0.5
    static let maxCarriedToStop = 0.35
    static let shortestRun = 4.0
    static let coveredMinCarried = 0.5
    static let coveredNearBorder = 0.9
    static let besideCovered = 0.9

    /// The lesser share of points carrying the edge over the two runs past a side that closes `corners` (in order
    /// around the outline, in `image` pixels), when both sides beside it run on to the frame's border (from
    /// `minCarried` of their points, or with `coveredRuns` one of them covered in its middle: see the type) and stop
    /// at the opposite side; the largest such over the four sides, or nil.
    static func runOnToBorder(_ image: GrayImage, corners: QuadCorners,
                              minCarried: Double = minCarried, coveredRuns: Bool = true) -> Double? {
        let centre = (corners[0] + corners[1] + corners[2] + corners[3]) / 4
        var steps = SIMD4<Float>(repeating: 0)
        for s in 0..<4 {
            steps[s] = sideStep(image, from: corners[s], to: corners[(s + 1) & 3], centre: centre) ?? 0
        }
        // The side `s` from its first corner to its second, past its second (`pastEnd`) or back past its first.
        func run(_ s: Int, pastEnd: Bool) -> Run? {
            guard steps[s] != 0 else { return nil }
            return OutlineRunOn.run(image, side: (corners[s], corners[(s + 1) & 3]), step: steps[s], centre: centre,
                                    pastEnd: pastEnd, minCarried: minCarried)
        }
        func stops(_ r: Run?) -> Bool { r.map { $0.carried < Self.maxCarriedToStop } ?? true }
        var answer: Double?
        for closing in 0..<4 {
            // The side before ends at the closing side's first corner, the side after starts at its second; past
            // the opposite side, the side before runs back past its start, the side after on past its end.
            let before = (closing + 3) & 3, after = (closing + 1) & 3
            // (The run after is read only when the run before can take part: reaching, or, with `coveredRuns`,
            // carrying at least a covered run's share.)
            guard let b = run(before, pastEnd: true),
                  b.reaches(minCarried) || coveredRuns && b.carried >= Self.coveredMinCarried,
                  let a = run(after, pastEnd: false),
                  b.reaches(minCarried) && a.reaches(minCarried)
                    || coveredRuns && (b.isCovered(beside: a) || a.isCovered(beside: b)),
                  stops(run(before, pastEnd: false)), stops(run(after, pastEnd: true)) else { continue }
            answer = max(answer ?? 0, min(a.carried, b.carried))
        }
        return answer
    }

    struct Run {
        /// The share of the points past the corner that carry the edge, and of the last third of them.
        var carried: Double
        var carriedNearBorder: Double

        func reaches(_ minCarried: Double) -> Bool {
            carried >= minCarried && carriedNearBorder >= OutlineRunOn.minCarriedNearBorder
        }

        /// Whether this run is one covered in its middle by a hand (see the type) beside `other`.
        func isCovered(beside other: Run) -> Bool {
            carried >= OutlineRunOn.coveredMinCarried && carriedNearBorder >= OutlineRunOn.coveredNearBorder
                && other.carried >= OutlineRunOn.besideCovered && other.carriedNearBorder >= OutlineRunOn.besideCovered
        }
    }

    /// The median signed step across the side from `a` to `b` (inward minus outward), or nil when it is below
    /// `minStep` or the side has too few points inside the image.
    static func sideStep(_ image: GrayImage, from a: SIMD2<Double>, to b: SIMD2<Double>,
                         centre: SIMD2<Double>) -> Float? {
        let (d, n, length) = frame(a, b, centre: centre)
        guard length >= shortestRun else { return nil }
        let median = withUnsafeTemporaryAllocation(of: Float.self, capacity: samplesPerSide) { values -> Float? in
            var count = 0
            for k in 0..<samplesPerSide {
                let p = a + d * (length * (0.15 + 0.7 * Double(k) / Double(samplesPerSide - 1)))
                guard let step = step(image, at: p, normal: n) else { continue }
                // Kept sorted as read (insertion): a couple of dozen values.
                var i = count
                while i > 0 && values[i - 1] > step {
                    values[i] = values[i - 1]
                    i -= 1
                }
                values[i] = step
                count += 1
            }
            return count >= samplesPerSide / 2 ? values[count / 2] : nil
        }
        guard let median, abs(median) >= minStep else { return nil }
        return median
    }

    /// The run of the side `side` (of signed step `sideStep`) past its end (or, with `pastEnd` false, back past its
    /// start) up to the frame's border, its edge followed (see the type); nil when too short. Read only until its
    /// share is certain to be below both `minCarried` and `maxCarriedToStop`.
    static func run(_ image: GrayImage, side: (SIMD2<Double>, SIMD2<Double>), step sideStep: Float,
                    centre: SIMD2<Double>, pastEnd: Bool, minCarried: Double = minCarried) -> Run? {
        let (d, n, _) = frame(side.0, side.1, centre: centre)
        let origin = pastEnd ? side.1 : side.0, outward = pastEnd ? d : -d
        let skip = cornerSkip
        let reach = distanceToBorder(origin, outward, image) - borderGap
        guard reach.isFinite, reach - skip >= shortestRun else { return nil }
        let points = Int((reach - skip) / sampleSpacing) + 1
        let nearBorderFrom = points - max(1, points / 3)
        let floor = carriedShare * abs(sideStep), sign: Float = sideStep > 0 ? 1 : -1
        let firstCells = Int(firstReach / offsetStep), followCells = Int(followReach / offsetStep)
        // Where the edge was last seen: cells of `offsetStep` from the line, along the inward normal.
        var at = 0
        let misses = Int((1 - min(maxCarriedToStop, minCarried)) * Double(points))
        var carried = 0, carriedNearBorder = 0, read = 0, readNearBorder = 0
        for k in 0..<points {
            let p = origin + outward * (skip + Double(k) * sampleSpacing)
            let cells = carried == 0 && k < firstPoints ? firstCells : followCells
            guard let (value, bestAt, _) = strongestStep(image, at: p, normal: n, sign: sign, around: at,
                                                         cells: cells) else { continue }
            // Too many points without the edge for it to run on, or not to stop: settled.
            if read - carried > misses { return Run(carried: Double(carried) / Double(points), carriedNearBorder: 0) }
            read += 1
            if k >= nearBorderFrom { readNearBorder += 1 }
            if value >= floor {
                at = bestAt
                carried += 1
                if k >= nearBorderFrom { carriedNearBorder += 1 }
            }
        }
        guard read > 0 else { return nil }
        let share = Double(carried) / Double(read)
        let nearShare = readNearBorder > 0 ? Double(carriedNearBorder) / Double(readNearBorder) : 0
        return Run(carried: share, carriedNearBorder: nearShare)
    }

    /// The unit direction from `a` to `b`, the unit normal pointing to `centre`'s side, and the length.
    static func frame(_ a: SIMD2<Double>, _ b: SIMD2<Double>,
                      centre: SIMD2<Double>) -> (SIMD2<Double>, SIMD2<Double>, Double) {
        let along = b - a
        let length = max((along * along).sum().squareRoot(), 1e-9)
        let d = along / length
        var n = SIMD2(-d.y, d.x)
        if ((centre - a) * n).sum() < 0 { n = -n }
        return (d, n, length)
    }

    /// How far from `p` along the unit direction `d` the image's border lies (0 when `p` is outside).
    static func distanceToBorder(_ p: SIMD2<Double>, _ d: SIMD2<Double>, _ image: GrayImage) -> Double {
        let w = Double(image.width - 1), h = Double(image.height - 1)
        guard p.x >= 0, p.y >= 0, p.x <= w, p.y <= h else { return 0 }
        var t = Double.infinity
        if d.x > 1e-9 { t = min(t, (w - p.x) / d.x) } else if d.x < -1e-9 { t = min(t, -p.x / d.x) }
        if d.y > 1e-9 { t = min(t, (h - p.y) / d.y) } else if d.y < -1e-9 { t = min(t, -p.y / d.y) }
        return t
    }

    /// The strongest step at `sign` across the line through `p` (inward normal `n`) within `cells` offset cells
    /// (`offsetStep` each, along `n`) of cell `at`: its value times `sign`, its cell (the first of equals), and the
    /// largest step of either sign there; nil when no offset lies inside the image. How a run follows an edge.
    @inline(__always)
    static func strongestStep(_ image: GrayImage, at p: SIMD2<Double>, normal n: SIMD2<Double>, sign: Float,
                              around at: Int, cells: Int) -> (value: Float, cell: Int, largest: Float)? {
        var best: Float?, bestAt = at, largest: Float = 0
        for cell in (at - cells)...(at + cells) {
            guard let s = step(image, at: p + n * (Double(cell) * offsetStep), normal: n) else { continue }
            largest = max(largest, abs(s))
            if sign * s > best ?? -.infinity {
                best = sign * s
                bestAt = cell
            }
        }
        return best.map { ($0, bestAt, largest) }
    }

    /// The step across the line through `p` with inward normal `n`: the luma `probe` pixels inward minus `probe`
    /// pixels outward (bilinear), or nil when either lies outside the image.
    @inline(__always)
    static func step(_ image: GrayImage, at p: SIMD2<Double>, normal n: SIMD2<Double>) -> Float? {
        guard let inside = luma(image, p + n * probe), let outside = luma(image, p - n * probe) else { return nil }
        return inside - outside
    }

    /// The bilinear luma at `q`, or nil outside the image.
    @inline(__always)
    static func luma(_ image: GrayImage, _ q: SIMD2<Double>) -> Float? {
        guard q.x >= 0, q.y >= 0, q.x < Double(image.width - 1), q.y < Double(image.height - 1) else { return nil }
        return image.bilinear(x: q.x, y: q.y)
    }
}
