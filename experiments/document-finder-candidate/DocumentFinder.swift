// Finds the document's quadrilateral on the small detection image.
//
// Why lines and not a bright blob: ID cards come in every colour, lie on every background and are cut by the frame
// edge, but their outline is always four straight edges that are long compared with the clutter around them.
// 1. Sobel gradients; an adaptive edge threshold (a percentile of the gradient magnitude, with a floor) keeps busy
//    backgrounds from flooding the vote.
// 2. Hough transform voting only near each edge pixel's own gradient direction (a few bins instead of 180),
//    weighted by magnitude; the strongest separated peaks are candidate lines. The frame's four borders are added
//    as candidate lines so a card that leaves the frame still closes into a quad (and is then CUT_OFF).
// 3. Every two near-parallel pairs that cross at a large angle form a quad; shapes that are not card-like (ID-1's
//    1.586 aspect under perspective, convex, not tiny) are dropped, the rest are scored by how much of each visible
//    side really has an edge along it, with the right orientation.
// 4. The best quad's sides are refined to sub-pixel lines by fitting the edge points along them (least squares).
import Foundation

final class DocumentFinder {
    private struct Line {
        var theta: Double   // normal angle, radians, [0, π)
        var rho: Double     // x cos θ + y sin θ
        var votes: Float
        var border: Bool
        /// (cos θ, sin θ), computed once: the quad search intersects every pair of lines many times.
        let normal: SIMD2<Double>

        init(theta: Double, rho: Double, votes: Float, border: Bool) {
            self.theta = theta
            self.rho = rho
            self.votes = votes
            self.border = border
            normal = SIMD2(cos(theta), sin(theta))
        }
    }

    private static let angleBins = 180
    /// Candidate lines kept from the Hough peaks, in all and per 30° sector of direction.
    private static let maxLines = 28
    private static let maxLinesPerSector = 8
    /// Brightness difference across a side / the step its gradient implies, below which the side is a line, not an
    /// edge between the document and its background.
    static let minStepness = 0.5
    private static let cosTable = (0..<angleBins).map { cos(Double($0) * .pi / Double(angleBins)) }
    private static let sinTable = (0..<angleBins).map { sin(Double($0) * .pi / Double(angleBins)) }

    private var gx: UnsafeMutableBufferPointer<Int16> = .allocate(capacity: 1)
    private var gy: UnsafeMutableBufferPointer<Int16> = .allocate(capacity: 1)
    private var magnitude: UnsafeMutableBufferPointer<UInt16> = .allocate(capacity: 1)
    private var accumulator: UnsafeMutableBufferPointer<Float> = .allocate(capacity: 1)
    /// Per candidate line, prefix sums along it (see `buildProfiles`).
    private var profiles: UnsafeMutableBufferPointer<SIMD4<Float>> = .allocate(capacity: 1)
    private var profileOrigin = 0, profileStride = 0
    private typealias SideSpec = (SIMD2<Double>, SIMD2<Double>, Int)
    private var histogram = [Int](repeating: 0, count: 2048)
    private var lines: [Line] = []
    // Scratch lists kept between frames so steady-state detection does not allocate.
    private var peaks: [(Float, Int, Int)] = []
    private var pairs: [(Int, Int)] = []
    private var edgeThreshold = 0

    init() {
        lines.reserveCapacity(32)
        peaks.reserveCapacity(1024)
        pairs.reserveCapacity(256)
    }

    deinit {
        gx.deallocate()
        gy.deallocate()
        magnitude.deallocate()
        accumulator.deallocate()
        profiles.deallocate()
    }

    /// The best card-like quad in `image`, with its confidence (0…1), or nil when nothing is quad-shaped.
    func find(in image: GrayImage) -> (quad: Quadrilateral, confidence: Double)? {
        let w = image.width, h = image.height
        guard w >= 16, h >= 16 else { return nil }
        computeGradients(image)
        vote(width: w, height: h)
        guard lines.count >= 2 else { return nil }
        buildProfiles(image, width: w, height: h)
        guard let best = bestQuad(width: w, height: h) else { return nil }
        let refined = refine(best.quad, width: w, height: h) ?? best.quad
        return (refined, best.confidence)
    }

    // MARK: Gradients

    private func computeGradients(_ image: GrayImage) {
        let w = image.width, h = image.height, n = w * h
        if n > gx.count {
            gx.deallocate(); gy.deallocate(); magnitude.deallocate()
            gx = .allocate(capacity: n); gy = .allocate(capacity: n); magnitude = .allocate(capacity: n)
        }
        let src = image.base, gxp = gx.baseAddress!, gyp = gy.baseAddress!, mp = magnitude.baseAddress!
        mp.update(repeating: 0, count: n)
        for i in histogram.indices { histogram[i] = 0 }
        var counted = 0
        histogram.withUnsafeMutableBufferPointer { hist in
            for y in 1..<(h - 1) {
                let r0 = src + (y - 1) * w, r1 = src + y * w, r2 = src + (y + 1) * w
                for x in 1..<(w - 1) {
                    let a = Int(r0[x - 1]), b = Int(r0[x]), c = Int(r0[x + 1])
                    let d = Int(r1[x - 1]), f = Int(r1[x + 1])
                    let g = Int(r2[x - 1]), hh = Int(r2[x]), k = Int(r2[x + 1])
                    let sx = (c + 2 * f + k) - (a + 2 * d + g)
                    let sy = (g + 2 * hh + k) - (a + 2 * b + c)
                    let m = abs(sx) + abs(sy)
                    let i = y * w + x
                    gxp[i] = Int16(sx)
                    gyp[i] = Int16(sy)
                    mp[i] = UInt16(m)
                    hist[min(m >> 1, 2047)] += 1
                }
            }
            counted = (w - 2) * (h - 2)
            // Edges: the strongest 12 % of pixels, but never weaker than a step of ~10 grey levels.
            var remaining = counted * 12 / 100, bin = 2047
            while bin > 0 && remaining > 0 {
                remaining -= hist[bin]
                bin -= 1
            }
            edgeThreshold = max(40, bin * 2)
        }
    }

    // MARK: Hough

    private func vote(width w: Int, height h: Int) {
        let diagonal = Int((Double(w * w + h * h)).squareRoot()) + 2
        let rhoBins = 2 * diagonal + 1
        let size = Self.angleBins * rhoBins
        if size > accumulator.count {
            accumulator.deallocate()
            accumulator = .allocate(capacity: size)
        }
        let acc = accumulator.baseAddress!
        acc.update(repeating: 0, count: size)
        let gxp = gx.baseAddress!, gyp = gy.baseAddress!, mp = magnitude.baseAddress!
        // Vote with weak edges too, but cap each pixel's weight: a card's outline against a similar background is
        // faint yet long and straight, and length, not contrast, is what separates it from clutter.
        let threshold = UInt16(max(24, edgeThreshold / 6))
        let cap = Float(edgeThreshold)
        Self.cosTable.withUnsafeBufferPointer { cosT in
            Self.sinTable.withUnsafeBufferPointer { sinT in
                for y in 1..<(h - 1) {
                    for x in 1..<(w - 1) {
                        let i = y * w + x
                        let m = mp[i]
                        guard m >= threshold else { continue }
                        var angle = atan2(Double(gyp[i]), Double(gxp[i])) * (180 / .pi)
                        if angle < 0 { angle += 180 }
                        let centre = Int(angle.rounded()) % Self.angleBins
                        let weight = min(Float(m), cap)
                        for delta in -2...2 {
                            var bin = centre + delta
                            var sign = 1.0
                            if bin < 0 { bin += Self.angleBins; sign = -1 }
                            if bin >= Self.angleBins { bin -= Self.angleBins; sign = -1 }
                            let rho = sign * (Double(x) * cosT[bin] + Double(y) * sinT[bin])
                            let r = Int(rho.rounded()) + diagonal
                            acc[bin * rhoBins + r] += weight
                        }
                    }
                }
            }
        }
        // Peaks: local maxima, strongest first, far enough from each other in angle and offset.
        lines.removeAll(keepingCapacity: true)
        peaks.removeAll(keepingCapacity: true)
        let minimum = Float(edgeThreshold) * Float(min(w, h)) * 0.08
        for t in 0..<Self.angleBins {
            let tPrev = (t + Self.angleBins - 1) % Self.angleBins, tNext = (t + 1) % Self.angleBins
            for r in 1..<(rhoBins - 1) {
                let v = acc[t * rhoBins + r]
                guard v >= minimum else { continue }
                if v < acc[t * rhoBins + r - 1] || v < acc[t * rhoBins + r + 1] { continue }
                if t > 0 && t < Self.angleBins - 1 {
                    if v < acc[tPrev * rhoBins + r] || v < acc[tNext * rhoBins + r] { continue }
                }
                peaks.append((v, t, r - diagonal))
            }
        }
        peaks.sort { $0.0 > $1.0 }
        let minSeparation = max(4.0, Double(min(w, h)) * 0.03)
        // At most a few lines per 30° sector: a striped or wood-grain background yields dozens of long parallel
        // lines that would otherwise crowd out the document's perpendicular sides.
        var perSector = (0, 0, 0, 0, 0, 0)
        for (v, t, r) in peaks {
            let theta = Double(t) * .pi / Double(Self.angleBins)
            let candidate = Line(theta: theta, rho: Double(r), votes: v, border: false)
            let sector = t * 6 / Self.angleBins
            let used: Int
            switch sector {
            case 0: used = perSector.0
            case 1: used = perSector.1
            case 2: used = perSector.2
            case 3: used = perSector.3
            case 4: used = perSector.4
            default: used = perSector.5
            }
            if used >= Self.maxLinesPerSector { continue }
            if lines.contains(where: { Self.similar($0, candidate, degrees: 6, offset: minSeparation) }) { continue }
            lines.append(candidate)
            switch sector {
            case 0: perSector.0 += 1
            case 1: perSector.1 += 1
            case 2: perSector.2 += 1
            case 3: perSector.3 += 1
            case 4: perSector.4 += 1
            default: perSector.5 += 1
            }
            if lines.count >= Self.maxLines { break }
        }
        // The frame's borders close quads of documents that leave the frame.
        lines.append(Line(theta: 0, rho: 0, votes: 0, border: true))
        lines.append(Line(theta: 0, rho: Double(w - 1), votes: 0, border: true))
        lines.append(Line(theta: .pi / 2, rho: 0, votes: 0, border: true))
        lines.append(Line(theta: .pi / 2, rho: Double(h - 1), votes: 0, border: true))
    }

    /// Angle difference (degrees, 0…90) between two lines' directions, and whether comparing them needs a flip.
    private static func angleBetween(_ a: Line, _ b: Line) -> (degrees: Double, flipped: Bool) {
        var d = abs(a.theta - b.theta) * 180 / .pi
        var flipped = false
        if d > 90 { d = 180 - d; flipped = true }
        return (d, flipped)
    }

    private static func similar(_ a: Line, _ b: Line, degrees: Double, offset: Double) -> Bool {
        let (d, flipped) = angleBetween(a, b)
        guard d <= degrees else { return false }
        return abs(a.rho - (flipped ? -b.rho : b.rho)) <= offset
    }

    private static func intersect(_ a: Line, _ b: Line) -> SIMD2<Double>? {
        let ca = a.normal.x, sa = a.normal.y, cb = b.normal.x, sb = b.normal.y
        let det = ca * sb - sa * cb
        guard abs(det) > 1e-6 else { return nil }
        return SIMD2((a.rho * sb - b.rho * sa) / det, (ca * b.rho - cb * a.rho) / det)
    }

    // MARK: Quads

    private func bestQuad(width w: Int, height h: Int) -> (quad: Quadrilateral, confidence: Double)? {
        let shortSide = Double(min(w, h))
        // Opposite sides: near-parallel (perspective tilts them a little) and well apart.
        pairs.removeAll(keepingCapacity: true)
        for i in 0..<lines.count {
            for j in (i + 1)..<lines.count {
                let (d, flipped) = Self.angleBetween(lines[i], lines[j])
                guard d <= 50 else { continue }
                if lines[i].border && lines[j].border { continue }
                let separation = abs(lines[i].rho - (flipped ? -lines[j].rho : lines[j].rho))
                guard separation >= shortSide * 0.12 else { continue }
                pairs.append((i, j))
            }
        }
        var best: (quad: Quadrilateral, confidence: Double, score: Double)?
        let frameArea = Double(w * h)
        for p in 0..<pairs.count {
            for q in (p + 1)..<pairs.count {
                let (a1, a2) = pairs[p], (b1, b2) = pairs[q]
                let la = lines[a1], lb = lines[b1]
                guard Self.angleBetween(la, lb).degrees >= 45 else { continue }
                var borders = 0
                if lines[a1].border { borders += 1 }
                if lines[a2].border { borders += 1 }
                if lines[b1].border { borders += 1 }
                if lines[b2].border { borders += 1 }
                guard borders <= 2 else { continue }
                guard let c0 = Self.intersect(lines[a1], lines[b1]), let c1 = Self.intersect(lines[a1], lines[b2]),
                      let c2 = Self.intersect(lines[a2], lines[b2]), let c3 = Self.intersect(lines[a2], lines[b1])
                else { continue }
                let lower = SIMD2(-0.6 * Double(w), -0.6 * Double(h)), upper = SIMD2(1.6 * Double(w), 1.6 * Double(h))
                let low = pointwiseMin(pointwiseMin(c0, c1), pointwiseMin(c2, c3))
                let high = pointwiseMax(pointwiseMax(c0, c1), pointwiseMax(c2, c3))
                if any(low .< lower) || any(high .> upper) { continue }
                // c0…c3 are already in cyclic order (a1∩b1, a1∩b2, a2∩b2, a2∩b1): area, aspect and skew do not
                // depend on the starting corner or direction, so only the winner is put in canonical order.
                let quad = Quadrilateral(corners: [c0, c1, c2, c3])
                let area = quad.area
                guard area >= frameArea * 0.02 else { continue }
                let aspect = quad.aspect
                guard aspect >= 1.15, aspect <= 3.2, quad.skewDegrees <= 60 else { continue }
                // Sides in the order a1, b2, a2, b1 between consecutive corners c0…c3.
                guard let support = self.support(((c0, c1, a1), (c1, c2, b2), (c2, c3, a2), (c3, c0, b1))) else {
                    continue
                }
                let aspectFit = exp(-pow(log(aspect / 1.586) / 0.22, 2))
                let confidence = support * (0.75 + 0.25 * aspectFit)
                let sizeWeight = 0.65 + 0.35 * min(1, area / frameArea / 0.2)
                // A frame border is free of edge evidence: prefer a quad with a real fourth edge over one that
                // borrows the border, or a blurred edge would lose to the frame itself.
                let score = confidence * sizeWeight * pow(0.7, Double(borders))
                if best == nil || score > best!.score { best = (quad, confidence, score) }
            }
        }
        return best.map { (Quadrilateral.ordered($0.quad.corners), $0.confidence) }
    }

    /// Samples every candidate line once, one sample per pixel of its length, into prefix sums (visible, supported,
    /// brightness step across, gradient step): the support of any side on that line is then four subtractions,
    /// so scoring thousands of candidate quads costs no more than reading each line once.
    private func buildProfiles(_ image: GrayImage, width w: Int, height h: Int) {
        let half = Int((Double(w * w + h * h)).squareRoot()) + 2
        profileOrigin = half
        profileStride = 2 * half + 2
        let needed = lines.count * profileStride
        if needed > profiles.count {
            profiles.deallocate()
            profiles = .allocate(capacity: needed)
        }
        let src = image.base, gxp = gx.baseAddress!, gyp = gy.baseAddress!, mp = magnitude.baseAddress!
        let weak = UInt16(max(24, edgeThreshold / 6))
        let out = profiles.baseAddress!
        for (index, line) in lines.enumerated() {
            let row = out + index * profileStride
            row[0] = SIMD4(repeating: 0)
            let n = line.normal, d = SIMD2(-n.y, n.x)
            let origin = n * line.rho
            var sums = SIMD4<Float>(repeating: 0)
            for t in 0..<(profileStride - 1) {
                if !line.border {
                    let p = origin + d * Double(t - half)
                    let x = Int(p.x.rounded()), y = Int(p.y.rounded())
                    if x >= 2, y >= 2, x < w - 2, y < h - 2 {
                        sums.x += 1
                        for k in -1...1 {
                            let qx = Int((p.x + n.x * Double(k)).rounded()), qy = Int((p.y + n.y * Double(k)).rounded())
                            let i = qy * w + qx
                            guard mp[i] >= weak else { continue }
                            let fx = Double(gxp[i]), fy = Double(gyp[i])
                            let dot = fx * n.x + fy * n.y
                            guard dot * dot >= 0.75 * (fx * fx + fy * fy) else { continue }
                            sums.y += 1
                            // Step or line? A document's outline separates two regions, so the brightness 3 px to
                            // either side differs by about the edge's own step; a painted line or a tile joint (a
                            // ridge) has the same brightness on both sides.
                            let ax = Int((p.x + n.x * 3).rounded()), ay = Int((p.y + n.y * 3).rounded())
                            let bx = Int((p.x - n.x * 3).rounded()), by = Int((p.y - n.y * 3).rounded())
                            if ax >= 0, ay >= 0, ax < w, ay < h, bx >= 0, by >= 0, bx < w, by < h {
                                sums.z += Float(abs(Int(src[ay * w + ax]) - Int(src[by * w + bx])))
                                sums.w += Float(mp[i]) / 4
                            }
                            break
                        }
                    }
                }
                row[t + 1] = sums
            }
        }
    }

    /// Edge support of a quad's visible sides (0…1), nil when too little of it is visible or one side is unsupported.
    /// `sides` are (start, end, index into `lines`).
    private func support(_ sides: (SideSpec, SideSpec, SideSpec, SideSpec)) -> Double? {
        var supported = 0.0, visible = 0.0, perimeter = 0.0
        let out = profiles.baseAddress!
        for side in [sides.0, sides.1, sides.2, sides.3] {
            let (start, end, index) = side
            let delta = end - start
            let length = (delta * delta).sum().squareRoot()
            perimeter += length
            let line = lines[index]
            if line.border { continue }
            let n = line.normal, d = SIMD2(-n.y, n.x)
            let t0 = (start * d).sum(), t1 = (end * d).sum()
            let lo = max(0, Int(min(t0, t1).rounded(.up)) + profileOrigin)
            let hi = min(profileStride - 2, Int(max(t0, t1).rounded(.down)) + profileOrigin)
            guard lo <= hi else { continue }
            let row = out + index * profileStride
            let sums = row[hi + 1] - row[lo]
            let sideVisible = Double(sums.x)
            guard sideVisible > 0 else { continue }
            let fraction = Double(sums.y) / sideVisible
            // A visible side with hardly any edge along it means these lines do not outline one object.
            if sideVisible >= 8 && fraction < 0.35 { return nil }
            if sideVisible >= 8 && sums.w > 0 && Double(sums.z) < Self.minStepness * Double(sums.w) { return nil }
            supported += fraction * sideVisible
            visible += sideVisible
        }
        guard perimeter > 0, visible >= perimeter * 0.45 else { return nil }
        return supported / visible
    }

    // MARK: Refinement

    /// Fits each side to the sub-pixel edge points near it and intersects the fitted lines.
    private func refine(_ quad: Quadrilateral, width w: Int, height h: Int) -> Quadrilateral? {
        let mp = magnitude.baseAddress!
        var fitted: [Line] = []
        for i in 0..<4 {
            let start = quad.corners[i], end = quad.corners[(i + 1) % 4]
            let d = end - start
            let length = (d * d).sum().squareRoot()
            guard length > 4 else { return nil }
            let n = SIMD2(-d.y / length, d.x / length)
            var sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0, sw = 0.0
            let steps = max(4, Int(length))
            // Skip the ends: corners are rounded on real cards.
            for s in (steps / 10)...(steps - steps / 10) {
                let p = start + d * (Double(s) / Double(steps))
                var bestM: UInt16 = 0, bestK = 0
                var values = SIMD8<Double>(repeating: 0)
                var ok = true
                for k in -3...3 {
                    let qx = Int((p.x + n.x * Double(k)).rounded()), qy = Int((p.y + n.y * Double(k)).rounded())
                    guard qx >= 1, qy >= 1, qx < w - 1, qy < h - 1 else { ok = false; break }
                    let m = mp[qy * w + qx]
                    values[k + 3] = Double(m)
                    if m > bestM { bestM = m; bestK = k }
                }
                guard ok, bestM >= UInt16(edgeThreshold / 2), bestK > -3, bestK < 3 else { continue }
                // Parabola through the peak and its neighbours: the edge's sub-pixel position across the side.
                let l = values[bestK + 2], c = values[bestK + 3], r = values[bestK + 4]
                let denominator = l - 2 * c + r
                let offset = denominator < 0 ? 0.5 * (l - r) / denominator : 0
                let e = p + n * (Double(bestK) + max(-0.5, min(0.5, offset)))
                let weight = c
                sx += weight * e.x; sy += weight * e.y
                sxx += weight * e.x * e.x; syy += weight * e.y * e.y; sxy += weight * e.x * e.y
                sw += weight
            }
            // Only sides with enough edge evidence are refitted; the rest (e.g. frame borders) keep their line.
            if sw <= 0 || sw < Double(edgeThreshold) * Double(steps) * 0.3 {
                let theta = atan2(n.y, n.x)
                fitted.append(Line(theta: theta, rho: (start * n).sum(), votes: 0, border: false))
                continue
            }
            let mx = sx / sw, my = sy / sw
            let cxx = sxx / sw - mx * mx, cyy = syy / sw - my * my, cxy = sxy / sw - mx * my
            // Normal of the total-least-squares line: eigenvector of the smaller eigenvalue of the covariance.
            let angle = 0.5 * atan2(2 * cxy, cxx - cyy)   // direction of the line
            var normal = SIMD2(-sin(angle), cos(angle))
            if (normal * n).sum() < 0 { normal = -normal }
            // Reject a fit that turned away from the Hough line: it latched onto something else.
            guard (normal * n).sum() > cos(6 * Double.pi / 180) else {
                fitted.append(Line(theta: atan2(n.y, n.x), rho: (start * n).sum(), votes: 0, border: false))
                continue
            }
            fitted.append(Line(theta: atan2(normal.y, normal.x), rho: normal.x * mx + normal.y * my, votes: 0,
                               border: false))
        }
        var corners: [SIMD2<Double>] = []
        for i in 0..<4 {
            guard let c = Self.intersect(fitted[(i + 3) % 4], fitted[i]) else { return nil }
            // A refined corner may not wander far from the Hough one.
            let delta = c - quad.corners[i]
            guard (delta * delta).sum() < 36 else { return nil }
            corners.append(c)
        }
        return Quadrilateral(corners: corners)
    }
}
