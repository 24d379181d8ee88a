// Whether a found outline is one corner of a larger card: its two sides meeting at a corner both carry their edges
// on past the outline's other two corners.

/// Reads, on the working image, how far the two sides meeting at one of an outline's corners carry their edges on
/// past the outline's far corners, and the card those runs imply.
///
/// A card held too close for the frame shows its print large, and an inner region of it (a block of text framed by
/// print lines, the part beside a thumb) can outline a card's shape of its own, well inside the frame: the quad
/// search then answers on it, with the card's true corner as one of its corners and two of the card's sides as two of
/// its sides (fresh camsim 202 `move_away_0004`, 203 `move_away_0003`, portrait 122 `move_away_0007`: cards at
/// 0.91-1.07 of the frame answered GOOD on parts of 0.24-0.30; landscape 80 `good_0001`: a card seen whole answered
/// GOOD on its part right of the photo, corner error 0.13). Those two sides are the card's edges, and they go on past
/// the outline's far corners to the card's own corners or out of the frame. A card seen whole has edges that stop
/// at its corners: past them lies background. With `closedSides`, so is an outline whose two sides beside one side
/// both run on past it and stop at the opposite one: a card closed on a print line across it, its end beyond it
/// inside the frame (tuning portrait 118 `tilted_0001`: a card turned 28° answered GOOD on its part below the
/// header band; `OutlineRunOn` reads such runs only where they reach the frame's border). Stripes along a card's
/// sides run on past both its ends, so the sides must stop at the opposite side (six whole cards answered GOOD
/// read as parts without that test).
///
/// A side's signed step (inward minus outward) is `OutlineRunOn.sideStep`'s. Past its far corner the side's line is
/// read at `OutlineRunOn.sampleSpacing`, each point searched within `firstReach` of the line until the edge is found
/// and then within `OutlineRunOn.followReach` of where it was (as `OutlineRunOn.run` follows an edge). A point
/// carries the edge when its step, at the side's sign, is at least `OutlineRunOn.carriedShare` of the side's or
/// `minCarriedStep`, whichever is lower: the background beyond a card's corner can be another than beside the
/// outline (fresh portrait 203: a green panel beside the part, blue past it, the edge's step 110 and then 20-35).
/// A run resumed past a thumb is the same edge against the same background again, and takes the side's own bar
/// alone: a keypad's edge under a card's corner and a hand's behind one, in line with a side by chance, resumed
/// weaker (tuning portrait 107 `good_0029`, landscape 115 `good_0022`, both answered on the whole card).
/// Points carrying the edge count in stretches of at least `minStretch` pixels with at least `minStretchDensity` of
/// their points carrying it and no gap over `maxGapInStretch` (a textured background gives short scattered steps:
/// a dotted wall past a card's corner, a striped desk crossing the line). A stretch without the edge up to
/// `maxCoveredShare` of the side's length is bridged where hardly anything crosses it (at most `maxCrossings` points
/// with a step of `OutlineRunOn.minStep` at some offset searched: the thumb's far rim): a thumb over the card's edge,
/// whose flat skin hides it; over a textured or lined background the run ends there.
///
/// The runs are read lazily: the run past one far corner must start at the corner (the outline's side is the card's
/// edge going on); only then is the other read, which may start past a thumb. A whole card's corner pays for a few
/// points per side, each such run read once. Allocation-free until a pattern is found (the implied corners).
enum OutlineRunsPastCorner {
    static let firstReach = 3.0
    static let minCarriedStep: Float = 16
    static let minStretch = 12.0
    static let minStretchDensity = 0.8
    static let maxGapInStretch = 6.0
    static let maxCoveredShare = 0.6
    static let maxCrossings = 3
    /// The share of its side's length each run must carry the edge over for the outline to be a larger card's part.
    static let minRunShare = 0.12

    /// The card an outline is a part of: its corners (in the outline's order) and the lesser share of their sides'
    /// lengths the two runs carry the edge over.
    struct LargerCard: Equatable {
        var corners: QuadCorners
        var runShare: Double
    }

    /// How far past a far corner a side carries its edge, in image pixels.
    struct Run: Equatable {
        /// The points carrying the edge in stretches that count, times the spacing.
        var carried: Double
        /// The distance from the corner to the last point of the last stretch that counts.
        var extent: Double
    }

    /// The card implied where the two sides meeting at one of `corners` (in order around the outline, in `image`
    /// pixels) both carry their edges past the far corners, each for at least `minRunShare` of its side's length:
    /// its corners in the same order, each far corner moved out along its side to the run's extent and the fourth
    /// completing the parallelogram. With `closedSides`, also where the two sides beside one side both carry their
    /// edges past it so far and stop at the opposite side: that side's corners moved out to the runs' extents. The
    /// pattern whose runs carry most when more than one does; nil when none does.
    static func impliedCard(_ image: GrayImage, corners: QuadCorners, closedSides: Bool = true) -> LargerCard? {
        let centre = (corners[0] + corners[1] + corners[2] + corners[3]) / 4
        var steps = SIMD4<Float>(repeating: 0), lengths = SIMD4<Double>(repeating: 0)
        for s in 0..<4 {
            steps[s] = OutlineRunOn.sideStep(image, from: corners[s], to: corners[(s + 1) & 3], centre: centre) ?? 0
            let along = corners[(s + 1) & 3] - corners[s]
            lengths[s] = (along * along).sum().squareRoot()
        }
        // The runs that must start at their corner, each read once (the corner and closing-side patterns ask for the
        // same ones): carried and extent per side and direction (index 2 × side + 1 past the end), carried < 0 when
        // not read yet.
        var startCarried = SIMD8<Double>(repeating: -1), startExtent = SIMD8<Double>(repeating: 0)
        // Side `s` past its end (or back past its start), or nil where its step is unreadable or it carries less
        // than `minRunShare` of the side.
        func run(_ s: Int, pastEnd: Bool, mustStartAtCorner: Bool) -> Run? {
            guard steps[s] != 0 else { return nil }
            let index = 2 * s + (pastEnd ? 1 : 0)
            let r: Run
            if mustStartAtCorner && startCarried[index] >= 0 {
                r = Run(carried: startCarried[index], extent: startExtent[index])
            } else {
                r = Self.run(image, side: (corners[s], corners[(s + 1) & 3]), step: steps[s], centre: centre,
                             pastEnd: pastEnd, maxCovered: mustStartAtCorner ? 0 : maxCoveredShare * lengths[s])
                if mustStartAtCorner {
                    startCarried[index] = r.carried
                    startExtent[index] = r.extent
                }
            }
            return r.carried >= minRunShare * lengths[s] ? r : nil
        }
        // Two runs, one of which starts at its corner (read first, without bridging) while the other may start
        // past a thumb; nil unless both carry enough.
        func pair(_ first: (side: Int, pastEnd: Bool), _ second: (side: Int, pastEnd: Bool)) -> (Run, Run)? {
            if let r1 = run(first.side, pastEnd: first.pastEnd, mustStartAtCorner: true) {
                return run(second.side, pastEnd: second.pastEnd, mustStartAtCorner: false).map { (r1, $0) }
            }
            guard let r2 = run(second.side, pastEnd: second.pastEnd, mustStartAtCorner: true),
                  let r1 = run(first.side, pastEnd: first.pastEnd, mustStartAtCorner: false) else { return nil }
            return (r1, r2)
        }
        var best: LargerCard?
        func consider(_ share: Double, _ implied: QuadCorners) {
            if share > best?.runShare ?? 0 { best = LargerCard(corners: implied, runShare: share) }
        }
        for k in 0..<4 {
            // Corner k: the side into it back past its start, the side out of it on past its end.
            let before = (k + 3) & 3, after = k
            guard let (b, a) = pair((before, false), (after, true)) else { continue }
            let corner = corners[k]
            let towardBefore = (corners[before] - corner) / lengths[before]
            let towardAfter = (corners[(k + 1) & 3] - corner) / lengths[after]
            let farBefore = corner + towardBefore * (lengths[before] + b.extent)
            let farAfter = corner + towardAfter * (lengths[after] + a.extent)
            var implied = corners
            implied[before] = farBefore
            implied[(k + 1) & 3] = farAfter
            implied[(k + 2) & 3] = farBefore + farAfter - corner
            consider(min(b.carried / lengths[before], a.carried / lengths[after]), implied)
        }
        if closedSides {
            for c in 0..<4 {
                // Side c closes the outline: the side before it on past corner c, the side after it back past c + 1.
                let before = (c + 3) & 3, after = (c + 1) & 3
                // (Stripes along a card's sides run on past both its ends: the sides must stop at the other end.)
                guard let (b, a) = pair((before, true), (after, false)),
                      run(before, pastEnd: false, mustStartAtCorner: true) == nil,
                      run(after, pastEnd: true, mustStartAtCorner: true) == nil else { continue }
                var implied = corners
                implied[c] = corners[c] + (corners[c] - corners[before]) / lengths[before] * b.extent
                implied[after] = corners[after] + (corners[after] - corners[(c + 2) & 3]) / lengths[after] * a.extent
                consider(min(b.carried / lengths[before], a.carried / lengths[after]), implied)
            }
        }
        return best
    }

    /// The run of `side` (of signed step `sideStep`) past its end (or, with `pastEnd` false, back past its start)
    /// up to the frame's border, bridging a stretch without the edge of up to `maxCovered` pixels where at most
    /// `maxCrossings` points cross the line (with 0, none: the run must start at the corner).
    static func run(_ image: GrayImage, side: (SIMD2<Double>, SIMD2<Double>), step sideStep: Float,
                    centre: SIMD2<Double>, pastEnd: Bool, maxCovered: Double) -> Run {
        let (d, n, _) = OutlineRunOn.frame(side.0, side.1, centre: centre)
        let origin = pastEnd ? side.1 : side.0, outward = pastEnd ? d : -d
        let skip = OutlineRunOn.cornerSkip, spacing = OutlineRunOn.sampleSpacing
        let reach = OutlineRunOn.distanceToBorder(origin, outward, image) - OutlineRunOn.borderGap
        let nothing = Run(carried: 0, extent: 0)
        guard reach.isFinite, reach - skip >= minStretch else { return nothing }
        let points = Int((reach - skip) / spacing) + 1
        // (A run past a thumb takes the side's own bar: see the type.)
        let floor = maxCovered > 0 ? OutlineRunOn.carriedShare * abs(sideStep)
            : min(OutlineRunOn.carriedShare * abs(sideStep), minCarriedStep)
        let sign: Float = sideStep > 0 ? 1 : -1
        let firstCells = Int(firstReach / OutlineRunOn.offsetStep)
        let followCells = Int(OutlineRunOn.followReach / OutlineRunOn.offsetStep)
        let stretchPoints = Int(minStretch / spacing), gapPoints = Int(maxGapInStretch / spacing)
        let coveredPoints = max(gapPoints, Int(maxCovered / spacing))
        var at = 0, carried = 0, lastCarried = -1, crossings = 0
        // The open stretch (its first point, its points carrying the edge), and the last point of a counted one.
        var stretchStart = -1, stretchCarried = 0, lastCounted = -1
        func closeStretch() {
            if stretchStart >= 0, lastCarried - stretchStart + 1 >= stretchPoints,
               Double(stretchCarried) >= minStretchDensity * Double(lastCarried - stretchStart + 1) {
                carried += stretchCarried
                lastCounted = lastCarried
            }
            stretchStart = -1
            stretchCarried = 0
        }
        for k in 0..<points {
            if stretchStart >= 0 && k - lastCarried > gapPoints { closeStretch() }
            if stretchStart < 0 && k - lastCounted > coveredPoints { break }
            // A run that must start at the corner has done so by now, or does not.
            if maxCovered == 0 && lastCounted < 0 && stretchStart < 0 && k > gapPoints { break }
            let p = origin + outward * (skip + Double(k) * spacing)
            let cells = stretchStart < 0 ? firstCells : followCells
            let (best, bestAt, largest) = OutlineRunOn.strongestStep(image, at: p, normal: n, sign: sign, around: at,
                                                                     cells: cells) ?? (-.infinity, at, 0)
            if best >= floor {
                if stretchStart < 0 { stretchStart = k }
                at = bestAt
                lastCarried = k
                crossings = 0
                stretchCarried += 1
            } else if k - lastCarried > gapPoints && largest >= OutlineRunOn.minStep {
                // Something crosses the line outside a stretch: beyond the rim of a thumb, not its flat skin. The run
                // ends.
                crossings += 1
                if crossings > maxCrossings {
                    if stretchStart >= 0 { closeStretch() }
                    break
                }
            }
        }
        closeStretch()
        guard lastCounted >= 0 else { return nothing }
        return Run(carried: Double(carried) * spacing, extent: skip + Double(lastCounted) * spacing)
    }
}
