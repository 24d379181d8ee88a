// Exposure, sharpness and glare, measured inside a region of the working image in tight loops over reusable
// buffers (no allocation once the buffers have grown to the working size).

/// Per-row column spans [lo, hi) of the measured region, reused between frames.
final class RegionSpans {
    private(set) var lo: UnsafeMutableBufferPointer<Int32> = .allocate(capacity: 1)
    private(set) var hi: UnsafeMutableBufferPointer<Int32> = .allocate(capacity: 1)
    private(set) var rows = 0
    private(set) var pixelCount = 0

    deinit {
        lo.deallocate()
        hi.deallocate()
    }

    /// The whole image, or the part of it inside `quad`, shrunk by `inset` pixels at the left and right.
    func set(for image: GrayImage, quad: Quadrilateral?, inset: Int = 0) {
        if image.height > lo.count {
            lo.deallocate()
            hi.deallocate()
            lo = .allocate(capacity: image.height)
            hi = .allocate(capacity: image.height)
        }
        rows = image.height
        pixelCount = 0
        for y in 0..<image.height {
            var span: (lo: Int, hi: Int) = quad?.span(row: y, width: image.width) ?? (lo: 0, hi: image.width)
            span.lo += inset
            span.hi -= inset
            if span.hi <= span.lo { span = (lo: 0, hi: 0) }
            lo[y] = Int32(span.lo)
            hi[y] = Int32(span.hi)
            pixelCount += span.hi - span.lo
        }
    }
}

/// Sharpness in each direction: how steep edges are relative to the step they make (0 = wide blur, 1 = crisp).
struct SharpnessMeasurement {
    var horizontal: Double, vertical: Double, diagonal: Double, antidiagonal: Double
    /// The weakest of the four directions: motion smears edges across its own direction, and one of the four
    /// sampled directions is always within 22.5° of it, so motion at any angle shows (not only along the axes).
    var overall: Double { min(min(horizontal, vertical), min(diagonal, antidiagonal)) }
    /// Weaker / stronger of two perpendicular directions (the axis pair or the diagonal pair, whichever differs
    /// more): near 1 for defocus, small for motion blur. Diagonal steps span √2 more pixels, so only perpendicular
    /// directions of the same kind are compared.
    var anisotropy: Double {
        func ratio(_ a: Double, _ b: Double) -> Double { max(a, b) > 0 ? min(a, b) / max(a, b) : 1 }
        return min(ratio(horizontal, vertical), ratio(diagonal, antidiagonal))
    }
}

enum FrameMeasurements {
    /// Mean and standard deviation of luma over the spans, reading every `step`-th row and column (a mean over
    /// tens of thousands of pixels does not need all of them).
    static func exposure(_ image: GrayImage, spans: RegionSpans, step: Int = 1) -> (mean: Double, stddev: Double) {
        var sum = 0, sumSquares = 0, count = 0
        let base = image.base, w = image.width
        var y = 0
        while y < spans.rows {
            defer { y += step }
            var lo = Int(spans.lo[y])
            let hi = Int(spans.hi[y])
            guard lo < hi else { continue }
            lo = (lo + step - 1) / step * step
            let row = base + y * w
            var s = 0, ss = 0, x = lo
            if step == 2 {
                // 16 samples at a time (integer sums: the same totals as the loop below). The samples are bytes 0
                // and 2 of each little-endian 32-bit word (no out-of-line vector conversion).
                var vs = SIMD8<UInt32>(repeating: 0), vss = SIMD8<UInt32>(repeating: 0)
                let low = SIMD8<UInt32>(repeating: 0xff)
                while x + 31 < hi {
                    let words = UnsafeRawPointer(row + x).loadUnaligned(as: SIMD8<UInt32>.self)
                    let v0 = words & low, v2 = (words &>> 16) & low
                    vs &+= v0 &+ v2
                    vss &+= v0 &* v0 &+ v2 &* v2
                    x += 32
                    count += 16
                }
                s = Int(vs.wrappedSum())
                ss = Int(vss.wrappedSum())
            }
            while x < hi {
                let v = Int(row[x])
                s &+= v
                ss &+= v &* v
                x += step
                count += 1
            }
            sum &+= s
            sumSquares &+= ss
        }
        guard count > 0 else { return (0, 0) }
        let mean = Double(sum) / Double(count)
        let variance = max(0, Double(sumSquares) / Double(count) - mean * mean)
        return (mean, variance.squareRoot())
    }

    /// The fine rise I(p + d) − I(p − d) at `p` along `d` when it is at least `floor` and `p` is the steepest point
    /// of its edge profile (neither half-step beside it is larger); nil otherwise. Both sharpness measures (this
    /// file's and `CardSharpness`) start from it.
    @inline(__always)
    static func steepestRise(_ p: UnsafeMutablePointer<UInt8>, _ d: Int, floor: Int) -> Int? {
        let f = Int(p[d]) - Int(p[-d])
        let af = abs(f)
        if af < floor { return nil }
        if af < abs(Int(p[2 * d]) - Int(p[0])) || af < abs(Int(p[0]) - Int(p[-2 * d])) { return nil }
        return f
    }

    /// Edge steepness per direction. At each edge pixel (|fine difference| a local maximum above a noise floor) the
    /// fine difference I(p+d) − I(p−d) is compared with the step across the edge I(p+3d) − I(p−3d): for a crisp edge
    /// they are equal, for a Gaussian blur of σ pixels the ratio falls towards 1/3. Edges are weighted by strength so
    /// that sensor noise (weak, isolated differences) cannot make a blurred frame look sharp. Every `rowStep`-th row
    /// and `columnStep`-th column is read (all four directions in one pass; each sampled pixel still judged against
    /// its full neighbourhood): the estimate is a ratio over thousands of edge pixels. An edge with either end of its
    /// step at `clippedLuma` or above is left out (by default none is).
    static func sharpness(_ image: GrayImage, spans: RegionSpans, rowStep: Int = 2,
                          columnStep: Int = 1, clippedLuma: Int = 256) -> SharpnessMeasurement {
        let w = image.width, h = image.height
        guard w > 8, h > 8 else { return SharpnessMeasurement(horizontal: 0, vertical: 0, diagonal: 0, antidiagonal: 0) }
        var num = SIMD4<Int>(repeating: 0), den = SIMD4<Int>(repeating: 0)
        let floor = 20
        @inline(__always) func edge(_ p: UnsafeMutablePointer<UInt8>, _ d: Int, _ k: Int) {
            guard let f = steepestRise(p, d, floor: floor) else { return }
            let af = abs(f)
            let ahead = Int(p[3 * d]), behind = Int(p[-3 * d])
            if ahead >= clippedLuma || behind >= clippedLuma { return }
            let c = abs(ahead - behind)
            num[k] &+= af &* af
            den[k] &+= af &* max(c, af)
        }
        forEachBusyPixel(image, spans: spans, margin: 4, rowStep: rowStep, columnStep: columnStep,
                         flatWithin: floor / 2) { p in
            edge(p, 1, 0)
            edge(p, w, 1)
            edge(p, w + 1, 2)
            edge(p, w - 1, 3)
        }
        func normalised(_ k: Int) -> Double {
            guard den[k] > 0 else { return 0 }
            let ratio = Double(num[k]) / Double(den[k])
            return max(0, min(1, (ratio - 1.0 / 3.0) * 1.5))
        }
        return SharpnessMeasurement(horizontal: normalised(0), vertical: normalised(1), diagonal: normalised(2),
                                    antidiagonal: normalised(3))
    }
}

extension FrameMeasurements {
    /// Calls `visit` on every sampled pixel inside `spans` that is not flat (`isFlat` with `limit`): every
    /// `rowStep`-th row and `columnStep`-th column, at least `margin` pixels from the image's edges. The sparse walk
    /// both sharpness measures share; with `columnStep` 2 the flat test runs on 16 samples at a time (SIMD) and
    /// `visit` sees the same pixels, in the same order, as the scalar walk would.
    @inline(__always)
    static func forEachBusyPixel(_ image: GrayImage, spans: RegionSpans, margin: Int, rowStep: Int, columnStep: Int,
                                 flatWithin limit: Int, _ visit: (UnsafeMutablePointer<UInt8>) -> Void) {
        let w = image.width, h = image.height, base = image.base
        var y = margin
        while y < h - margin {
            let lo = max(margin, Int(spans.lo[y])), hi = min(w - margin, Int(spans.hi[y]))
            if lo < hi {
                let row = base + y * w
                var x0 = lo
                if columnStep == 2 {
                    // 16 sampled pixels at a time: the flat test (all 8 neighbours within `limit` of the pixel)
                    // as the range of the neighbourhood, then the scalar measure on the few pixels that are not flat.
                    let half = SIMD16<Int16>(repeating: Int16(limit))
                    // The bytes at q, q + 2, … q + 30 as 16-bit lanes: the low byte of each little-endian 16-bit
                    // word. (The generic vector conversions and min/max are out-of-line calls; these are not.)
                    let lowBytes = SIMD16<Int16>(repeating: 0xff)
                    let laneBits = SIMD16<Int16>(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384,
                                                 Int16.min)
                    @inline(__always) func even(_ q: UnsafeMutablePointer<UInt8>) -> SIMD16<Int16> {
                        UnsafeRawPointer(q).loadUnaligned(as: SIMD16<Int16>.self) & lowBytes
                    }
                    @inline(__always) func maximum(_ a: SIMD16<Int16>, _ b: SIMD16<Int16>) -> SIMD16<Int16> {
                        a.replacing(with: b, where: b .> a)
                    }
                    @inline(__always) func minimum(_ a: SIMD16<Int16>, _ b: SIMD16<Int16>) -> SIMD16<Int16> {
                        a.replacing(with: b, where: b .< a)
                    }
                    while x0 + 30 < hi {
                        let p = row + x0
                        let c = even(p)
                        let n0 = even(p - 1), n1 = even(p + 1), n2 = even(p - w), n3 = even(p + w)
                        let n4 = even(p + w + 1), n5 = even(p - w - 1), n6 = even(p + w - 1), n7 = even(p + 1 - w)
                        let high = maximum(maximum(maximum(n0, n1), maximum(n2, n3)),
                                           maximum(maximum(n4, n5), maximum(n6, n7)))
                        let low = minimum(minimum(minimum(n0, n1), minimum(n2, n3)),
                                          minimum(minimum(n4, n5), minimum(n6, n7)))
                        let busy = (high &- c .>= half) .| (c &- low .>= half)
                        // The busy lanes as one bit set (lowest lane first): no branch per lane.
                        var lanes = laneBits.replacing(with: 0, where: .!busy).wrappedSum()
                        while lanes != 0 {
                            let lane = lanes.trailingZeroBitCount
                            lanes &= lanes &- 1
                            visit(p + 2 * lane)
                        }
                        x0 += 32
                    }
                }
                for x in stride(from: x0, to: hi, by: columnStep) {
                    let p = row + x
                    // Flat pixels (most of them) have no fine difference above the floor in any direction.
                    if isFlat(p, rowStride: w, within: limit) { continue }
                    visit(p)
                }
            }
            y += rowStep
        }
    }

    /// Whether all 8 neighbours of `p` are within `limit` (exclusive) of it: a flat pixel has no fine difference above
    /// the sharpness measures' noise floor in any direction, and most pixels are flat, so both measures skip them first.
    @inline(__always)
    static func isFlat(_ p: UnsafeMutablePointer<UInt8>, rowStride w: Int, within limit: Int) -> Bool {
        let c = Int(p[0])
        return abs(Int(p[1]) - c) < limit && abs(Int(p[-1]) - c) < limit
            && abs(Int(p[w]) - c) < limit && abs(Int(p[-w]) - c) < limit
            && abs(Int(p[w + 1]) - c) < limit && abs(Int(p[-w - 1]) - c) < limit
            && abs(Int(p[w - 1]) - c) < limit && abs(Int(p[1 - w]) - c) < limit
    }
}

/// Saturated pixels inside the region and the largest 4-connected saturated blob, on a grid of every `step`-th
/// pixel (glare is judged as a share of the document's area, which a regular sample measures as well), with
/// reusable buffers.
final class GlareMeasurement {
    private var visited: UnsafeMutableBufferPointer<UInt8> = .allocate(capacity: 1)
    private var stack: UnsafeMutableBufferPointer<Int32> = .allocate(capacity: 1)
    /// Per grid row, whether it has a saturated sample.
    private var rowFlags: UnsafeMutableBufferPointer<UInt8> = .allocate(capacity: 1)

    deinit {
        visited.deallocate()
        stack.deallocate()
        rowFlags.deallocate()
    }

    /// (saturated samples, samples in the largest blob, samples in the region) inside the spans.
    func measure(_ image: GrayImage, spans: RegionSpans, luma: UInt8,
                 step: Int = 1) -> (saturated: Int, largestBlob: Int, sampled: Int) {
        let w = image.width, h = image.height
        let gw = (w + step - 1) / step, gh = (h + step - 1) / step, n = gw * gh
        if n > visited.count {
            visited.deallocate()
            stack.deallocate()
            visited = .allocate(capacity: n)
            stack = .allocate(capacity: n)
        }
        if gh > rowFlags.count {
            rowFlags.deallocate()
            rowFlags = .allocate(capacity: gh)
        }
        let base = image.base, seen = visited.baseAddress!, todo = stack.baseAddress!
        let saturatedRows = rowFlags.baseAddress!
        var saturated = 0, sampled = 0
        for gy in 0..<gh {
            let y = gy * step
            let lo = (Int(spans.lo[y]) + step - 1) / step, hi = (Int(spans.hi[y]) + step - 1) / step
            saturatedRows[gy] = 0
            guard lo < hi else { continue }
            let row = base + y * w
            var count = 0, gx0 = lo
            if step == 2 {
                // 16 samples at a time: the low bytes of 16 little-endian 16-bit words (no out-of-line vector
                // conversion), compared as 16-bit lanes.
                let limit = SIMD16<Int16>(repeating: Int16(luma)), one = SIMD16<Int16>(repeating: 1)
                let low = SIMD16<Int16>(repeating: 0xff)
                var counts = SIMD16<Int16>(repeating: 0), chunks = 0
                while gx0 + 16 <= hi && 2 * gx0 + 31 < w {
                    let v = UnsafeRawPointer(row + 2 * gx0).loadUnaligned(as: SIMD16<Int16>.self) & low
                    counts &+= SIMD16<Int16>(repeating: 0).replacing(with: one, where: v .>= limit)
                    gx0 += 16
                    chunks += 1
                    // (The 16 lanes' sum stays within Int16 while each lane counts at most 2047.)
                    if chunks == 2047 {
                        count += Int(counts.wrappedSum())
                        counts = SIMD16<Int16>(repeating: 0)
                        chunks = 0
                    }
                }
                count += Int(counts.wrappedSum())
            }
            for gx in gx0..<hi where row[gx * step] >= luma { count += 1 }
            saturatedRows[gy] = count > 0 ? 1 : 0
            saturated += count
            sampled += hi - lo
        }
        guard saturated > 0 else { return (0, 0, sampled) }
        seen.update(repeating: 0, count: n)
        @inline(__always) func inside(_ gx: Int, _ gy: Int) -> Bool {
            let x = gx * step, y = gy * step
            return x >= Int(spans.lo[y]) && x < Int(spans.hi[y]) && base[y * w + x] >= luma
        }
        var largest = 0
        for gy in 0..<gh {
            let y = gy * step
            let lo = (Int(spans.lo[y]) + step - 1) / step, hi = (Int(spans.hi[y]) + step - 1) / step
            // (A row without a saturated sample starts no blob.)
            guard lo < hi, saturatedRows[gy] != 0 else { continue }
            for gx in lo..<hi where base[y * w + gx * step] >= luma && seen[gy * gw + gx] == 0 {
                var top = 0, size = 0
                seen[gy * gw + gx] = 1
                todo[top] = Int32(gy * gw + gx)
                top += 1
                while top > 0 {
                    top -= 1
                    let i = Int(todo[top]), px = i % gw, py = i / gw
                    size += 1
                    // Each cell is pushed once (marked when pushed), so the stack never exceeds n entries.
                    if px > 0, seen[i - 1] == 0, inside(px - 1, py) { seen[i - 1] = 1; todo[top] = Int32(i - 1); top += 1 }
                    if px < gw - 1, seen[i + 1] == 0, inside(px + 1, py) { seen[i + 1] = 1; todo[top] = Int32(i + 1); top += 1 }
                    if py > 0, seen[i - gw] == 0, inside(px, py - 1) { seen[i - gw] = 1; todo[top] = Int32(i - gw); top += 1 }
                    if py < gh - 1, seen[i + gw] == 0, inside(px, py + 1) { seen[i + gw] = 1; todo[top] = Int32(i + gw); top += 1 }
                }
                largest = max(largest, size)
            }
        }
        return (saturated, largest, sampled)
    }
}
