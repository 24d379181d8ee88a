// A convex quadrilateral in working-image coordinates, with the geometry the feedback needs.
import Foundation

/// Four corners, clockwise from top-left (y down), in some image's pixel coordinates.
struct Quadrilateral: Equatable {
    var corners: QuadCorners

    init(corners: QuadCorners) {
        self.corners = corners
    }

    /// From exactly four corners in order (an array's, or any collection's).
    init<Points: Collection<SIMD2<Double>>>(corners: Points) {
        self.corners = QuadCorners(corners)
    }

    /// Whether every corner lies inside a `width × height` image (pixel centres 0 … width − 1, 0 … height − 1).
    func liesInside(width: Int, height: Int) -> Bool {
        corners.allSatisfy { Self.inImage($0, width: width, height: height) }
    }

    /// `liesInside` for four corners given apart (no array: the quad search asks it of candidate quads); with
    /// `margin`, corners up to that far past the image's edges count as inside.
    @inline(__always)
    static func liesInside(_ c0: SIMD2<Double>, _ c1: SIMD2<Double>, _ c2: SIMD2<Double>, _ c3: SIMD2<Double>,
                           width: Int, height: Int, margin: Double = 0) -> Bool {
        inImage(c0, width: width, height: height, margin: margin)
            && inImage(c1, width: width, height: height, margin: margin)
            && inImage(c2, width: width, height: height, margin: margin)
            && inImage(c3, width: width, height: height, margin: margin)
    }

    /// Whether `p` lies in a `width` × `height` image, or at most `margin` past its edges.
    @inline(__always)
    static func inImage(_ p: SIMD2<Double>, width: Int, height: Int, margin: Double = 0) -> Bool {
        p.x >= -margin && p.y >= -margin && p.x <= Double(width - 1) + margin && p.y <= Double(height - 1) + margin
    }

    /// Whether `point` lies inside the quad (on the same side of all four sides; convex quads only).
    func contains(_ point: SIMD2<Double>) -> Bool {
        Self.contains(corners[0], corners[1], corners[2], corners[3], point)
    }

    /// `contains` for four corners given apart (no array).
    @inline(__always)
    static func contains(_ c0: SIMD2<Double>, _ c1: SIMD2<Double>, _ c2: SIMD2<Double>, _ c3: SIMD2<Double>,
                         _ point: SIMD2<Double>) -> Bool {
        var sign = 0.0
        @inline(__always) func turnsWith(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Bool {
            let cross = (b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x)
            if cross * sign < 0 { return false }
            if cross != 0 { sign = cross }
            return true
        }
        return turnsWith(c0, c1) && turnsWith(c1, c2) && turnsWith(c2, c3) && turnsWith(c3, c0)
    }

    /// Shoelace area.
    var area: Double { Self.area(corners[0], corners[1], corners[2], corners[3]) }

    /// The mean of the corners.
    var centre: SIMD2<Double> { (corners[0] + corners[1] + corners[2] + corners[3]) / 4 }

    /// Shoelace area of the four corners in order (no `Quadrilateral` built: no array).
    static func area(_ c0: SIMD2<Double>, _ c1: SIMD2<Double>, _ c2: SIMD2<Double>, _ c3: SIMD2<Double>) -> Double {
        func cross(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { a.x * b.y - b.x * a.y }
        return abs(cross(c0, c1) + cross(c1, c2) + cross(c2, c3) + cross(c3, c0)) / 2
    }

    /// Largest deviation of a corner angle from 90°, in degrees (perspective or tilt away from the camera).
    var skewDegrees: Double {
        var worst = 0.0
        for i in 0..<4 { worst = max(worst, cornerSkewDegrees(i)) }
        return worst
    }

    /// The deviation of corner `i`'s angle from 90°, in degrees (90 where a side beside it has no length).
    func cornerSkewDegrees(_ i: Int) -> Double {
        let p = corners[i], a = corners[(i + 3) % 4] - p, b = corners[(i + 1) % 4] - p
        let la = (a * a).sum().squareRoot(), lb = (b * b).sum().squareRoot()
        guard la > 0, lb > 0 else { return 90 }
        let cosine = max(-1, min(1, (a * b).sum() / (la * lb)))
        return abs(acos(cosine) * 180 / .pi - 90)
    }

    /// Mean of the two long sides over the mean of the two short sides.
    var aspect: Double {
        let (s0, s1) = Self.meanOppositeSides(corners)
        return max(s0, s1) / max(min(s0, s1), 1e-9)
    }

    /// Whether the quad's longer pair of opposite sides runs nearer the horizontal than the vertical: a card held
    /// across the frame rather than upright.
    var longSideHorizontal: Bool {
        let (even, odd) = Self.meanOppositeSides(corners)
        // Sides 0 and 2 run from corner 0 to 1 and 3 to 2; sides 1 and 3 from corner 1 to 2 and 0 to 3.
        let d = even >= odd ? (corners[1] - corners[0]) + (corners[2] - corners[3])
                            : (corners[2] - corners[1]) + (corners[3] - corners[0])
        return abs(d.x) >= abs(d.y)
    }

    /// The mean length of sides 0 and 2 (corners 0-1 and 2-3), and of sides 1 and 3, of four corners in order.
    static func meanOppositeSides(_ c: QuadCorners) -> (even: Double, odd: Double) {
        func length(_ i: Int) -> Double {
            let d = c[(i + 1) % 4] - c[i]
            return (d * d).sum().squareRoot()
        }
        return ((length(0) + length(2)) / 2, (length(1) + length(3)) / 2)
    }

    /// The length of the longest side's part inside a `width × height` frame, leaving out sides that run along the
    /// frame's edge (both ends within `tolerance` of the same edge, or beyond it): there the frame cuts the document,
    /// so such a side is not part of its outline.
    func longestOutlineSideInside(width: Double, height: Double, tolerance: Double) -> Double {
        let hi = SIMD2(width - 1, height - 1)
        var longest = 0.0
        for i in 0..<4 {
            let a = corners[i], b = corners[(i + 1) % 4]
            let alongEdge = (a.x <= tolerance && b.x <= tolerance) || (a.y <= tolerance && b.y <= tolerance)
                || (a.x >= hi.x - tolerance && b.x >= hi.x - tolerance)
                || (a.y >= hi.y - tolerance && b.y >= hi.y - tolerance)
            guard !alongEdge, let inside = Self.clip(a, b, to: hi) else { continue }
            let d = inside.1 - inside.0
            longest = max(longest, (d * d).sum().squareRoot())
        }
        return longest
    }

    /// The part of segment a–b inside the rectangle from the origin to `hi` (Liang–Barsky), nil when none is.
    static func clip(_ a: SIMD2<Double>, _ b: SIMD2<Double>, to hi: SIMD2<Double>)
        -> (SIMD2<Double>, SIMD2<Double>)? {
        let d = b - a
        var t0 = 0.0, t1 = 1.0
        // Each edge of the rectangle as p · t ≤ q.
        for (p, q) in [(-d.x, a.x), (d.x, hi.x - a.x), (-d.y, a.y), (d.y, hi.y - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else if p < 0 {
                t0 = max(t0, q / p)
            } else {
                t1 = min(t1, q / p)
            }
        }
        return t0 <= t1 ? (a + d * t0, a + d * t1) : nil
    }

    /// The same corners scaled by (sx, sy) about pixel centres.
    func scaled(x sx: Double, y sy: Double) -> Quadrilateral {
        Quadrilateral(corners: corners.mapValues { SIMD2(($0.x + 0.5) * sx - 0.5, ($0.y + 0.5) * sy - 0.5) })
    }

    /// Reorders any four corners of a convex quad clockwise (y down) starting from the top-left one.
    static func ordered(_ points: QuadCorners) -> Quadrilateral {
        let centre = (points[0] + points[1] + points[2] + points[3]) / 4
        // By angle about the centre (a stable insertion sort of the four, in place: no array).
        var sorted = points
        var angles = points.mapValues { atan2($0.y - centre.y, $0.x - centre.x) }
        for i in 1..<4 {
            var j = i
            while j > 0 && angles[j] < angles[j - 1] {
                angles.swapAt(j, j - 1)
                sorted.swapAt(j, j - 1)
                j -= 1
            }
        }
        // atan2 with y down grows clockwise on screen; start at the corner with the smallest x + y (the first such).
        var start = 0
        for i in 1..<4 where sorted[i].x + sorted[i].y < sorted[start].x + sorted[start].y { start = i }
        return Quadrilateral(corners: QuadCorners(sorted[start], sorted[(start + 1) % 4], sorted[(start + 2) % 4],
                                                  sorted[(start + 3) % 4]))
    }

    /// The columns [lo, hi) of row `y` (pixel centre y + 0.5) inside the quad, clipped to 0..<width.
    func span(row y: Int, width: Int) -> (lo: Int, hi: Int) {
        let yc = Double(y) + 0.5
        var lo = Double.infinity, hi = -Double.infinity
        for i in 0..<4 {
            let a = corners[i], b = corners[(i + 1) % 4]
            if (a.y <= yc && b.y > yc) || (b.y <= yc && a.y > yc) {
                let x = a.x + (yc - a.y) / (b.y - a.y) * (b.x - a.x)
                lo = min(lo, x)
                hi = max(hi, x)
            }
        }
        guard lo <= hi else { return (0, 0) }
        let l = max(0, Int((lo + 0.5).rounded(.up))), h = min(width, Int((hi + 0.5).rounded(.down)))
        return l < h ? (l, h) : (0, 0)
    }

    var boundingRows: (lo: Int, hi: Int) {
        let (lo, hi) = corners.bounds
        return (Int(lo.y.rounded(.down)), Int(hi.y.rounded(.up)) + 1)
    }
}
