// How wide a card's own outline edge is spread across its sides: the edge-spread width a slanted-edge test reads.

/// The width of the ramp a card's outline edge makes, read across each side of its outline.
///
/// Why a second blur measure beside `CardSharpness`: that one judges the card's print, edge pixel by edge pixel, and
/// a card smeared along one direction keeps crisp print edges along the smear (text strokes, the photo's frame) that
/// can outweigh the smeared ones (camsim seed 27 `blurry_0011`: a card shaken over ~9 working px read 0.55, GOOD).
/// A card's outline is the one edge known to be a clean step (the card is cut, not printed), on four sides in two
/// directions, so it shows motion blur as a camera's edge-spread function does: motion smears the two sides across
/// the motion into ramps as wide as the smear, and leaves the two along it crisp. Defocus widens all four.
///
/// Per side, the median of `rowsPerSide` profiles across it (between 15 % and 85 % of its length, away from the
/// rounded corners; the median keeps a thumb over part of the side out), then the ramp around the profile's steepest
/// point within `peakReach` of the side, at the sign of the step from the background's level to the card's edge: as
/// far as the slope keeps that sign and at least `rampShare` of its peak. A printed band along the side (a header
/// band) starts with its own step, a flat run apart, so it does not widen the ramp; a soft shadow beside the card
/// rises too gently to count; a profile through a clipped reflection (glare, whose halo is a ramp) is left out. Both
/// sides of a pair must be wide where both can be read: a band or shadow along one side is not a smear, which always
/// widens two opposite sides alike.
/// The answer is the wider pair's narrower side, in pixels of the image measured; nil when no side has a profile
/// (sides at a frame border, too short, or outside the image). Allocation-free after `init`.
/// A pair with one side unreadable (no step across it: the card at its background's shade there, or a hand over
/// it) counts with its other side alone (`takesLoneSides`): until session 18 such a pair was skipped, and a card
/// shaken diagonally whose one smeared side read 11.5 px, its opposite side on a background of its own luma, was
/// judged on the other pair (2 px across its right side) and captured GOOD (camsim seed 34 `blurry_0001`). On
/// the thirteen document sets (1 900 frames, alone and as streams) that frame alone changed.
final class OutlineSmear {
    /// How far each profile reaches out and in from the side (image pixels), and its sample spacing.
    static let reach = 14.0
    static let step = 0.5
    static let rowsPerSide = 32
    /// A side needs profiles at this many of its rows (the others ran out of the image).
    static let minRows = 8
    /// The steepest point is looked for this close to the side (the refined outline lies on the edge).
    static let peakReach = 4.0
    /// The ramp runs on while the slope is at least this share of its peak.
    static let rampShare = 0.25
    /// A peak slope below this (luma levels per pixel) is no edge to measure.
    static let minPeakSlope: Float = 2
    /// The background's level is read over the profile's outer `levelReach` pixels, the card's edge over as many
    /// from `insideFrom` pixels inside the side; a difference below `minStep` levels is no step to measure.
    static let levelReach = 2.0
    static let insideFrom = 2.0
    static let minStep: Float = 8
    static let shortestSide = 24.0
    /// A profile that reaches this luma crosses a clipped reflection, whose halo is a soft ramp of its own: left out.
    static let clippedLuma = Float(CardSharpness.clippedLuma)

    static let offsets = Int((2 * reach / step).rounded()) + 1
    /// Profiles are stored `paddedOffsets` apart, so that their medians are taken `medianLanes` offsets at a time.
    static let medianLanes = 16
    static let paddedOffsets = (offsets + medianLanes - 1) / medianLanes * medianLanes

    /// The widest ramp (pixels of the frame as the camera delivered it) a sharp card's cut edge can make from the
    /// camera alone: its optics, demosaicing, sharpening and JPEG blocks spread a step over a few of the frame's own
    /// pixels at any resolution. A frame decoded smaller has that spread shrunk by the scale, and the bar of
    /// `maxOutlineSmear` (a share of the working image) lies well above it; a frame read at its own size, no
    /// larger than the working size (640 × 480, 480 × 360), keeps it whole, and there the share bar (4.5 px at 640,
    /// 3.4 at 480) lay within it: sharp cards of the small tuning sets read 3.5-4.5 px and were BLURRY.
    static let cameraEdgeSpread = 5.0

    /// The smear (share of the working image's long side) above which a card's outline is smeared: `maxShare`, but
    /// never under the camera's own edge spread. That spread, scaled with the frame to the working image, is the same
    /// share of its long side as of the input frame's (`inputLongSide` pixels), whatever the decode's scale.
    static func bar(maxShare: Double, inputLongSide: Double) -> Double {
        max(maxShare, cameraEdgeSpread / max(1, inputLongSide))
    }
    /// Whether a pair whose other side is unreadable counts with one side (see the type). Always on; tests turn it
    /// off to show the frames it decides.
    var takesLoneSides = true
    private let profiles: UnsafeMutableBufferPointer<Float>
    /// One group of `medianLanes` offsets of every profile, as `medians` sorts them.
    private let lanes: UnsafeMutableBufferPointer<SIMD16<Float>>
    private let median: UnsafeMutableBufferPointer<Float>
    private let slope: UnsafeMutableBufferPointer<Float>

    init() {
        profiles = .allocate(capacity: Self.rowsPerSide * Self.paddedOffsets)
        profiles.initialize(repeating: 0)
        lanes = .allocate(capacity: Self.rowsPerSide)
        lanes.initialize(repeating: .zero)
        median = .allocate(capacity: Self.offsets)
        slope = .allocate(capacity: Self.offsets)
    }

    deinit {
        profiles.deallocate()
        lanes.deallocate()
        median.deallocate()
        slope.deallocate()
    }

    /// The smear of the outline `corners` (in order around it, in `image` pixels), or nil (see the type).
    func measure(_ image: GrayImage, corners: QuadCorners) -> Double? {
        let centre = (corners[0] + corners[1] + corners[2] + corners[3]) / 4
        var widths = SIMD4<Double>(repeating: -1)
        for s in 0..<4 {
            if let width = sideWidth(image, from: corners[s], to: corners[(s + 1) & 3], centre: centre) {
                widths[s] = width
            }
        }
        var smear: Double?
        for s in 0..<2 {
            let a = widths[s], b = widths[s + 2]
            if a >= 0 && b >= 0 {
                smear = max(smear ?? 0, min(a, b))
            } else if takesLoneSides && max(a, b) >= 0 {
                smear = max(smear ?? 0, max(a, b))
            }
        }
        return smear
    }

    /// The ramp width across the side from `a` to `b` (see the type), or nil.
    func sideWidth(_ image: GrayImage, from a: SIMD2<Double>, to b: SIMD2<Double>, centre: SIMD2<Double>) -> Double? {
        let along = b - a
        let length = (along * along).sum().squareRoot()
        guard length >= Self.shortestSide else { return nil }
        let d = along / length
        var n = SIMD2(-d.y, d.x)
        if ((centre - a) * n).sum() < 0 { n = -n }
        let w = image.width, h = image.height, base = image.base
        let count = Self.offsets, reach = Self.reach, step = Self.step
        var rows = 0
        for r in 0..<Self.rowsPerSide {
            let t = length * (0.15 + 0.7 * Double(r) / Double(Self.rowsPerSide - 1))
            let p = a + d * t
            let first = p - n * reach, last = p + n * reach
            guard min(first.x, last.x) >= 1, min(first.y, last.y) >= 1, max(first.x, last.x) <= Double(w - 2),
                  max(first.y, last.y) <= Double(h - 2) else { continue }
            let row = profiles.baseAddress! + rows * Self.paddedOffsets
            var clipped = false
            for k in 0..<count {
                let q = first + n * (Double(k) * step)
                let value = GrayImage.bilinear(base, width: w, x: q.x, y: q.y)
                row[k] = value
                clipped = clipped || value >= Self.clippedLuma
            }
            if !clipped { rows += 1 }
        }
        guard rows >= Self.minRows else { return nil }
        Self.medians(of: profiles.baseAddress!, stride: Self.paddedOffsets, rows: rows, offsets: count,
                     lanes: lanes.baseAddress!, into: median.baseAddress!)
        // Central differences (one-sided at the ends), then a 3-tap box, as a slope per pixel.
        for k in 0..<count {
            let lo = max(0, k - 1), hi = min(count - 1, k + 1)
            slope[k] = (median[hi] - median[lo]) / Float(Double(hi - lo) * step)
        }
        var previous: Float = 0
        for k in 0..<count {
            let next = k + 1 < count ? slope[k + 1] : 0
            let current = slope[k]
            slope[k] = (previous + current + next) / 3
            previous = current
        }
        // The outline's step runs from the background's level to the card's edge: its sign is theirs, whatever
        // print lies just inside (a dark band's bright text has steeper slopes of the other sign).
        let centreIndex = count / 2, peakCells = Int(Self.peakReach / step)
        let outsideCells = Int(Self.levelReach / step), insideFrom = centreIndex + Int(Self.insideFrom / step)
        var outside: Float = 0, inside: Float = 0
        for k in 0..<outsideCells { outside += median[k] }
        for k in insideFrom..<(insideFrom + outsideCells) { inside += median[k] }
        let levels = (inside - outside) / Float(outsideCells)
        guard abs(levels) >= Self.minStep else { return nil }
        let sign: Float = levels > 0 ? 1 : -1
        var peak = centreIndex
        for k in (centreIndex - peakCells)...(centreIndex + peakCells) where sign * slope[k] > sign * slope[peak] {
            peak = k
        }
        let peakSlope = sign * slope[peak]
        guard peakSlope >= Self.minPeakSlope else { return nil }
        let floor = Float(Self.rampShare) * peakSlope
        var lo = peak, hi = peak
        while lo > 0 && sign * slope[lo - 1] >= floor { lo -= 1 }
        while hi < count - 1 && sign * slope[hi + 1] >= floor { hi += 1 }
        return Double(hi - lo) * step
    }

    /// Each offset's median over the first `rows` of the profiles at `profiles` (`offsets` values each, `stride`
    /// apart, readable `medianLanes` at a time past the last offset), the `rows / 2`-th smallest, into `median`.
    /// `medianLanes` offsets at a time: bitonic sorting networks over the two halves of `rowsPerSide` (32, a power
    /// of two) lanes in `lanes`, their compare-exchanges one vector comparison and two blends for 16 offsets, with no
    /// branch on the values (a selection per offset spent half the measure's time in mispredicted comparisons), then
    /// the middle rank read off the two sorted halves (a third fewer compare-exchanges than sorting all 32 lanes,
    /// session 51). The rows a side lacks are filled with as many −∞ as put the median at the middle rank and +∞
    /// after them, so the middle rank is the median of the rows read.
    static func medians(of profiles: UnsafePointer<Float>, stride: Int, rows: Int, offsets: Int,
                        lanes v: UnsafeMutablePointer<SIMD16<Float>>, into median: UnsafeMutablePointer<Float>) {
        let n = rowsPerSide, below = n / 2 - rows / 2
        for k0 in Swift.stride(from: 0, to: offsets, by: medianLanes) {
            let column = UnsafeRawPointer(profiles + k0)
            for r in 0..<rows {
                v[r] = column.loadUnaligned(fromByteOffset: r * stride * MemoryLayout<Float>.stride,
                                            as: SIMD16<Float>.self)
            }
            for r in rows..<(rows + below) { v[r] = SIMD16(repeating: -.infinity) }
            for r in (rows + below)..<n { v[r] = SIMD16(repeating: .infinity) }
            // Each half sorted ascending, then the middle rank of all `n` (the (n/2 + 1)-th smallest) is the least
            // of the larger halves of the pairs (i, n − 1 − i) across them: the first merge step of a bitonic
            // sort of all `n` puts those larger values, the top half, at n/2…n − 1, and the middle lane is their least.
            let half = n / 2
            for start in Swift.stride(from: 0, to: n, by: half) {
                let h = v + start
                var size = 2
                while size <= half {
                    var distance = size / 2
                    while distance > 0 {
                        for i in 0..<half {
                            let j = i ^ distance
                            guard j > i else { continue }
                            let a = h[i], b = h[j]
                            let swap = i & size == 0 ? b .< a : a .< b
                            h[i] = a.replacing(with: b, where: swap)
                            h[j] = b.replacing(with: a, where: swap)
                        }
                        distance /= 2
                    }
                    size *= 2
                }
            }
            var middle = SIMD16<Float>(repeating: .infinity)
            for i in 0..<half {
                let a = v[i], b = v[n - 1 - i]
                let larger = a.replacing(with: b, where: a .< b)
                middle = middle.replacing(with: larger, where: larger .< middle)
            }
            for lane in 0..<min(medianLanes, offsets - k0) { median[k0 + lane] = middle[lane] }
        }
    }
}
