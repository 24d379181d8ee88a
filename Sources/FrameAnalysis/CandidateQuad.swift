// The geometry the quad search and the card-around-its-photo search both test before any scoring.

/// Four corners c0…c3 in cyclic order, accepted as a candidate outline only when they lie inside the search box and
/// the quad is convex. Edge s runs from corner s to corner s + 1.
struct CandidateQuad {
    let e0: SIMD2<Double>, e1: SIMD2<Double>, e2: SIMD2<Double>, e3: SIMD2<Double>
    /// The cross product of the two edges at each corner (all of one sign: convex).
    let turns: SIMD4<Double>

    /// The search box for a `width` × `height` image: 0.6 of the image beyond each of its edges (a card the frame cuts
    /// has corners outside it, but not further than that).
    static func searchBox(width w: Int, height h: Int) -> (lower: SIMD2<Double>, upper: SIMD2<Double>) {
        (SIMD2(-0.6 * Double(w), -0.6 * Double(h)), SIMD2(1.6 * Double(w), 1.6 * Double(h)))
    }

    @inline(__always)
    init?(_ c0: SIMD2<Double>, _ c1: SIMD2<Double>, _ c2: SIMD2<Double>, _ c3: SIMD2<Double>,
          lower: SIMD2<Double>, upper: SIMD2<Double>) {
        let low = pointwiseMin(pointwiseMin(c0, c1), pointwiseMin(c2, c3))
        let high = pointwiseMax(pointwiseMax(c0, c1), pointwiseMax(c2, c3))
        if any(low .< lower) || any(high .> upper) { return nil }
        let e0 = c1 - c0, e1 = c2 - c1, e2 = c3 - c2, e3 = c0 - c3
        let k0 = e3.x * e0.y - e3.y * e0.x, k1 = e0.x * e1.y - e0.y * e1.x
        let k2 = e1.x * e2.y - e1.y * e2.x, k3 = e2.x * e3.y - e2.y * e3.x
        guard (k0 > 0 && k1 > 0 && k2 > 0 && k3 > 0) || (k0 < 0 && k1 < 0 && k2 < 0 && k3 < 0) else { return nil }
        (self.e0, self.e1, self.e2, self.e3) = (e0, e1, e2, e3)
        turns = SIMD4(k0, k1, k2, k3)
    }

    /// The area: the two triangles (c0, c1, c2) and (c2, c3, c0).
    @inline(__always) var area: Double { abs(turns[1] + turns[3]) / 2 }

    /// The side lengths, edge 0 to 3.
    @inline(__always) var sideLengths: SIMD4<Double> {
        SIMD4((e0 * e0).sum().squareRoot(), (e1 * e1).sum().squareRoot(), (e2 * e2).sum().squareRoot(),
              (e3 * e3).sum().squareRoot())
    }

    /// How far from square its corners are, given `sideLengths`: the sine of the least and of the largest
    /// deviation of a corner angle from 90° (its |cos|). A corner's turn is the cross product of its edges,
    /// |e × e'| = |e||e'| sin(angle), so the squarest corner has the largest |sin| and the worst the smallest.
    @inline(__always) func cornerSkews(_ s: SIMD4<Double>) -> (least: Double, worst: Double) {
        let s0 = abs(turns[0]) / (s[3] * s[0]), s1 = abs(turns[1]) / (s[0] * s[1])
        let s2 = abs(turns[2]) / (s[1] * s[2]), s3 = abs(turns[3]) / (s[2] * s[3])
        let squarest = max(max(s0, s1), max(s2, s3)), worst = min(min(s0, s1), min(s2, s3))
        return ((1 - min(1, squarest * squarest)).squareRoot(), (1 - min(1, worst * worst)).squareRoot())
    }
}
