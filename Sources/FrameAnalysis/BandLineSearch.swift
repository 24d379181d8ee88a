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
    /// The last search's lines, strongest first (see `search`), and the cells they were taken from.
    private(set) var found: [Found] = []
    private var taken: [(k: Int, rho: Int)] = []

    init() {
        found.reserveCapacity(8)
        taken.reserveCapacity(8)
    }

    deinit {
        accumulator.deallocate()
        normals.deallocate()
    }

    /// Finds the best lines, strongest first, crossing the convex `band` (4 corners in order, image pixels) and
    /// running within `maxTurn`° of the direction whose normal is `reference`, from `gradients`' ridge pixels inside
    /// the band: at most `count`, each as (normal, rho: p · normal = rho, votes), into `found`. Either polarity.
    func search(_ gradients: SobelGradients, width w: Int, height h: Int,
                band: (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>, SIMD2<Double>),
                reference: SIMD2<Double>, count: Int) {
        found.removeAll(keepingCapacity: true)
        taken.removeAll(keepingCapacity: true)
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
        let reach = Int((((high - low) * (high - low)).sum()).squareRoot() / 2) + 2
        let rhoBins = 2 * reach + 1
        let voteCount = 2 * cells * rhoBins
        if voteCount > accumulator.count {
            accumulator.deallocate()
            accumulator = .allocate(capacity: voteCount)
        }
        let votes = accumulator.baseAddress!
        votes.initialize(repeating: 0, count: voteCount)
        let gxp = gradients.gx.baseAddress!, gyp = gradients.gy.baseAddress!, mp = gradients.magnitude.baseAddress!
        let weak = UInt16(gradients.weakThreshold), cap = max(1, gradients.edgeThreshold)
        let limit = Double(maxTurn + spread) + 0.5
        for y in y0...y1 {
            for x in x0...x1 {
                let i = y * w + x, m = mp[i]
                guard m >= weak else { continue }
                let gx = Int(gxp[i]), gy = Int(gyp[i])
                // Only the ridge of each edge votes (as in the frame-wide vote).
                guard SobelGradients.isRidge(mp, i, gx: gx, gy: gy, width: w) else { continue }
                let p = SIMD2(Double(x), Double(y))
                guard inside(p) else { continue }
                var delta = (atan2(Double(gy), Double(gx)) - referenceAngle) * 180 / .pi
                while delta > 180 { delta -= 360 }
                while delta <= -180 { delta += 360 }
                let polarity: Int
                if abs(delta) <= limit {
                    polarity = 0
                } else if abs(delta) >= 180 - limit {
                    polarity = 1
                    delta = delta > 0 ? delta - 180 : delta + 180
                } else {
                    continue
                }
                let weight = Int32((min(Int(m), cap) * 16 + cap - 1) / cap)
                let centreCell = Int(delta.rounded())
                for cell in max(-maxTurn, centreCell - spread)...min(maxTurn, centreCell + spread) {
                    let k = polarity * cells + cell + maxTurn + spread
                    let rho = Int(((p - centre) * normal[k]).sum().rounded()) + reach
                    guard rho >= 0, rho < rhoBins else { continue }
                    votes[k * rhoBins + rho] += weight
                }
            }
        }
        // The strongest cells, each at least 3 px or 4° from a stronger one of its polarity (one scan per line: only a
        // few are taken).
        while found.count < count {
            var best = -1, bestVotes: Int32 = 0
            for index in 0..<voteCount where votes[index] > bestVotes {
                let k = index / rhoBins, rho = index % rhoBins
                if taken.contains(where: { $0.k / cells == k / cells && abs($0.k - k) < 4 && abs($0.rho - rho) < 3 }) {
                    continue
                }
                best = index
                bestVotes = votes[index]
            }
            guard best >= 0 else { break }
            let k = best / rhoBins, rho = best % rhoBins
            taken.append((k, rho))
            let lineNormal = normal[k]
            found.append((lineNormal, Double(rho - reach) + (centre * lineNormal).sum(), Int(bestVotes)))
        }
    }
}
