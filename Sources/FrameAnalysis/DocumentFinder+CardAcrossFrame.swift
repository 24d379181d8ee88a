// DocumentFinder: a card held so close that it spans the frame from one edge to the opposite one.
import Foundation

extension DocumentFinder {
    /// |cos| between the two sides of a card spanning the frame: within 8° of parallel (held that close, a card is
    /// seen nearly square-on, or its near end would leave the frame too).
    static let acrossFrameParallelCosine = cos(8 * Double.pi / 180)
    /// The least height of a card spanning the frame, between its two sides, for the frame's extent along them: a
    /// card wider than the frame is at least 1 / 1.586 (0.63) of it tall; 0.55 leaves room for foreshortening.
    static let minAcrossFrameHeight = 0.55
    /// How confident, for the part of it that won, a card spanning the frame must be to replace that part: its two
    /// sides run the frame's whole extent, and where a thumb holds the card one of them is partly covered, while the
    /// part's outline is shorter and can miss the thumb (portrait 111 `move_away_0000`: 0.91 around a part at 0.63;
    /// `0007`: 0.75 around 0.71). At 0.8 one passport page's outline moved further off; at 0.7 a cut card became
    /// MOVE_AWAY.
    static let acrossFrameConfidenceShare = 0.9

    /// The outline of a card wider (or taller) than the frame around `part` (the border-closed winner on `image`),
    /// or nil. Such a card shows only its two long sides, each crossing the frame from one edge to the opposite one,
    /// and the frame's two edges close it. The quad search never builds that outline (two opposite borders would be
    /// one pair of opposite sides, which it refuses: most lines crossing the frame are a desk's or a wall's), so the
    /// winner was a part of the card, closed by a thumb's edge, a print line or its photo's edge, and the answer
    /// CUT_OFF for a card held too close. Taken only when it holds the part, its sides run nearly parallel
    /// (`acrossFrameParallelCosine`) and are a card's height apart for the frame's extent (`minAcrossFrameHeight`),
    /// its outline passes `evaluate` (one side's end at a border may be under the thumb holding it, as for a held
    /// card), it is printed inside and beside the part as a card's face is (`printedBesidePhoto`: a band of a desk's
    /// stripes is not), and it is at least `minConfidence` and `acrossFrameConfidenceShare` as confident as the part.
    func cardAcrossFrame(around part: RankedQuad, image: GrayImage, minConfidence: Double) -> RankedQuad? {
        let w = image.width, h = image.height
        let table = lineTable
        let edgeFloor = self.edgeFloor
        let partCentre = (part.corners.0 + part.corners.1 + part.corners.2 + part.corners.3) / 4
        let (lower, upper) = CandidateQuad.searchBox(width: w, height: h)
        var best: RankedQuad?
        // Each pair of opposite frame borders (left and right, top and bottom), and each pair of the lines read that
        // cross both.
        for b1 in lines.indices where lines[b1].border {
            for b2 in (b1 + 1)..<lines.count where lines[b2].border
                && abs((lines[b1].normal * lines[b2].normal).sum()) > 0.99 {
                let extent = abs(lines[b2].rho - lines[b1].rho)
                for i in active.indices where !lines[active[i]].border {
                    let a1 = active[i]
                    guard abs((lines[a1].normal * lines[b1].normal).sum()) <= 0.5 else { continue }
                    for j in (i + 1)..<active.count where !lines[active[j]].border {
                        let a2 = active[j]
                        guard abs((lines[a1].normal * lines[a2].normal).sum()) >= Self.acrossFrameParallelCosine,
                              let c0 = Self.intersect(lines[a1], lines[b1]),
                              let c1 = Self.intersect(lines[a1], lines[b2]),
                              let c2 = Self.intersect(lines[a2], lines[b2]),
                              let c3 = Self.intersect(lines[a2], lines[b1]),
                              Quadrilateral.liesInside(c0, c1, c2, c3, width: w, height: h) else { continue }
                        let across = (c0 + c1) / 2 - (c3 + c2) / 2
                        guard (across * across).sum().squareRoot() >= Self.minAcrossFrameHeight * extent,
                              Quadrilateral.contains(c0, c1, c2, c3, partCentre),
                              let candidate = CandidateQuad(c0, c1, c2, c3, lower: lower, upper: upper) else { continue }
                        guard let (support, cornerness, evidenced, ends) = Self.evaluate(
                            table, edgeFloor: edgeFloor, lengths: candidate.sideLengths,
                            xs: SIMD4(c0.x, c1.x, c2.x, c3.x), ys: SIMD4(c0.y, c1.y, c2.y, c3.y),
                            sides: SIMD4(a1, b2, a2, b1), coveredAtBorder: true,
                            followsFlippedRuns: followsFlippedRunsToBorder, forgivesGlare: forgivesSidesUnderGlare)
                        else { continue }
                        // (No aspect term: the card's length is out of view.)
                        let confidence = Self.outlineConfidence(support: support, shape: 1, cornerness: cornerness,
                                                                evidenced: evidenced, fullEvidence: Self.fullEvidence,
                                                                ends: ends)
                        if confidence > (best?.confidence ?? 0) {
                            best = ((c0, c1, c2, c3), confidence, confidence, SIMD4(a1, b2, a2, b1))
                        }
                    }
                }
            }
        }
        guard let best, best.confidence >= minConfidence,
              best.confidence >= Self.acrossFrameConfidenceShare * part.confidence,
              interiorTexture(best.corners, in: image) >= minCutCardTexture,
              printedBesidePhoto(part, in: best, image: image) else { return nil }
        return best
    }
}
