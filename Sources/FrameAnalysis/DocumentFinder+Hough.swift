// DocumentFinder, steps 1-2: the vote image's gradients and the Hough transform that proposes candidate lines.
import Foundation

extension DocumentFinder {
    // MARK: Gradients

    /// ⌈2³² / d⌉ for d = 0…1020 (entry 0 unused): ⌊n / d⌋ = (n · reciprocal[d]) >> 32 exactly for n < 2¹⁸
    /// (the error, below n · d / 2³² < 1 / d, never reaches the next integer).
    static let reciprocals: [UInt64] = (0...1020).map {
        $0 == 0 ? 0 : ((1 << 32) + UInt64($0) - 1) / UInt64($0)
    }

    /// Direction of the gradient (gx, gy) in whole degrees, 0…359 (|gx|, |gy| ≤ 1020, a 3×3 Sobel's range).
    @inline(__always)
    static func gradientAngle(_ gx: Int32, _ gy: Int32, _ table: UnsafePointer<UInt8>,
                                      _ reciprocal: UnsafePointer<UInt64>) -> Int {
        let ax = abs(gx), ay = abs(gy)
        let a: Int
        // The table index is ⌊256 · smaller / larger⌋, by a multiplication with the larger's reciprocal (the float
        // quotient this replaced truncates to the same integer: it is within 2⁻¹⁵ of the true quotient, which is an
        // integer or at least 1/1020 from one).
        @inline(__always) func quotient(_ smaller: Int32, _ larger: Int32) -> Int {
            // (The clamps only keep the table reads in bounds: a Sobel of 8-bit pixels stays within them.)
            min(256, Int((UInt64(UInt32(smaller) &* 256) &* reciprocal[Int(min(larger, 1020))]) >> 32))
        }
        if ax >= ay {
            a = Int(table[quotient(ay, max(ax, 1))])
        } else {
            a = 90 - Int(table[quotient(ax, ay)])
        }
        if gx >= 0 { return gy >= 0 ? a : (a == 0 ? 0 : 360 - a) }
        return gy >= 0 ? 180 - a : 180 + a
    }

    // MARK: Hough

    func vote(gradients: SobelGradients, width w: Int, height h: Int, scale: Double,
              coarseWidth: Int, coarseHeight: Int) {
        // The peak and line lists as locals for the duration (their buffers moved out and back, no copy): appending
        // to a stored property pays a dynamic exclusivity check per access, and the peak scan appends hundreds.
        var peaks: [(votes: UInt16, angle: Int, rho: Int)] = [], lines: [Line] = [], perSector: [Int] = []
        swap(&peaks, &self.peaks)
        swap(&lines, &self.lines)
        swap(&perSector, &self.perSector)
        defer {
            swap(&peaks, &self.peaks)
            swap(&lines, &self.lines)
            swap(&perSector, &self.perSector)
        }
        let edgeThreshold = gradients.edgeThreshold, weakThreshold = gradients.weakThreshold
        let diagonal = Self.voteDiagonal(width: w, height: h)
        let rhoBins = 2 * diagonal + 1
        let size = Self.angleBins * rhoBins
        if size > accumulator.count {
            accumulator.deallocate()
            accumulator = .allocate(capacity: size)
        }
        let acc = accumulator.baseAddress!
        // Per angle, only the offsets the image's pixels can reach hold votes (about half of each row): only those,
        // with a margin that covers the neighbouring angles' reach (the peak test reads them), are cleared and
        // scanned.
        let reach = rowReach.baseAddress!
        // Neighbouring angles (2° apart) reach at most diagonal · 2 sin 1° (+ rounding) further.
        let margin = Int(Double(diagonal) * 0.035) + 3
        Self.cosQ.withUnsafeBufferPointer { cosBuffer in
            Self.sinQ.withUnsafeBufferPointer { sinBuffer in
                for t in 0..<Self.angleBins {
                    let c = cosBuffer[t], s = sinBuffer[t]
                    // (The vote's rho is linear in x and y, so its extremes are at the corners of the voting area.)
                    let x0 = Int32(1), x1 = Int32(w - 2), y0 = Int32(1), y1 = Int32(h - 2)
                    let r00 = (x0 &* c &+ y0 &* s &+ 512) >> 10, r10 = (x1 &* c &+ y0 &* s &+ 512) >> 10
                    let r01 = (x0 &* c &+ y1 &* s &+ 512) >> 10, r11 = (x1 &* c &+ y1 &* s &+ 512) >> 10
                    let lo = min(min(r00, r10), min(r01, r11)), hi = max(max(r00, r10), max(r01, r11))
                    let first = Int(lo) + diagonal, last = Int(hi) + diagonal
                    reach[2 * t] = Int32(first)
                    reach[2 * t + 1] = Int32(last)
                    let clearFrom = max(0, first - margin), clearTo = min(rhoBins - 1, last + margin)
                    (acc + t * rhoBins + clearFrom).update(repeating: 0, count: clearTo - clearFrom + 1)
                }
            }
        }
        let gxp = gradients.gx.baseAddress!, gyp = gradients.gy.baseAddress!
        let mp = gradients.magnitude.baseAddress!
        // Faint edges vote too, their weight capped: a card's outline against a similar background is faint yet
        // long and straight, and length, not contrast, is what separates it from clutter (text, photo, texture).
        let threshold = UInt16(weakThreshold)
        let cap = Int32(edgeThreshold)
        let bins = Self.angleBins
        Self.cosQ.withUnsafeBufferPointer { cosBuffer in
            Self.sinQ.withUnsafeBufferPointer { sinBuffer in
                Self.atanTable.withUnsafeBufferPointer { atanBuffer in
                  Self.reciprocals.withUnsafeBufferPointer { reciprocalBuffer in
                    let cosT = cosBuffer.baseAddress!, sinT = sinBuffer.baseAddress!, atanT = atanBuffer.baseAddress!
                    let reciprocalT = reciprocalBuffer.baseAddress!
                    // The weight's ⌊n / cap⌋ the same way (n < 17 · cap ≤ 2¹⁷, cap ≤ 4094).
                    let capReciprocal = ((1 << 32) + UInt64(cap) - 1) / UInt64(cap)
                    // One ridge pixel's votes.
                    @inline(__always) func castVotes(_ i: Int, x: Int, y: Int) {
                        let m = mp[i], gxi = Int32(gxp[i]), gyi = Int32(gyp[i])
                        // (The angle is 0…359, so its 2° cell is 0…180, and 180 is cell 0.)
                        var centre = (Self.gradientAngle(gxi, gyi, atanT, reciprocalT) + 1) >> 1
                        if centre >= bins { centre -= bins }
                        // 1…16, capped at a full edge: weight by contrast only up to what any real edge has.
                        let weight = UInt16((UInt64(UInt32(min(Int32(m), cap) &* 16 + cap - 1)) &* capReciprocal) >> 32)
                        let x32 = Int32(x), y32 = Int32(y)
                        // ±4°: the gradient's direction on a 3×3 Sobel next to texture is that uncertain.
                        for delta in -2...2 {
                            var bin = centre + delta
                            if bin < 0 { bin += bins } else if bin >= bins { bin -= bins }
                            let rho = (x32 &* cosT[bin] &+ y32 &* sinT[bin] &+ 512) >> 10
                            acc[bin * rhoBins + Int(rho) + diagonal] &+= weight
                        }
                    }
                    @inline(__always) func lanes<T>(_ p: UnsafeMutablePointer<T>) -> SIMD16<Int16> {
                        UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Int16>.self)
                    }
                    let thresholdVector = SIMD16<Int16>(repeating: Int16(threshold)), zero = SIMD16<Int16>(repeating: 0)
                    let laneBits = Self.laneBits
                    for y in 1..<(h - 1) {
                        let row = y * w
                        var x = 1
                        // 16 pixels at a time, which of them vote (the test below, on vectors: magnitudes ≤ 2040 and
                        // |gx|, |gy| ≤ 1020 fit 16-bit lanes); then their votes, in the same order.
                        while x + 16 <= w - 1 {
                            let i = row + x
                            let m = lanes(mp + i)
                            let strong = m .>= thresholdVector
                            if any(strong) {
                                let gxv = lanes(gxp + i), gyv = lanes(gyp + i)
                                let ax = gxv.replacing(with: zero &- gxv, where: gxv .< zero)
                                let ay = gyv.replacing(with: zero &- gyv, where: gyv .< zero)
                                let across = ax .>= ay
                                let ridgeX = (m .>= lanes(mp + i - 1)) .& (m .>= lanes(mp + i + 1))
                                let ridgeY = (m .>= lanes(mp + i - w)) .& (m .>= lanes(mp + i + w))
                                let voting = strong .& ((across .& ridgeX) .| (.!across .& ridgeY))
                                var lanes = laneBits.replacing(with: 0, where: .!voting).wrappedSum()
                                while lanes != 0 {
                                    let lane = lanes.trailingZeroBitCount
                                    lanes &= lanes &- 1
                                    castVotes(i + lane, x: x + lane, y: y)
                                }
                            }
                            x += 16
                        }
                        while x < w - 1 {
                            let i = row + x
                            let m = mp[i]
                            defer { x += 1 }
                            guard m >= threshold else { continue }
                            guard SobelGradients.isRidge(mp, i, gx: Int(gxp[i]), gy: Int(gyp[i]), width: w) else {
                                continue
                            }
                            castVotes(i, x: x, y: y)
                        }
                    }
                  }
                }
            }
        }
        // Peaks: local maxima, strongest first, far enough from each other in angle and offset.
        lines.removeAll(keepingCapacity: true)
        peaks.removeAll(keepingCapacity: true)
        let shortSide = min(w, h)
        let minimum = UInt16(Self.voteMinimum(gradients, shortSide: shortSide))
        let minimumVector = SIMD16<UInt16>(repeating: minimum), laneBits = Self.laneBits
        for t in 0..<bins {
            let tPrev = (t + bins - 1) % bins, tNext = (t + 1) % bins
            let rowT = acc + t * rhoBins, rowP = acc + tPrev * rhoBins, rowN = acc + tNext * rhoBins
            var r = max(1, Int(reach[2 * t]))
            let end = min(rhoBins - 1, Int(reach[2 * t + 1]) + 1)
            while r < end {
                // Almost every cell is below the minimum: skip 16 of them at a time.
                let chunkEnd = min(r + 16, end)
                if chunkEnd - r == 16 {
                    @inline(__always) func cells(_ p: UnsafeMutablePointer<UInt16>) -> SIMD16<UInt16> {
                        UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt16>.self)
                    }
                    let chunk = cells(rowT + r)
                    let strong = chunk .>= minimumVector
                    if !any(strong) {
                        r = chunkEnd
                        continue
                    }
                    // The peak test below on all 16 cells at once (the same comparisons), then the peaks in order.
                    let peak = strong .& (chunk .>= cells(rowT + r - 1)) .& (chunk .>= cells(rowT + r + 1))
                        .& (chunk .>= cells(rowP + r)) .& (chunk .>= cells(rowN + r))
                    // The peak lanes as one bit set, lowest lane first (as the vote's voting lanes).
                    var lanes = UInt16(bitPattern: laneBits.replacing(with: 0, where: .!peak).wrappedSum())
                    while lanes != 0 {
                        let lane = lanes.trailingZeroBitCount
                        lanes &= lanes &- 1
                        peaks.append((chunk[lane], t, r &+ lane &- diagonal))
                    }
                    r = chunkEnd
                    continue
                }
                while r < chunkEnd {
                    let v = rowT[r]
                    if v >= minimum && v >= rowT[r - 1] && v >= rowT[r + 1] && v >= rowP[r] && v >= rowN[r] {
                        peaks.append((v, t, r - diagonal))
                    }
                    r += 1
                }
            }
        }
        // Only the strongest few hundred peaks can become candidates: cut the rest before sorting (a busy frame has
        // thousands of local maxima, and sorting them all cost more than the vote).
        if peaks.count > Self.peaksKept {
            let counts = peakHistogram.baseAddress!
            counts.update(repeating: 0, count: peakHistogram.count)
            for peak in peaks { counts[Int(peak.votes >> 4)] &+= 1 }
            var bucket = peakHistogram.count - 1, kept = 0
            while bucket > 0 && kept + Int(counts[bucket]) < Self.peaksKept {
                kept += Int(counts[bucket])
                bucket -= 1
            }
            let floor = UInt16(bucket << 4)
            peaks.removeAll { $0.votes < floor }
        }
        // Strongest first, equal votes in scan order (what a stable sort by votes gives), taken one at a time from a
        // heap of unique keys (votes descending, then index): no scratch buffer per frame, and the peaks after the
        // last candidate are never ordered.
        if peaks.count > peakOrder.count {
            peakOrder.deallocate()
            peakOrder = .allocate(capacity: peaks.count)
        }
        let order = peakOrder.baseAddress!
        for (i, peak) in peaks.enumerated() { order[i] = UInt64(UInt16.max - peak.votes) << 32 | UInt64(i) }
        var remaining = peaks.count
        Self.buildMinHeap(order, count: remaining)
        let minSeparation = Self.sameLineOffset(shortSide: shortSide)
        for i in perSector.indices { perSector[i] = 0 }
        while remaining > 0 {
            let peak = peaks[Int(Self.popMin(order, count: &remaining) & 0xffff_ffff)]
            // (The normal `Line(theta:…)` computes, from a table.)
            let candidate = Line(normal: Self.cellNormals[peak.angle], rho: Double(peak.rho))   // on the vote image
            if lines.contains(where: { Self.similar($0, candidate, cosine: Self.sameLineCosine, offset: minSeparation) }) {
                continue
            }
            let sector = Self.voteSector(angleCell: peak.angle)
            if perSector[sector] >= Self.maxCandidatesPerSector { continue }
            perSector[sector] += 1
            lines.append(candidate)
            if lines.count >= Self.maxCandidates { break }
        }
        // To coarse pixels (the vote image's pixel x is the coarse image's 2x + 0.5).
        for i in lines.indices {
            let n = lines[i].normal
            lines[i].rho = scale * lines[i].rho + (scale - 1) / 2 * (n.x + n.y)
        }
        Self.appendFrameBorders(to: &lines, width: coarseWidth, height: coarseHeight)
    }

    /// The accumulator's offset origin for a w × h vote image: offsets run from −diagonal to +diagonal.
    static func voteDiagonal(width w: Int, height h: Int) -> Int { Int((Double(w * w + h * h)).squareRoot()) + 2 }

    /// The fewest votes a peak needs: a line of at least ~10 % of the short side (weights are 1…16 per ridge pixel).
    static func voteMinimum(_ gradients: SobelGradients, shortSide: Int) -> Int {
        (16 * gradients.weakThreshold / max(gradients.edgeThreshold, 1)) * max(8, shortSide * 8 / 100)
    }

    /// The 30° sector of direction (0…5) a peak at Hough angle cell `angleCell` counts against.
    static func voteSector(angleCell: Int) -> Int { (2 * angleCell % 180) / 30 }

    /// Lane k's bit, k = 0…15: a vector mask's lanes as one bit set (`replacing(with: 0, where: .!mask).wrappedSum()`).
    static let laneBits = SIMD16<Int16>(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, Int16.min)

    /// The frame's four edges as candidate lines (a cut-off card's outline is closed by them), after the found ones.
    static func appendFrameBorders(to lines: inout [Line], width: Int, height: Int) {
        lines.append(Line(theta: 0, rho: 0, border: true))
        lines.append(Line(theta: 0, rho: Double(width - 1), border: true))
        lines.append(Line(theta: .pi / 2, rho: 0, border: true))
        lines.append(Line(theta: .pi / 2, rho: Double(height - 1), border: true))
    }

    /// Moves the key at `start` down the min-heap of the first `count` keys to its place.
    @inline(__always)
    static func siftDown(_ keys: UnsafeMutablePointer<UInt64>, _ start: Int, count: Int) {
        var root = start
        while 2 * root + 1 < count {
            var child = 2 * root + 1
            if child + 1 < count && keys[child + 1] < keys[child] { child += 1 }
            guard keys[child] < keys[root] else { return }
            let key = keys[root]
            keys[root] = keys[child]
            keys[child] = key
            root = child
        }
    }

    /// Makes the first `count` keys a min-heap.
    static func buildMinHeap(_ keys: UnsafeMutablePointer<UInt64>, count: Int) {
        guard count > 1 else { return }
        for start in stride(from: count / 2 - 1, through: 0, by: -1) { siftDown(keys, start, count: count) }
    }

    /// Removes and returns the smallest key of the min-heap of the first `count` keys (count > 0).
    static func popMin(_ keys: UnsafeMutablePointer<UInt64>, count: inout Int) -> UInt64 {
        let smallest = keys[0]
        count -= 1
        keys[0] = keys[count]
        siftDown(keys, 0, count: count)
        return smallest
    }

    /// Per Hough angle cell, the normal `Line(theta:…)` gives its angle (the same cos and sin).
    static let cellNormals: [SIMD2<Double>] = (0..<angleBins).map {
        let theta = Double(2 * $0) * .pi / 180
        return SIMD2(cos(theta), sin(theta))
    }

    /// Whether two lines are the same line within `cosine` (of the angle between them) and `offset` pixels.
    @inline(__always)
    static func similar(_ a: Line, _ b: Line, cosine: Double, offset: Double) -> Bool {
        let dot = (a.normal * b.normal).sum()
        guard abs(dot) >= cosine else { return false }
        return abs(a.rho - (dot < 0 ? -b.rho : b.rho)) <= offset
    }

    @inline(__always)
    static func intersect(_ a: Line, _ b: Line) -> SIMD2<Double>? {
        let ca = a.normal.x, sa = a.normal.y, cb = b.normal.x, sb = b.normal.y
        let det = ca * sb - sa * cb
        guard abs(det) > 1e-6 else { return nil }
        return SIMD2((a.rho * sb - b.rho * sa) / det, (ca * b.rho - cb * a.rho) / det)
    }
}
