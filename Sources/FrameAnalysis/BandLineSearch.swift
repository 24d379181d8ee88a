// The line search behind DocumentFinder's fourth-side pass (docs/capture.md, "Document quad").
//
// When three sides of a card are lines the finder has (two opposite sides and one across them), the fourth is a line
// across the same two sides, roughly parallel to the third, at a distance a card's aspect allows. Searching only that
// band, and only for lines of about that direction, the search can take the band's best line however few votes it
// has: frame-wide it competes with every line of the frame (a small card's side loses to desk stripes, text rows and
// the card's own print), here only with the few lines the band holds.
import Foundation

enum BandLineSearch {
    /// How far (degrees) a line may turn from the reference direction: a card's opposite sides converge under
    /// perspective.
    private static let maxTurn = 15
    /// ±3 cells of 1°: a 3×3 Sobel's direction next to texture is that uncertain.
    private static let spread = 3

    /// The best lines, strongest first, crossing the convex `band` (4 corners, image pixels) and running within
    /// `maxTurn`° of the direction whose normal is `reference`, from `gradients`' ridge pixels inside the band: at most
    /// `count`, each as (normal, rho: p · normal = rho, votes). Either polarity.
    static func lines(_ gradients: SobelGradients, width w: Int, height h: Int, band: [SIMD2<Double>],
                      reference: SIMD2<Double>, count: Int) -> [(normal: SIMD2<Double>, rho: Double, votes: Int)] {
        guard band.count == 4 else { return [] }
        var low = band[0], high = band[0]
        for p in band { low = pointwiseMin(low, p); high = pointwiseMax(high, p) }
        let x0 = max(2, Int(low.x.rounded(.down))), x1 = min(w - 3, Int(high.x.rounded(.up)))
        let y0 = max(2, Int(low.y.rounded(.down))), y1 = min(h - 3, Int(high.y.rounded(.up)))
        guard x0 < x1, y0 < y1 else { return [] }
        let turn = (band[1] - band[0]).x * (band[2] - band[1]).y - (band[1] - band[0]).y * (band[2] - band[1]).x
        let sign: Double = turn > 0 ? 1 : -1
        @inline(__always) func inside(_ p: SIMD2<Double>) -> Bool {
            for i in 0..<4 {
                let a = band[i], e = band[(i + 1) & 3] - a, r = p - a
                if sign * (e.x * r.y - e.y * r.x) < 0 { return false }
            }
            return true
        }
        let referenceAngle = atan2(reference.y, reference.x)
        let cells = 2 * (maxTurn + spread) + 1
        // Per polarity and 1° cell, the line's normal; rho relative to the band's centre.
        let normals: [SIMD2<Double>] = (0..<(2 * cells)).map {
            let polarity = $0 / cells, cell = $0 % cells - maxTurn - spread
            let angle = referenceAngle + Double(cell) * .pi / 180 + (polarity == 1 ? .pi : 0)
            return SIMD2(cos(angle), sin(angle))
        }
        let centre = (band[0] + band[1] + band[2] + band[3]) / 4
        let reach = Int((((high - low) * (high - low)).sum()).squareRoot() / 2) + 2
        let rhoBins = 2 * reach + 1
        var accumulator = [Int32](repeating: 0, count: 2 * cells * rhoBins)
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
                    let rho = Int(((p - centre) * normals[k]).sum().rounded()) + reach
                    guard rho >= 0, rho < rhoBins else { continue }
                    accumulator[k * rhoBins + rho] += weight
                }
            }
        }
        // The strongest cells, each at least 3 px or 4° from a stronger one of its polarity (one scan per line: only a
        // few are taken).
        var found: [(normal: SIMD2<Double>, rho: Double, votes: Int)] = []
        var taken: [(k: Int, rho: Int)] = []
        while found.count < count {
            var best = -1, bestVotes: Int32 = 0
            for index in accumulator.indices where accumulator[index] > bestVotes {
                let k = index / rhoBins, rho = index % rhoBins
                if taken.contains(where: { $0.k / cells == k / cells && abs($0.k - k) < 4 && abs($0.rho - rho) < 3 }) {
                    continue
                }
                best = index
                bestVotes = accumulator[index]
            }
            guard best >= 0 else { break }
            let k = best / rhoBins, rho = best % rhoBins
            taken.append((k, rho))
            let normal = normals[k]
            found.append((normal, Double(rho - reach) + (centre * normal).sum(), Int(bestVotes)))
        }
        return found
    }
}
