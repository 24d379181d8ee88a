// DocumentFinder, step 5: the winner's sides refitted on the working image.
import Foundation

extension DocumentFinder {
    // MARK: Refinement on the working image

    /// The winner found on `coarse`, scaled to `working` and its sides refitted there (kept as scaled when a side
    /// cannot be refitted): the end of `find` and of `track` alike.
    func refined(_ best: Searched, from coarse: GrayImage, on working: GrayImage) -> Found {
        let scaled = best.quad.scaled(x: Double(working.width) / Double(coarse.width),
                                      y: Double(working.height) / Double(coarse.height))
        return Found(quad: refine(scaled, borders: best.borders, in: working) ?? scaled, confidence: best.confidence)
    }

    /// Refits each non-border side to the sub-pixel edge points along it on `image` and intersects the fitted lines.
    func refine(_ quad: Quadrilateral, borders: QuadSideFlags, in image: GrayImage) -> Quadrilateral? {
        guard let r = refinedCorners(quad.corners.tuple, borders: borders.tuple, in: image) else { return nil }
        return Quadrilateral(corners: QuadCorners(r.0, r.1, r.2, r.3))
    }

    /// `refine` on corners and border flags held in tuples, allocating nothing (the fitted lines go to `fittedSides`):
    /// `container` refits a photo-like winner's outline with it in every quad search that has one.
    func refinedCorners(_ corners: Corners, borders: (Bool, Bool, Bool, Bool), in image: GrayImage) -> Corners? {
        let w = image.width, h = image.height
        let src = image.base
        // (The tuples read by position.)
        func corner(_ i: Int) -> SIMD2<Double> {
            switch i { case 0: corners.0; case 1: corners.1; case 2: corners.2; default: corners.3 }
        }
        func border(_ i: Int) -> Bool {
            switch i { case 0: borders.0; case 1: borders.1; case 2: borders.2; default: borders.3 }
        }
        fittedSides.removeAll(keepingCapacity: true)
        let radius = 5
        for i in 0..<4 {
            let start = corner(i), end = corner((i + 1) % 4)
            let d = end - start
            let length = (d * d).sum().squareRoot()
            guard length > 8 else { return nil }
            let n = SIMD2(-d.y / length, d.x / length)
            let coarse = Line(normal: n, rho: (start * n).sum())
            if border(i) {
                fittedSides.append(coarse)
                continue
            }
            // Walk across the side along the image axis closest to its normal.
            let vertical = abs(n.y) >= abs(n.x)
            let samples = min(64, max(8, Int(length / 3)))
            edgePoints.removeAll(keepingCapacity: true)
            var positive = 0.0, negative = 0.0
            // Two candidate points per sample (steepest rising and falling step); the side's polarity picks one.
            for s in 0..<samples {
                // Skip the ends: corners are rounded on real cards.
                let f = 0.12 + 0.76 * (Double(s) + 0.5) / Double(samples)
                let p = start + d * f
                let px = Int(p.x.rounded()), py = Int(p.y.rounded())
                let step = vertical ? w : 1
                let centre: Int
                if vertical {
                    guard px >= 0, px < w, py - radius - 1 >= 0, py + radius + 1 < h else { continue }
                    centre = py * w + px
                } else {
                    guard py >= 0, py < h, px - radius - 1 >= 0, px + radius + 1 < w else { continue }
                    centre = py * w + px
                }
                var bestRise = 0, riseK = 0, bestFall = 0, fallK = 0
                for k in -radius...radius {
                    let v = Int(src[centre + (k + 1) * step]) - Int(src[centre + (k - 1) * step])
                    if v > bestRise { bestRise = v; riseK = k }
                    if -v > bestFall { bestFall = -v; fallK = k }
                }
                func subPixel(_ k: Int, _ sign: Int) -> Double {
                    guard k > -radius, k < radius else { return Double(k) }
                    let l = Double(sign * (Int(src[centre + k * step]) - Int(src[centre + (k - 2) * step])))
                    let c = Double(sign * (Int(src[centre + (k + 1) * step]) - Int(src[centre + (k - 1) * step])))
                    let r = Double(sign * (Int(src[centre + (k + 2) * step]) - Int(src[centre + k * step])))
                    let denominator = l - 2 * c + r
                    return Double(k) + (denominator < 0 ? max(-0.5, min(0.5, 0.5 * (l - r) / denominator)) : 0)
                }
                if bestRise >= 6 {
                    let o = subPixel(riseK, 1)
                    let e = vertical ? SIMD2(p.x.rounded(), Double(py) + o) : SIMD2(Double(px) + o, p.y.rounded())
                    edgePoints.append(SIMD3(e.x, e.y, Double(bestRise)))
                    positive += Double(bestRise)
                }
                if bestFall >= 6 {
                    let o = subPixel(fallK, -1)
                    let e = vertical ? SIMD2(p.x.rounded(), Double(py) + o) : SIMD2(Double(px) + o, p.y.rounded())
                    edgePoints.append(SIMD3(e.x, e.y, -Double(bestFall)))
                    negative += Double(bestFall)
                }
            }
            let sign: Double = positive >= negative ? 1 : -1
            var line = fit(sign: sign, near: coarse, tolerance: 4.5)
            if let first = line { line = fit(sign: sign, near: first, tolerance: 1.5) ?? first }
            guard let line, (line.normal * n).sum() > cos(6 * Double.pi / 180) else {
                fittedSides.append(coarse)
                continue
            }
            fittedSides.append(line)
        }
        func refined(_ i: Int) -> SIMD2<Double>? {
            guard let c = Self.intersect(fittedSides[(i + 3) % 4], fittedSides[i]) else { return nil }
            // A refined corner may not wander far from the coarse one.
            let delta = c - corner(i)
            return (delta * delta).sum() < 64 ? c : nil
        }
        guard let c0 = refined(0), let c1 = refined(1), let c2 = refined(2), let c3 = refined(3) else { return nil }
        return (c0, c1, c2, c3)
    }

    /// Weighted total-least-squares line through the edge points of one polarity within `tolerance` of `near`.
    func fit(sign: Double, near: Line, tolerance: Double) -> Line? {
        var sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0, sw = 0.0, count = 0
        for e in edgePoints where e.z * sign > 0 {
            let p = SIMD2(e.x, e.y)
            guard abs((p * near.normal).sum() - near.rho) <= tolerance else { continue }
            let weight = abs(e.z)
            sx += weight * p.x; sy += weight * p.y
            sxx += weight * p.x * p.x; syy += weight * p.y * p.y; sxy += weight * p.x * p.y
            sw += weight
            count += 1
        }
        guard count >= 6, sw > 0 else { return nil }
        let mx = sx / sw, my = sy / sw
        let cxx = sxx / sw - mx * mx, cyy = syy / sw - my * my, cxy = sxy / sw - mx * my
        // Normal of the total-least-squares line: eigenvector of the smaller eigenvalue of the covariance.
        let angle = 0.5 * atan2(2 * cxy, cxx - cyy)   // direction of the line
        var normal = SIMD2(-sin(angle), cos(angle))
        if (normal * near.normal).sum() < 0 { normal = -normal }
        return Line(normal: normal, rho: normal.x * mx + normal.y * my)
    }
}
