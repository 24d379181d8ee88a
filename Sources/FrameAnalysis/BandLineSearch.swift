// The line search behind DocumentFinder's fourth-side pass (docs/capture.md, "Document quad").
//
// When three sides of a card are lines the finder has (two opposite sides and one across them), the fourth is a line
// across the same two sides, roughly parallel to the third, at a distance a card's aspect allows. Searching only that
// band, and only for lines of about that direction, the search can take the band's best line however few votes it
// has: frame-wide it competes with every line of the frame (a small card's side loses to desk stripes, text rows and
// the card's own print), here only with the few lines the band holds.
//
// Each DocumentFinder owns one search and reuses it from call to call (up to 13 calls on a frame where nothing was
// accepted): its vote, its cells' normals and its results live in buffers it keeps, like the rest of the finder's hot
// path, so a search allocates only when its band is larger than any before.
import Foundation

final class BandLineSearch {
    typealias Found = (normal: SIMD2<Double>, rho: Double, votes: Int)
    /// How far (degrees) a line may turn from the reference direction: a card's opposite sides converge under
    /// perspective.
    private static let maxTurn = 15
    /// ±3 cells of 1°: a 3×3 Sobel's direction next to texture is that uncertain.
    private static let spread = 3
    /// 1° cells of direction per polarity.
    private static let cells = 2 * (maxTurn + spread) + 1

    /// The vote: per polarity, direction cell and offset cell, the weighted ridge pixels (grown to the largest band).
    private var accumulator: UnsafeMutableBufferPointer<Int32> = .allocate(capacity: 1)
    /// Per polarity and direction cell, the line's normal (for the current reference direction).
    private let normals: UnsafeMutableBufferPointer<SIMD2<Double>> = .allocate(capacity: 2 * cells)
    /// Per polarity and direction cell, its offset cells' most votes (while the lines are taken from the vote).
    private let rowBest: UnsafeMutableBufferPointer<Int32> = .allocate(capacity: 2 * cells)
    /// The last search's lines, strongest first (see `search`).
    private(set) var found: [Found] = []

    init() {
        found.reserveCapacity(8)
    }

    deinit {
        accumulator.deallocate()
        normals.deallocate()
        rowBest.deallocate()
    }

    /// Finds the best lines, strongest first, crossing the convex `band` (4 corners in order, image pixels) and
    /// running within `maxTurn`° of the direction whose normal is `reference`, from `gradients`' ridge pixels inside
    /// the band: at most `count`, each as (normal, rho: p · normal = rho, votes), into `found`. Either polarity.
    func search(_ gradients: SobelGradients, width w: Int, height h: Int,
                band: (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>, SIMD2<Double>),
                reference: SIMD2<Double>, count: Int) {
        found.removeAll(keepingCapacity: true)
        let (b0, b1, b2, b3) = band
        let low = pointwiseMin(pointwiseMin(b0, b1), pointwiseMin(b2, b3))
        let high = pointwiseMax(pointwiseMax(b0, b1), pointwiseMax(b2, b3))
        let x0 = max(2, Int(low.x.rounded(.down))), x1 = min(w - 3, Int(high.x.rounded(.up)))
        let y0 = max(2, Int(low.y.rounded(.down))), y1 = min(h - 3, Int(high.y.rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        let turn = (b1 - b0).x * (b2 - b1).y - (b1 - b0).y * (b2 - b1).x
        let sign: Double = turn > 0 ? 1 : -1
        @inline(__always) func within(_ p: SIMD2<Double>, _ a: SIMD2<Double>, _ next: SIMD2<Double>) -> Bool {
            let e = next - a, r = p - a
            return !(sign * (e.x * r.y - e.y * r.x) < 0)
        }
        @inline(__always) func inside(_ p: SIMD2<Double>) -> Bool {
            within(p, b0, b1) && within(p, b1, b2) && within(p, b2, b3) && within(p, b3, b0)
        }
        let referenceAngle = atan2(reference.y, reference.x)
        let cells = Self.cells, maxTurn = Self.maxTurn, spread = Self.spread
        // Per polarity and 1° cell, the line's normal; rho relative to the band's centre.
        let normal = normals.baseAddress!
        for index in 0..<(2 * cells) {
            let polarity = index / cells, cell = index % cells - maxTurn - spread
            let angle = referenceAngle + Double(cell) * .pi / 180 + (polarity == 1 ? .pi : 0)
            normal[index] = SIMD2(cos(angle), sin(angle))
        }
        let centre = (b0 + b1 + b2 + b3) / 4
        // Offsets from the centre reach no further than the band's corners do along any of the cells' normals (the
        // band is convex): for a band along a side that is its half-width plus the side's half-length times sin 18.5°,
        // about a third of its half-diagonal, so the vote to clear and scan is a third as large.
        var extent = 0.0
        for index in 0..<(2 * cells) {
            let n = normal[index]
            extent = max(extent, abs(((b0 - centre) * n).sum()), abs(((b1 - centre) * n).sum()),
                         abs(((b2 - centre) * n).sum()), abs(((b3 - centre) * n).sum()))
        }
        let reach = Int(extent) + 2
        let rhoBins = 2 * reach + 1
        let reachShift = Double(reach), rhoLimit = Double(rhoBins)
        let voteCount = 2 * cells * rhoBins
        if voteCount > accumulator.count {
            accumulator.deallocate()
            accumulator = .allocate(capacity: voteCount)
        }
        let votes = accumulator.baseAddress!
        votes.initialize(repeating: 0, count: voteCount)
        let gxp = gradients.gx.baseAddress!, gyp = gradients.gy.baseAddress!, mp = gradients.magnitude.baseAddress!
        let weak = UInt16(gradients.weakThreshold), cap = max(1, gradients.edgeThreshold)
        // A ridge pixel's turn from the reference direction, from the cross and dot products of its gradient with
        // the reference normal (no atan2 per pixel): within the vote's turn the tangent is at most tan(18.5°), where
        // `Self.degrees(tangent:)` is exact to far below a cell's width.
        let unit = reference / max((reference * reference).sum().squareRoot(), .leastNormalMagnitude)
        let maxTangent = tan((Double(maxTurn + spread) + 0.5) * .pi / 180)
        for y in y0...y1 {
            // Only the row's stretch across the band (a pixel wider each way; `inside` still decides): a band along
            // a slanted side covers a small part of its bounding box.
            guard let (from, to) = Self.crossing(row: Double(y), band: band) else { continue }
            let xs = max(x0, Int(from.rounded(.down)) - 1), xe = min(x1, Int(to.rounded(.up)) + 1)
            guard xs <= xe else { continue }
            // (Wrapping arithmetic: every index lies inside the image.)
            let rowStart = y &* w
            var x = xs &- 1
            while x < xe {
                x &+= 1
                let i = rowStart &+ x, m = mp[i]
                guard m >= weak else { continue }
                let gx = Int(gxp[i]), gy = Int(gyp[i])
                // Only the ridge of each edge votes (as in the frame-wide vote).
                guard SobelGradients.isRidge(mp, i, gx: gx, gy: gy, width: w) else { continue }
                let p = SIMD2(Double(x), Double(y))
                guard inside(p) else { continue }
                // Along the reference (dot > 0) the gradient is of polarity 0, against it of polarity 1; either way
                // its turn is atan(cross / dot).
                let along = unit.x * Double(gx) + unit.y * Double(gy)
                let across = unit.x * Double(gy) - unit.y * Double(gx)
                guard along != 0, abs(across) <= abs(along) * maxTangent else { continue }
                let polarity = along > 0 ? 0 : 1
                let weight = Int32((min(Int(m), cap) * 16 + cap - 1) / cap)
                let centreCell = Int(Self.degrees(tangent: across / along).rounded())
                let offset = p - centre
                // (Wrapping index arithmetic: k < 2 · cells and rho < rhoBins, so nothing overflows.)
                var k = polarity &* cells &+ max(-maxTurn, centreCell - spread) &+ maxTurn &+ spread
                let last = polarity &* cells &+ min(maxTurn, centreCell + spread) &+ maxTurn &+ spread
                while k <= last {
                    defer { k &+= 1 }
                    let n = normal[k]
                    // Rounded half up by truncating a positive value (rho + reach + ½ ≥ 0 for every kept bin); the
                    // same sum, in the same order, as (offset · n) + reach + ½.
                    let shifted = offset.x * n.x + offset.y * n.y + reachShift + 0.5
                    guard shifted >= 0, shifted < rhoLimit else { continue }
                    let bin = k &* rhoBins &+ Int(shifted)
                    votes[bin] = votes[bin] &+ weight
                }
            }
        }
        // The strongest cells, each at least 3 px or 4° from a stronger one of its polarity: each line is the first
        // cell of the most votes, and the cells within 4° and 3 px of it, of its polarity, are then emptied, so that
        // the next is at least that far from every line taken (the vote is not read again after this search).
        // Each direction cell's most votes are kept (`rowBest`): the first line is the first cell holding the most of
        // them, and after cells are emptied only their direction cells' are read again.
        let best = rowBest.baseAddress!
        @inline(__always) func readRow(_ k: Int) {
            var most: Int32 = 0
            for v in UnsafeBufferPointer(start: votes + k * rhoBins, count: rhoBins) { most = max(most, v) }
            best[k] = most
        }
        for k in 0..<(2 * cells) { readRow(k) }
        while found.count < count {
            var bestVotes: Int32 = 0
            for k in 0..<(2 * cells) { bestVotes = max(bestVotes, best[k]) }
            guard bestVotes > 0,
                  let k = UnsafeBufferPointer(start: best, count: 2 * cells).firstIndex(of: bestVotes),
                  let rho = UnsafeBufferPointer(start: votes + k * rhoBins, count: rhoBins).firstIndex(of: bestVotes)
            else { break }
            let polarityStart = k / cells * cells
            for near in max(polarityStart, k - 3)...min(polarityStart + cells - 1, k + 3) {
                for r in max(0, rho - 2)...min(rhoBins - 1, rho + 2) { votes[near * rhoBins + r] = 0 }
                readRow(near)
            }
            let lineNormal = normal[k]
            found.append((lineNormal, Double(rho - reach) + (centre * lineNormal).sum(), Int(bestVotes)))
        }
    }

    /// atan(t) in degrees for |t| ≤ tan(18.5°) ≈ 0.335, by its odd Taylor series to t¹⁷: the first term left out is
    /// below 0.335¹⁹/19 ≈ 5·10⁻¹¹ rad, so a cell (1°) is taken as atan2 would take it.
    @inline(__always) static func degrees(tangent t: Double) -> Double {
        let t2 = t * t
        var series = 1.0 / 17
        series = 1.0 / 15 - t2 * series
        series = 1.0 / 13 - t2 * series
        series = 1.0 / 11 - t2 * series
        series = 1.0 / 9 - t2 * series
        series = 1.0 / 7 - t2 * series
        series = 1.0 / 5 - t2 * series
        series = 1.0 / 3 - t2 * series
        series = 1.0 - t2 * series
        return t * series * (180 / .pi)
    }

    /// Where the horizontal line at `row` crosses the convex `band` (leftmost and rightmost x), or nil if it misses.
    static func crossing(row y: Double, band: (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>, SIMD2<Double>))
        -> (Double, Double)? {
        var from = Double.infinity, to = -Double.infinity
        @inline(__always) func edge(_ a: SIMD2<Double>, _ b: SIMD2<Double>) {
            guard min(a.y, b.y) <= y, max(a.y, b.y) >= y else { return }
            if a.y == b.y {
                from = min(from, a.x, b.x)
                to = max(to, a.x, b.x)
            } else {
                let x = a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y)
                from = min(from, x)
                to = max(to, x)
            }
        }
        edge(band.0, band.1)
        edge(band.1, band.2)
        edge(band.2, band.3)
        edge(band.3, band.0)
        return from <= to ? (from, to) : nil
    }
}
