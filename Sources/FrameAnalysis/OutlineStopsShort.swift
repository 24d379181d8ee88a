// Whether two sides of a found outline stop short of the side that closes them: a card's far side lost, and its
// near sides run on to a line of the background (or the frame's border).

/// Reads, on the working image, where the edges along an outline's sides stop, and gives the outline cut back to
/// where both sides beside one side stop short of it.
///
/// A card turned away from the camera shows its far side foreshortened and faint; the quad search then closes the
/// card's two sides beside it on a line further on (a desk's, the frame's border), and the outline holds the card and
/// a strip of background beyond it (camsim seed 91 `tilted_0002`: a card's sides run on past its far side to a line
/// below the frame, told CUT_OFF). Along such a side the card's edge stops at the card's corner, and no edge is
/// carried from there to the closing side. A card seen whole carries its edges to its corners (a rounded corner
/// leaves a few pixels), and a card the frame cuts carries them to the frame's border.
///
/// A side is read from `start` of its length to its end (or to the frame's border, where it leaves the frame), at
/// points `OutlineRunOn.sampleSpacing` apart. Its sign (brighter inside or outside) is the one most of its points
/// show up to `referenceEnd` of its length, the part a card's side holds whatever lies past the card, and its
/// reference step the median step at that sign there (as `OutlineRunOn.step` reads it). A point carries the edge
/// when the step within `reach` of the line at that sign is at least `carriedShare` of the reference (and
/// `OutlineRunOn.minStep`): a textured background (a dotted wall) gives steps of both signs past the card. The edge
/// stops at the last point carried with at least `minCarriedBefore` of the points up to it carried, at most
/// `maxCarriedAfter` of those past it, and at least `minTail` of the side's length (and `minTailPixels`) past it.
/// Reading a side (`stop`) allocates nothing.
enum OutlineStopsShort {
    static let start = 0.1
    static let referenceEnd = 0.4
    static let reach = 1.0
    static let carriedShare: Float = 0.35
    static let minCarriedBefore = 0.7
    static let maxCarriedAfter = 0.25
    static let minTail = 0.15
    /// The fewest working pixels past the stop (a small card's rounded corner spans a few).
    static let minTailPixels = 8.0
    /// The most points read along a side, and for its reference (their buffers stay on the stack).
    static let maxPoints = 512
    static let maxReferencePoints = 192

    /// `corners` (in order around the outline, in `image` pixels) with the two corners of one side moved back along
    /// the sides beside it to where their edges stop short of it, for the side where both do (the one whose
    /// shorter cut is longer, when more than one); nil when no side has both.
    static func cutBack(_ image: GrayImage, corners: QuadCorners) -> QuadCorners? {
        let centre = (corners[0] + corners[1] + corners[2] + corners[3]) / 4
        var best: (corners: QuadCorners, tail: Double)?
        for closing in 0..<4 {
            // The side before ends at the closing side's first corner, the side after starts at its second.
            let before = (closing + 3) & 3, after = (closing + 1) & 3
            guard let first = stop(image, from: corners[before], to: corners[closing], centre: centre),
                  let second = stop(image, from: corners[(after + 1) & 3], to: corners[after], centre: centre)
            else { continue }
            let tail = min(first.tail, second.tail)
            if tail > best?.tail ?? 0 {
                var cut = corners
                cut[closing] = first.point
                cut[after] = second.point
                best = (cut, tail)
            }
        }
        return best?.corners
    }

    /// Where the edge along the side from `a` to `end` stops short of `end` (see the type), and the share of the
    /// side's length past it; nil when it reaches `end` or the frame's border, or too little can be read.
    static func stop(_ image: GrayImage, from a: SIMD2<Double>, to end: SIMD2<Double>,
                     centre: SIMD2<Double>) -> (point: SIMD2<Double>, tail: Double)? {
        let (d, n, length) = OutlineRunOn.frame(a, end, centre: centre)
        let spacing = OutlineRunOn.sampleSpacing
        let first = a + d * (start * length)
        // To the side's end, or to where it leaves the frame.
        let inFrame = min(length * (1 - start), OutlineRunOn.distanceToBorder(first, d, image) - OutlineRunOn.borderGap)
        let points = min(maxPoints, Int(inFrame / spacing) + 1)
        let referencePoints = min(maxReferencePoints, Int((referenceEnd - start) * length / spacing))
        guard referencePoints >= 8, points > referencePoints else { return nil }
        let cells = Int(reach / OutlineRunOn.offsetStep)
        // The strongest step within `reach` of the line at each sign (x: inward brighter, y: darker) at point `k`.
        func strength(_ k: Int) -> SIMD2<Float> {
            let p = first + d * (Double(k) * spacing)
            var strongest = SIMD2<Float>(0, 0)
            for cell in -cells...cells {
                if let s = OutlineRunOn.step(image, at: p + n * (Double(cell) * OutlineRunOn.offsetStep), normal: n) {
                    strongest = pointwiseMax(strongest, SIMD2(s, -s))
                }
            }
            return strongest
        }
        // The reference: the side's sign and its median step at that sign over the part a card's side holds.
        // (Buffers of a float per reference point and a byte per point, each under the stack's 1 KB: the steps of
        // the reference points are read again rather than kept at both signs.)
        var majority = 0
        for k in 0..<referencePoints {
            let value = strength(k)
            majority += value.x > value.y ? 1 : -1
        }
        let sign = majority > 0 ? 0 : 1
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: referencePoints) { buffer in
            var values = buffer
            for k in 0..<referencePoints { values[k] = strength(k)[sign] }
            values.sort()
            let referenceStep = values[referencePoints / 2]
            guard referenceStep >= OutlineRunOn.minStep else { return nil }
            let floor = max(OutlineRunOn.minStep, carriedShare * referenceStep)
            return withUnsafeTemporaryAllocation(of: Bool.self, capacity: points) { carriedAt in
                for k in 0..<points { carriedAt[k] = strength(k)[sign] >= floor }
                var total = 0
                for k in 0..<points where carriedAt[k] { total += 1 }
                // The last carried point with enough carried before it and too little after it.
                var before = 0
                var found: Int?
                for k in 0..<points where carriedAt[k] {
                    before += 1
                    let after = total - before, tailPoints = points - 1 - k
                    let along = start * length + Double(k) * spacing
                    guard length - along >= max(minTailPixels, minTail * length), tailPoints >= 4,
                          Double(before) >= minCarriedBefore * Double(k + 1),
                          Double(after) <= maxCarriedAfter * Double(tailPoints) else { continue }
                    found = k
                }
                guard let k = found else { return nil }
                let along = start * length + Double(k) * spacing
                return (a + d * along, (length - along) / length)
            }
        }
    }
}
