// DocumentFinder, step 3: candidate lines refitted and read into prefix-sum profiles; the fourth-side search's
// seeds and adopted lines.
import Foundation

extension DocumentFinder {
    // MARK: Profiles

    /// Samples candidate line `index` once, one sample per pixel of its length, into prefix sums indexed by the
    /// position t along the line (t = p · direction, direction = (−sin θ, cos θ)); returns the sampled range of t
    /// (empty when the line has no part inside the image).
    func profileLine(_ index: Int, _ image: GrayImage, half: Int) -> (lo: Int, hi: Int) {
        let w = image.width, h = image.height
        let src = image.base, gxp = gx.baseAddress!, gyp = gy.baseAddress!, mp = magnitude.baseAddress!
        let weak = UInt16(weakThreshold)
        let line = lines[index]
        let row = profiles.baseAddress! + index * profileStride
        let profileOrigin = self.profileOrigin
        let n = line.normal, d = SIMD2(-n.y, n.x)
        let origin = n * line.rho
        // The part of the line at least 3 px inside the image (where ±2 px across still has gradients), so that
        // an edge can be followed up to the frame edge (is a corner near it a corner, or does the card go on?).
        let (tLo, tHi) = Self.chord(origin: origin, direction: d, width: w, height: h, half: half)
        let lo = Int(tLo.rounded(.up)), hi = Int(tHi.rounded(.down))
        guard lo <= hi else { return (0, -1) }
        // The running sums as scalars (the same float additions per field; cheaper than updating vector lanes).
        var visible: Float = 0, supported: Float = 0, stepSum: Float = 0, gradientSum: Float = 0
        var signedSupport: Float = 0, signedGradient: Float = 0, underGlare: Float = 0
        let clipped = Self.clippedLuma
        // Lane 7 (stripe fields) is filled later, for the lines whose run to a frame border is judged (`StripeLane`).
        profiledImage = image
        stripeLaneFilled[index] = false
        row[lo + profileOrigin] = Profile(repeating: 0)
        // One probe: whether pixel i (magnitude m) is an edge pixel with the line's orientation; if so, it is the
        // sample's (its polarity, strength, and the brightness step across the line at p).
        @inline(__always) func take(_ i: Int, _ m: UInt16, _ p: SIMD2<Double>) -> Bool {
            let fx = Double(gxp[i]), fy = Double(gyp[i])
            let dot = fx * n.x + fy * n.y
            guard dot * dot >= 0.75 * (fx * fx + fy * fy) else { return false }
            let sign: Float = dot > 0 ? 1 : -1
            supported += 1
            signedSupport += sign
            signedGradient += sign * Float(m) / 4
            // Step or line? A document's outline separates two regions, so the brightness 3 px to either
            // side differs by about the edge's own step; a painted line or a joint has the same both sides.
            // (Clamped to the image near its edges.)
            @inline(__always) func clamp(_ v: Int, _ limit: Int) -> Int { v < 0 ? 0 : (v > limit ? limit : v) }
            let ax = clamp(Int(p.x + n.x * 3 + 0.5), w - 1), ay = clamp(Int(p.y + n.y * 3 + 0.5), h - 1)
            let bx = clamp(Int(p.x - n.x * 3 + 0.5), w - 1), by = clamp(Int(p.y - n.y * 3 + 0.5), h - 1)
            stepSum += Float(abs(Int(src[ay * w + ax]) - Int(src[by * w + bx])))
            gradientSum += Float(m) / 4
            return true
        }
        for t in lo...hi {
            let p = origin + d * Double(t)
            visible += 1
            // Nearest first, up to 1 px across (the lines are refitted to their edges): p, p + n, p − n. All three
            // magnitudes are read first, so a sample with none above the weak threshold (most samples off an edge)
            // costs one branch. (Coordinates are ≥ 0 here, so adding ½ and truncating rounds (libm's round is dear
            // here); p.x + n.x · 0 is p.x, and n.x · ±1 is ±n.x, exactly.)
            let i0 = Int(p.y + 0.5) * w + Int(p.x + 0.5)
            // A sample inside a clipped patch (the pixel and the pixels 3 px to either side across the line): no edge
            // can show there (see `glareForgiven`). One branch for the rest.
            if src[i0] >= clipped {
                let ax = min(max(Int(p.x + n.x * 3 + 0.5), 0), w - 1), ay = min(max(Int(p.y + n.y * 3 + 0.5), 0), h - 1)
                let bx = min(max(Int(p.x - n.x * 3 + 0.5), 0), w - 1), by = min(max(Int(p.y - n.y * 3 + 0.5), 0), h - 1)
                if src[ay * w + ax] >= clipped && src[by * w + bx] >= clipped { underGlare += 1 }
            }
            let i1 = Int(p.y + n.y + 0.5) * w + Int(p.x + n.x + 0.5)
            let i2 = Int(p.y - n.y + 0.5) * w + Int(p.x - n.x + 0.5)
            let m0 = mp[i0], m1 = mp[i1], m2 = mp[i2]
            if m0 >= weak || m1 >= weak || m2 >= weak {
                if !(m0 >= weak && take(i0, m0, p)) && !(m1 >= weak && take(i1, m1, p)) && m2 >= weak {
                    _ = take(i2, m2, p)
                }
            }
            row[t + 1 + profileOrigin] = Profile(visible, supported, stepSum, gradientSum, signedSupport, signedGradient,
                                                 underGlare, 0)
        }
        return (lo, hi)
    }

    /// The range of t (position along the line) where origin + t·direction is at least 3 px inside the image.
    static func chord(origin: SIMD2<Double>, direction d: SIMD2<Double>, width w: Int, height h: Int,
                              half: Int) -> (Double, Double) {
        var tLo = -Double(half), tHi = Double(half)
        for axis in 0..<2 {
            let o = origin[axis], dir = d[axis], limit = Double((axis == 0 ? w : h) - 4)
            if abs(dir) < 1e-9 {
                if o < 3 || o > limit { return (1, 0) }
            } else {
                let t0 = (3 - o) / dir, t1 = (limit - o) / dir
                tLo = max(tLo, min(t0, t1))
                tHi = min(tHi, max(t0, t1))
            }
        }
        return (tLo, tHi)
    }

    /// Refits candidate line `index` to the edge pixels along it (the Hough cell is 1° × 1 px, which drifts up to a
    /// couple of pixels from a long edge at its ends): the offset across the line of the strongest pixel with the
    /// line's orientation and polarity, every third pixel along it, by weighted least squares, then again with only
    /// the points within a pixel of the first fit (texture beside the edge does not pull it).
    func refitLine(_ index: Int, width w: Int, height h: Int, half: Int) {
        let gxp = gx.baseAddress!, gyp = gy.baseAddress!, mp = magnitude.baseAddress!
        let weak = UInt16(weakThreshold)
        let line = lines[index]
        let n = line.normal, d = SIMD2(-n.y, n.x)
        let origin = n * line.rho
        let (tLo, tHi) = Self.chord(origin: origin, direction: d, width: w, height: h, half: half)
        guard tHi - tLo >= 8 else { return }
        // Pass 0 probes 5 offsets across the line at each sample and keeps, per probe, the magnitude of a pixel with
        // the line's orientation and polarity (0 otherwise); pass 1 (the same samples) chooses among those again.
        let samples = Int(((tHi - tLo) / 3).rounded(.down)) + 2
        if samples * 5 > refitProbes.count {
            refitProbes.deallocate()
            refitTimes.deallocate()
            refitProbes = .allocate(capacity: samples * 5)
            refitTimes = .allocate(capacity: samples)
        }
        let probes = refitProbes.baseAddress!, times = refitTimes.baseAddress!
        var fit = (a: 0.0, b: 0.0)
        // Pass 0 keeps only the samples with a probe (their t and probes, in order): the others add nothing to
        // either fit, so pass 1 reads only those.
        var kept = 0
        for pass in 0..<2 {
            var sw = 0.0, st = 0.0, sk = 0.0, stt = 0.0, stk = 0.0, count = 0
            var t = tLo
            var sample = 0
            while pass == 0 ? t <= tHi : sample < kept {
                if pass == 1 { t = times[sample] }
                let probe = probes + sample * 5
                var bestM: UInt16 = 0, bestK = 0.0
                if pass == 0 {
                    let p = origin + d * t
                    // The five magnitudes first: a sample with none above the weak threshold (most samples of a
                    // line off an edge) then costs one branch.
                    @inline(__always) func pixel(_ offset: Double) -> Int {
                        Int(p.y + n.y * offset + 0.5) * w + Int(p.x + n.x * offset + 0.5)
                    }
                    let i0 = pixel(-2), i1 = pixel(-1), i2 = pixel(0), i3 = pixel(1), i4 = pixel(2)
                    let m0 = mp[i0], m1 = mp[i1], m2 = mp[i2], m3 = mp[i3], m4 = mp[i4]
                    probe[0] = 0; probe[1] = 0; probe[2] = 0; probe[3] = 0; probe[4] = 0
                    if m0 >= weak || m1 >= weak || m2 >= weak || m3 >= weak || m4 >= weak {
                        @inline(__always) func test(_ slot: Int, _ i: Int, _ m: UInt16) {
                            guard m >= weak else { return }
                            let fx = Double(gxp[i]), fy = Double(gyp[i])
                            let dot = fx * n.x + fy * n.y
                            guard dot > 0, dot * dot >= 0.75 * (fx * fx + fy * fy) else { return }
                            probe[slot] = m
                            if m > bestM {
                                bestM = m
                                bestK = Double(slot - 2)
                            }
                        }
                        test(0, i0, m0)
                        test(1, i1, m1)
                        test(2, i2, m2)
                        test(3, i3, m3)
                        test(4, i4, m4)
                    }
                } else {
                    let expected = fit.a + fit.b * t
                    for k in -2...2 {
                        let offset = Double(k)
                        let v = abs(offset - expected) > 1.01 ? 0 : probe[k + 2]
                        let better = v > bestM
                        bestM = better ? v : bestM
                        bestK = better ? offset : bestK
                    }
                }
                if bestM > 0 {
                    count += 1
                    let weight = Double(bestM)
                    sw += weight; st += weight * t; sk += weight * bestK
                    stt += weight * t * t; stk += weight * t * bestK
                }
                if pass == 0 {
                    if bestM > 0 {
                        times[kept] = t
                        kept += 1
                    }
                    t += 3
                    sample = kept
                } else {
                    sample += 1
                }
            }
            if pass == 0 && count < 4 {
                lines[index].unsupported = true
                break
            }
            let denominator = sw * stt - st * st
            guard sw > 0, abs(denominator) > 1e-9 else { break }
            let b = (sw * stk - st * sk) / denominator
            let a = (sk - b * st) / sw
            guard abs(b) < 0.05, abs(a) < 2.5 else { break }
            fit = (a, b)
        }
        guard fit.a != 0 || fit.b != 0 else { return }
        // The fitted line: through origin + n·a, direction d + n·b.
        let direction = d + n * fit.b
        let length = (direction * direction).sum().squareRoot()
        let normal = SIMD2(direction.y, -direction.x) / length
        lines[index] = Line(normal: normal, rho: ((origin + n * fit.a) * normal).sum())
    }

    /// The candidate lines and their profiles, as plain values for the quad search's inner loops (reading the
    /// finder's stored properties there would pay an exclusivity check on every access).
    struct LineTable {
        let lines: [Line]
        let ranges: [(lo: Int, hi: Int)]
        let profiles: UnsafeMutablePointer<Profile>
        let stride: Int
        let origin: Int
        /// Fills the profiles' stripe lane on first use; nil when stripe fields are not discounted (the lane reads 0).
        let stripes: StripeLane?

        /// `Int(x.rounded(.up))` and `Int(x.rounded(.down))` for finite x well inside Int's range, without a call
        /// into libm (the baseline x86-64 target has no rounding instruction).
        @inline(__always)
        static func ceiling(_ x: Double) -> Int {
            let i = Int(x)
            return Double(i) < x ? i + 1 : i
        }

        @inline(__always)
        static func floor(_ x: Double) -> Int {
            let i = Int(x)
            return Double(i) > x ? i - 1 : i
        }

        /// Sums over the segment of line `index` between t0 and t1 (either order), clipped to its sampled part.
        @inline(__always)
        func segment(_ index: Int, _ t0: Double, _ t1: Double) -> Profile {
            let range = ranges[index]
            let lo = max(range.lo, Self.ceiling(min(t0, t1)))
            let hi = min(range.hi, Self.floor(max(t0, t1)))
            guard lo <= hi else { return Profile(repeating: 0) }
            let row = profiles + index * stride
            return row[hi + 1 + origin] - row[lo + origin]
        }

        /// The samples over the segment of line `index` between t0 and t1 whose edge lies in a field of stripes
        /// (`StripeField`; lane 7 of the profile, filled for the line on first use).
        @inline(__always)
        func striped(_ index: Int, _ t0: Double, _ t1: Double) -> Float {
            guard let stripes else { return 0 }
            if !stripes.filled[index] {
                stripes.fill(profiles + index * stride, origin: origin, line: lines[index], range: ranges[index])
                stripes.filled[index] = true
            }
            return segment(index, t0, t1)[7]
        }

        /// The share of `supported` edge samples over that segment that lie outside fields of stripes (1 when there
        /// are none).
        @inline(__always)
        func unstripedShare(_ index: Int, _ t0: Double, _ t1: Double, of supported: Float) -> Double {
            supported > 0 ? Double(max(0, 1 - striped(index, t0, t1) / supported)) : 1
        }

        /// Over the segment of line `index` from t0 to t1, judged by quarters, when its edge changes polarity at
        /// most once from quarter to quarter: the samples with an edge of each quarter's stronger polarity, the
        /// gradient step signed by it, and the polarities of the quarters at t0 and at t1 (see `evaluate`). Nil
        /// when the polarity changes more often, or changes where a quarter carries its polarity's edge along less
        /// than `minFlippingQuarter` of it (an edge that flips polarity is still one edge all along).
        @inline(__always)
        func quarterSupport(_ index: Int, _ t0: Double, _ t1: Double)
            -> (supported: Float, strength: Float, first: Float, last: Float)? {
            let range = ranges[index]
            let lo = max(range.lo, Self.ceiling(min(t0, t1)))
            let hi = min(range.hi, Self.floor(max(t0, t1)))
            guard lo <= hi else { return nil }
            let row = profiles + index * stride + origin
            let n = hi - lo + 1
            var supported: Float = 0, strength: Float = 0, low: Float = 0, high: Float = 0, changes = 0
            var continuous = true
            var start = lo
            for q in 1...4 {
                let end = lo + n * q / 4
                guard end > start else { continue }
                let p = row[end] - row[start]
                let sign: Float = p[4] >= 0 ? 1 : -1
                supported += (p[1] + sign * p[4]) / 2
                strength += sign * p[5]
                if p[0] > 0 && (p[1] + sign * p[4]) / 2 < DocumentFinder.minFlippingQuarter * p[0] {
                    continuous = false
                }
                if low == 0 { low = sign }
                if high != 0 && high != sign { changes += 1 }
                high = sign
                start = end
            }
            guard changes == 0 || (changes == 1 && continuous) else { return nil }
            return t1 >= t0 ? (supported, strength, low, high) : (supported, strength, high, low)
        }
    }

    /// A line's direction in whole degrees, 0..<180 (its normal's angle, rounded), and the 30° sector (0...5) the line
    /// budget counts it in (`readLines`; `passedOver` replays it).
    static func degrees(of line: Line) -> Int {
        (Int((atan2(line.normal.y, line.normal.x) * 180 / .pi).rounded()) + 360) % 180
    }
    static func sector(of line: Line) -> Int { degrees(of: line) / 30 }

    /// Refits the candidate lines, reads them into profiles and keeps those that look like an outline: a step
    /// between two regions along the supported part (a text line, a painted stripe or a joint has the same
    /// brightness on both sides), strongest first, at most `perSector` per 30° of direction and `budget` in all; the
    /// frame borders always. A line is refitted and read only while it could still be kept (in order, each line's
    /// fate depends only on the lines before it), so the weakest candidates of a busy frame cost nothing. Called
    /// again with a larger budget (the second pass), it reuses what it has read.
    func readLines(_ image: GrayImage, budget: Int, perSector sectorBudget: Int, fresh: Bool) {
        let w = image.width, h = image.height
        let half = Int((Double(w * w + h * h)).squareRoot()) + 4
        if fresh {
            profileOrigin = half
            profileStride = 2 * half + 2
            let needed = (lines.count + Self.maxAddedLines) * profileStride
            if needed > profiles.count {
                profiles.deallocate()
                profiles = .allocate(capacity: needed)
            }
            sampledRange.removeAll(keepingCapacity: true)
            sampledRange.append(contentsOf: repeatElement((lo: 0, hi: -1), count: lines.count))
            refitted.removeAll(keepingCapacity: true)
            refitted.append(contentsOf: repeatElement(false, count: lines.count))
            profiled.removeAll(keepingCapacity: true)
            profiled.append(contentsOf: repeatElement(false, count: lines.count))
            if lines.count + Self.maxAddedLines > lineSupports.count {
                lineSupports.deallocate()
                eitherPolaritySupports.deallocate()
                stripeLaneFilled.deallocate()
                lineSupports = .allocate(capacity: lines.count + Self.maxAddedLines)
                eitherPolaritySupports = .allocate(capacity: lines.count + Self.maxAddedLines)
                stripeLaneFilled = .allocate(capacity: lines.count + Self.maxAddedLines)
            }
        }
        active.removeAll(keepingCapacity: true)
        let lineSupport = lineSupports.baseAddress!
        for i in perSector.indices { perSector[i] = 0 }
        for index in lines.indices {
            if lines[index].border {
                active.append(index)
                continue
            }
            guard active.count < budget else { continue }
            // A refit turns a line by less than 3° (|slope| < 0.05), so a line whose vote angle lies 4° or more
            // inside a 30° sector stays in it: when that sector is already full, the line would be dropped after
            // its refit anyway, so it is not refitted.
            let voteDegrees = Self.degrees(of: lines[index])
            if voteDegrees % 30 >= 4 && voteDegrees % 30 <= 26 && perSector[voteDegrees / 30] >= sectorBudget {
                continue
            }
            if !refitted[index] {
                refitLine(index, width: w, height: h, half: half)
                refitted[index] = true
            }
            let line = lines[index]
            let sector = Self.sector(of: line)
            guard !line.unsupported, perSector[sector] < sectorBudget else { continue }
            if !profiled[index] {
                sampledRange[index] = profileLine(index, image, half: half)
                profiled[index] = true
            }
            guard let support = outlineSupport(index) else { continue }
            perSector[sector] += 1
            active.append(index)
            lineSupport[index] = support
        }
    }

    /// For a profiled line that can be part of an outline (enough edge samples, and a brightness step across it
    /// for enough of them; lenient, because most of a line through a small card crosses the background): the
    /// samples of its stronger polarity over its whole length (see `evidenceBound`). Nil for any other line.
    func outlineSupport(_ index: Int) -> Double? {
        let range = sampledRange[index]
        guard range.lo <= range.hi else { return nil }
        let row = profiles.baseAddress! + index * profileStride
        let sums = row[range.hi + 1 + profileOrigin] - row[range.lo + profileOrigin]
        guard sums[1] >= 6, Double(sums[2]) >= 0.27 * Double(sums[3]) else { return nil }
        return Double(max(sums[1] + sums[4], sums[1] - sums[4]) / 2)
    }

    /// Appends `candidate` (coarse pixels) to the lines, refitted (not read); returns its index, or nil (and appends
    /// nothing) when there is no room or the refit finds it unsupported.
    private func appendRefitted(_ candidate: Line, width w: Int, height h: Int, half: Int) -> Int? {
        guard lines.count < refittedCapacity else { return nil }
        let index = lines.count
        lines.append(candidate)
        sampledRange.append((lo: 0, hi: -1))
        refitted.append(true)
        profiled.append(false)
        refitLine(index, width: w, height: h, half: half)
        guard !lines[index].unsupported else {
            dropLastLine()
            return nil
        }
        return index
    }

    /// Adds `candidate` (coarse pixels) to the lines, refitted and read, but not to the active lines (see
    /// `completeBand`, the last step of `find`: no search reads the lines after it, and the next frame's vote starts
    /// them again); returns its index, or nil when there is no room or the refit finds it unsupported.
    func readExtraLine(_ candidate: Line, _ image: GrayImage) -> Int? {
        let half = Int((Double(image.width * image.width + image.height * image.height)).squareRoot()) + 4
        guard let index = appendRefitted(candidate, width: image.width, height: image.height, half: half) else {
            return nil
        }
        sampledRange[index] = profileLine(index, image, half: half)
        profiled[index] = true
        return index
    }

    /// Removes the last line (one `appendRefitted` added).
    func dropLastLine() {
        lines.removeLast(); sampledRange.removeLast(); refitted.removeLast(); profiled.removeLast()
    }

    /// Adds `line` (coarse pixels) to the active lines, refitted and read, when the search does not have it yet and
    /// it passes `readLines`'s outline test; returns whether it was added.
    func adopt(_ candidate: Line, _ image: GrayImage) -> Bool {
        let w = image.width, h = image.height
        let half = Int((Double(w * w + h * h)).squareRoot()) + 4
        let separation = Self.sameLineOffset(shortSide: min(w, h))
        guard active.count < 64 else { return false }
        if active.contains(where: { Self.similar(lines[$0], candidate, cosine: Self.sameLineCosine, offset: separation) }) {
            return false
        }
        guard let index = appendRefitted(candidate, width: w, height: h, half: half) else { return false }
        let line = lines[index]
        var keep = !active.contains(where: { Self.similar(lines[$0], line, cosine: Self.sameLineCosine,
                                                          offset: separation) })
        if keep {
            sampledRange[index] = profileLine(index, image, half: half)
            profiled[index] = true
            if let support = outlineSupport(index) { lineSupports[index] = support } else { keep = false }
        }
        guard keep else {
            dropLastLine()
            return false
        }
        active.append(index)
        return true
    }

    /// Whether `quad` rests on exactly one line the fourth-side search found (index `first` on), with both ends of
    /// that side inside the frame: the search completes three sides the frame-wide vote found, and only with a side
    /// it can see (where a card's outline leaves the frame, the line across it may be its print).
    func completesThreeSides(_ quad: RankedQuad, searchedFrom first: Int, width w: Int, height h: Int) -> Bool {
        let corners = [quad.corners.0, quad.corners.1, quad.corners.2, quad.corners.3]
        var searched = 0
        for s in 0..<4 where quad.sides[s] >= first {
            searched += 1
            for p in [corners[s], corners[(s + 1) & 3]]
            where p.x < 0 || p.y < 0 || p.x > Double(w - 1) || p.y > Double(h - 1) {
                return false
            }
        }
        return searched == 1
    }

    /// How many sides of `quad` have an edge that changes polarity (once) along them.
    func flippingSideCount(_ quad: RankedQuad) -> Int {
        let table = lineTable
        let corners = [quad.corners.0, quad.corners.1, quad.corners.2, quad.corners.3]
        var count = 0
        for s in 0..<4 where !lines[quad.sides[s]].border {
            let normal = lines[quad.sides[s]].normal, d = SIMD2(-normal.y, normal.x)
            if let q = table.quarterSupport(quad.sides[s], (corners[s] * d).sum(), (corners[(s + 1) & 3] * d).sum()),
               q.first != q.last {
                count += 1
            }
        }
        return count
    }

    /// The quad search's per-line bound on a side's supported samples (see `sideCanBeSupported`), for the active
    /// lines: their samples of their stronger polarity (`lineSupports`), or with `quarters` (each quarter of a side
    /// at its own polarity) their samples with an edge of either polarity, computed into `eitherPolaritySupports`.
    func supportBound(quarters: Bool) -> UnsafeMutablePointer<Double> {
        guard quarters else { return lineSupports.baseAddress! }
        for index in active where !lines[index].border {
            let range = sampledRange[index]
            guard range.lo <= range.hi else {
                eitherPolaritySupports[index] = lineSupports[index]
                continue
            }
            let row = profiles.baseAddress! + index * profileStride
            let sums = row[range.hi + 1 + profileOrigin] - row[range.lo + profileOrigin]
            eitherPolaritySupports[index] = Double(sums[1])
        }
        return eitherPolaritySupports.baseAddress!
    }

    /// Lines `profiles` and `lineSupports` (and `eitherPolaritySupports`) have room for.
    var refittedCapacity: Int { min(profiles.count / max(1, profileStride), lineSupports.count) }

    /// Looks for a card's fourth side where three are among the active lines: two opposite lines and one across both,
    /// each with an edge of one polarity along most of the card's outline (from the crossings), the fourth side then
    /// crossing the same two lines, roughly parallel to the third, on the side where their edges run, at a distance
    /// a card's aspect allows (see `BandLineSearch`). Adds the lines found to the active lines; returns whether any
    /// was added. `sharingTwoSidesOf` (a winner's sides): only seeds with two of their three lines among them, and
    /// only the best `aroundWeakWinnerSeeds` of those (the search for a card around its part).
    func addFourthSides(_ image: GrayImage, sharingTwoSidesOf shared: SIMD4<Int>? = nil) -> Bool {
        let w = image.width, h = image.height
        let table = lineTable
        let lines = table.lines
        let minSide = 0.08 * Double(min(w, h))
        @inline(__always) func insideFrame(_ p: SIMD2<Double>) -> Bool {
            p.x >= 2 && p.y >= 2 && p.x <= Double(w - 3) && p.y <= Double(h - 3)
        }
        // The share of the segment from a to b on line `index` with an edge of its stronger polarity.
        func support(_ index: Int, _ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
            let line = lines[index]
            let d = SIMD2(-line.normal.y, line.normal.x)
            let sums = table.segment(index, (a * d).sum(), (b * d).sum())
            guard sums[0] >= 6 else { return 0 }
            return Double(max(sums[1] + sums[4], sums[1] - sums[4]) / 2) / Double(sums[0])
        }
        // (The lists are the finder's, taken out emptied and put back: no allocation once they have grown.)
        var seeds = keptSeeds.takenEmptied(), candidates = keptSeedLines.takenEmptied()
        var chosen = keptChosenSeeds.takenEmptied(), cleanest = keptCleanestSeeds.takenEmptied()
        defer {
            keptSeeds = seeds
            keptSeedLines = candidates
            keptChosenSeeds = chosen
            keptCleanestSeeds = cleanest
        }
        for index in active where !lines[index].border { candidates.append(index) }
        for (position, i) in candidates.enumerated() {
            for j in candidates[(position + 1)...] {
                guard abs((lines[i].normal * lines[j].normal).sum()) >= Self.minOppositeCosine else { continue }
                if let x = Self.intersect(lines[i], lines[j]), insideFrame(x) { continue }
                for k in candidates where k != i && k != j {
                    guard abs((lines[k].normal * lines[i].normal).sum()) <= 0.87,
                          abs((lines[k].normal * lines[j].normal).sum()) <= 0.87,
                          let ci = Self.intersect(lines[k], lines[i]), let cj = Self.intersect(lines[k], lines[j]),
                          insideFrame(ci), insideFrame(cj) else { continue }
                    if let shared {
                        @inline(__always) func isShared(_ x: Int) -> Int {
                            shared[0] == x || shared[1] == x || shared[2] == x || shared[3] == x ? 1 : 0
                        }
                        guard isShared(i) + isShared(j) + isShared(k) >= 2 else { continue }
                    }
                    let span = ((ci - cj) * (ci - cj)).sum().squareRoot()
                    guard span >= minSide else { continue }
                    let third = support(k, ci, cj)
                    guard third >= Self.minSeedSupport else { continue }
                    // Along each opposite line, away from the third side, on either side of it.
                    for side in [1.0, -1.0] {
                        var di = SIMD2(-lines[i].normal.y, lines[i].normal.x)
                        var dj = SIMD2(-lines[j].normal.y, lines[j].normal.x)
                        if (di * lines[k].normal).sum() * side < 0 { di = -di }
                        if (dj * lines[k].normal).sum() * side < 0 { dj = -dj }
                        let reach = max(minSide, 0.4 * span)
                        guard insideFrame(ci + di * reach), insideFrame(cj + dj * reach) else { continue }
                        let first = support(i, ci + di * 2, ci + di * reach)
                        let second = support(j, cj + dj * 2, cj + dj * reach)
                        let score = min(third, min(first, second))
                        guard score >= Self.minSeedSupport else { continue }
                        seeds.append((score * span, k, (ci, cj), (di, dj), span))
                    }
                }
            }
        }
        guard !seeds.isEmpty else { return false }
        seeds.sort { $0.score > $1.score }
        // The best seeds by support and span (a large card's sides first), then the best by support alone not yet
        // among them (a small card's sides are short, but as clean). The same three sides found through slightly
        // different lines are one seed.
        chosen.append(contentsOf: seeds.prefix(shared == nil ? Self.fourthSideSeeds : Self.aroundWeakWinnerSeeds))
        let sameOutline = 0.04 * Double(min(w, h))
        @inline(__always) func close(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Bool {
            ((a - b) * (a - b)).sum() <= sameOutline * sameOutline
        }
        if shared == nil { cleanest.append(contentsOf: seeds) }
        cleanest.sort { $0.score / $0.span > $1.score / $1.span }
        var extra = 0
        for seed in cleanest where extra < Self.cleanestSeeds {
            let known = chosen.contains { other in
                let sameEnds = (close(seed.from.0, other.from.0) && close(seed.from.1, other.from.1))
                    || (close(seed.from.0, other.from.1) && close(seed.from.1, other.from.0))
                return sameEnds && ((seed.along.0 + seed.along.1) * (other.along.0 + other.along.1)).sum() > 0
            }
            if !known {
                chosen.append(seed)
                extra += 1
            }
        }
        var added = false
        for seed in chosen {
            let (ci, cj) = seed.from, (di, dj) = seed.along
            // From a square-ish card seen at a slant to an ID-1 card's long side seen along it.
            let near = max(minSide, 0.4 * seed.span), far = 2.3 * seed.span
            bandSearch.search(coarseGradients, width: w, height: h,
                              band: (ci + di * near, cj + dj * near, cj + dj * far, ci + di * far),
                              reference: lines[seed.third].normal, count: Self.bandLines)
            for found in bandSearch.found where adopt(Line(normal: found.normal, rho: found.rho), image) {
                added = true
            }
        }
        return added
    }

    /// Refits and profiles the candidate lines `readLines` left unread for which `wanted` (given the line as the vote
    /// found it, or as refitted if it was) is true (never the frame borders; nor, after the refit, the lines it finds
    /// unsupported): as if those lines had been read.
    func readRemainingLines(_ image: GrayImage, where wanted: (Line) -> Bool) {
        let w = image.width, h = image.height
        let half = Int((Double(w * w + h * h)).squareRoot()) + 4
        for index in lines.indices where !lines[index].border && (profiled[index] || wanted(lines[index])) {
            if !refitted[index] {
                refitLine(index, width: w, height: h, half: half)
                refitted[index] = true
            }
            if !lines[index].unsupported && !profiled[index] {
                sampledRange[index] = profileLine(index, image, half: half)
                profiled[index] = true
            }
        }
    }
}
