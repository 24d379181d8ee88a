// Finds the document's quadrilateral: lines found on a ~160 px copy, refitted and scored on the ~320 px detection
// image, corners refined on the working image (docs/capture.md, "Document quad", has the why of each step).
//
// Why lines and not a bright blob: ID cards come in every colour, lie on every background and are cut by the frame
// edge, but their outline is always four straight edges that are long compared with the clutter around them, and
// those edges END at the card's corners.
// 1. Vote image (half the detection image): Sobel gradients, an adaptive edge threshold (a percentile of the
//    gradient magnitude, with a floor) and a weak one for faint outlines.
// 2. Hough transform over the gradient's full direction (the line and which side is brighter: a card's side keeps
//    one polarity, a text stroke or stripe splits into two), each ridge pixel voting only near its own direction
//    (5 cells of 2°, angle from a lookup table, integer rho), weight capped so length, not contrast, makes a line.
//    The strongest separated peaks (a few per 30° of direction, so a striped background cannot crowd out the card)
//    are candidate lines; the frame's four borders are added so a card that leaves the frame still closes into a
//    quad (then CUT_OFF).
// 3. Each candidate is refitted to the detection image's edge pixels along it, then read once into prefix sums
//    (support of each polarity, brightness step across it, edge strength): the support of any segment of it is then
//    a subtraction, so scoring thousands of candidate quads stays cheap.
// 4. Two pairs of roughly opposite lines (up to 50° apart: a strongly tilted card's sides converge) form a quad;
//    shapes a card cannot project to are dropped; the rest are scored by edge support, shape, size, and whether
//    their sides stop at the corners (a card's corner is where both edges end; lines that run on past a "corner"
//    are a background grid or a card that continues beyond the frame).
//    When no quad is good enough even among more lines, a card's fourth side is searched for where three of its
//    sides put it (a small or faint side can be missing from the frame-wide vote's strongest lines), and last each
//    quarter of a side is read at its own polarity (a side's edge flips where the background crosses the card's
//    brightness). A winner closed by a frame border that reaches deeper into the frame than a cut-off card's part
//    can is not a card: a card seen whole elsewhere replaces it.
// 5. The winner's sides are refitted on the working image: along each side, the sub-pixel position of the
//    steepest step of the side's polarity; total-least-squares line through them, outliers dropped, refit.
import Foundation

final class DocumentFinder {
    struct Line {
        var normal: SIMD2<Double>   // (cos θ, sin θ)
        var rho: Double             // p · normal
        var border: Bool
        /// Too few edge pixels along it to be worth reading into a profile.
        var unsupported = false
        init(theta: Double, rho: Double, border: Bool) {
            normal = SIMD2(cos(theta), sin(theta))
            self.rho = rho
            self.border = border
        }
        init(normal: SIMD2<Double>, rho: Double) {
            self.normal = normal
            self.rho = rho
            border = false
        }
    }

    struct Found {
        /// Corners on the working image, clockwise from top-left.
        var quad: Quadrilateral
        var confidence: Double
    }

    /// Gradient directions over the full circle: a document's side has one polarity along its length, so its votes
    /// gather in one cell, while a text stroke or a stripe (a ridge) splits into two weaker ones. 2° cells: each
    /// candidate line is refitted to its edge pixels afterwards, so the vote only has to find it.
    private static let angleBins = 180
    private static let cosQ: [Int32] = (0..<angleBins).map { Int32((cos(Double(2 * $0) * .pi / 180) * 1024).rounded()) }
    private static let sinQ: [Int32] = (0..<angleBins).map { Int32((sin(Double(2 * $0) * .pi / 180) * 1024).rounded()) }
    /// atan(r / 256) in degrees, rounded, for r in 0…256.
    private static let atanTable: [UInt8] = (0...256).map { UInt8((atan(Double($0) / 256) * 180 / .pi).rounded()) }
    /// Hough peaks read into profiles, and of those (outline-like ones only) the lines quads are built from.
    private static let peaksKept = 400
    private static let maxCandidates = 48
    private static let maxCandidatesPerSector = 16
    /// Lines (besides the frame borders) quads are built from: at most `maxLines` in all and `maxLinesPerSector` per
    /// 30° of direction, or in the second pass (see `find`) nearly every candidate the vote keeps.
    private static let maxLines = 24
    private static let maxLinesPerSector = 7
    /// |cos| of the angle between two lines, at least which they may be opposite sides: a strongly tilted card's
    /// sides converge by up to 60° (as far as its corners may be off square), measured on camsim's tilted cards.
    private static let minOppositeCosine = 0.5
    private static let secondPassLines = 44
    private static let secondPassPerSector = 14
    /// Lines the fourth-side search (see `addFourthSides`) may add, at most: per seed, the best `bandLines` of its
    /// band, for the best `fourthSideSeeds` seeds (three sides, each with an edge along at least `minSeedSupport`
    /// of it) by support × span and the `cleanestSeeds` best by support alone. Its outline is accepted only within
    /// `maxSearchedSkew` degrees of square (AnalysisThresholds' default `maxSkew`, beyond which a card is TILTED).
    private static let maxAddedLines = 16
    /// Two lines within 5° (cos 5°) and `sameLineOffset` of each other are one line.
    private static let sameLineCosine = 0.9962
    private static func sameLineOffset(shortSide: Int) -> Double { max(2.0, Double(shortSide) * 0.025) }
    private static let fourthSideSeeds = 10
    private static let cleanestSeeds = 3
    private static let bandLines = 2
    private static let minSeedSupport = 0.6
    private static let maxSearchedSkew = 15.0
    /// The deepest a cut-off card's part in view reaches into the frame, in units of its side opposite the frame
    /// border (see `deeperThanCard`): IDCard.aspect and some perspective.
    private static let maxCutOffDepth = 1.7
    /// Share of each quarter of a side whose edge flips polarity once that must carry its edge (see `LineTable`'s
    /// `quarterSupport`).
    fileprivate static let minFlippingQuarter: Float = 0.6
    /// Brightness difference across a side / the step its gradient implies, below which the side is a painted line
    /// or a joint (same brightness both sides), not the edge between the document and its background.
    private static let minStepness = 0.35
    /// Edge support near a side's ends (see `evaluate`) that counts as a whole corner, and the confidence factor of
    /// a quad whose sides carry no edge near any of its corners.
    private static let fullEndSupport = 0.8
    private static let endsBase = 0.5
    /// A side may be partly hidden (a thumb, a glare patch) when it still has this much edge along it and every
    /// other side at least `strongSideSupport`.
    private static let minOccludedSupport = 0.25
    private static let strongSideSupport = 0.85
    /// The same gates for the outline around a card's photo (see `container`): a side meeting a frame border needs
    /// this much edge (not 0.7), the sides beside a partly hidden one this much (not `strongSideSupport`), and the
    /// outline inside the frame counts as fully evidenced from this share (not 0.7).
    private static let lenientBorderSideSupport = 0.5
    private static let lenientStrongSideSupport = 0.55
    private static let lenientEvidence = 0.35
    /// A winning quad of at least `minContainerConfidence` and at most `maxPhotoAspect` long for its width may be a
    /// card's portrait photo (see `container`); the card around it is at least `minContainerGrowth` times its area,
    /// at least `minContainerAspect` long for its width (landscape), and reaches `minContainerConfidence` and
    /// `containerConfidenceShare` of the photo's confidence (a card's outline is nearly as clear as its photo's).
    private static let maxPhotoAspect = 1.6
    private static let minContainerGrowth = 1.8
    private static let minContainerAspect = 1.3
    private static let minContainerConfidence = 0.6
    private static let containerConfidenceShare = 0.9
    /// How many of the best distinct quads are checked for a printed inside, best first.
    private static let quadsVerified = 4
    /// Share of a document's inside with edges at least the weak threshold: an ID card's printed face (text, photo,
    /// guilloche) has far more, a plain object (window pane, box, hand) far less.
    private static let minInteriorTexture = 0.3
    /// Mean luma of a scene below which a mostly clipped quad is a light source rather than an over-exposed card
    /// (measured: camsim's windows sit in scenes of 84–146, its over-exposed frames are 197 and up; framegen's
    /// over-exposed cards, lit apart from their background, in scenes of 160 and up).
    private static let overexposedSceneLuma = 150.0
    /// Luma at or above which a detection-image pixel is clipped (its print, if any, is not visible).
    private static let clippedLuma: UInt8 = 245

    /// Gradients of the coarse image (line refits, profiles) and of its half-size copy (the vote).
    /// Whether the quad search skips quads with a side that provably fails `evaluate`'s support floors
    /// (`sideCanBeSupported`). Always on; tests turn it off to prove that the pruning never drops a quad `evaluate`
    /// would accept (the floors are copied from `evaluate`, and a stale copy would lose quads silently).
    var prunesUnsupportedSides = true
    private let coarseGradients = SobelGradients()
    private let voteGradients = SobelGradients()
    private let voteImage = GrayImage()
    private var accumulator: UnsafeMutableBufferPointer<UInt16> = .allocate(capacity: 1)
    /// Per candidate line, prefix sums along it: visible samples, supported samples, brightness step across,
    /// gradient step, and the supported samples and gradient step signed by the edge's polarity (which side is
    /// brighter): a document's side keeps one polarity along its length, wavy texture and stripes do not.
    private var profiles: UnsafeMutableBufferPointer<Profile> = .allocate(capacity: 1)
    typealias Profile = SIMD8<Float>
    /// A quad's corners in order, as a tuple: the quad search builds thousands of them, so no arrays.
    private typealias Corners = (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>, SIMD2<Double>)
    /// A scored quad of the search: its corners, confidence, ranking score and the candidate lines of its sides.
    private typealias RankedQuad = (corners: Corners, confidence: Double, score: Double, sides: SIMD4<Int>)
    private var profileStride = 0, profileOrigin = 0
    private var sampledRange: [(lo: Int, hi: Int)] = []
    /// Per candidate line, whether `readLines` refitted it and whether it profiled it (it stops reading lines that
    /// cannot be kept; `completeBand` reads the rest when it needs them).
    private var refitted: [Bool] = []
    private var profiled: [Bool] = []
    private var lines: [Line] = []
    private var peaks: [(votes: UInt16, angle: Int, rho: Int)] = []
    private var pairs: [(Int, Int)] = []
    private var edgePoints: [SIMD3<Double>] = []
    private var perSector = [Int](repeating: 0, count: 6)
    private let peakHistogram: UnsafeMutableBufferPointer<Int32> = .allocate(capacity: 4096)
    /// The peaks' sort keys (see `vote`).
    private var peakOrder: UnsafeMutableBufferPointer<UInt64> = .allocate(capacity: 1)
    /// Per candidate line, its samples of its stronger polarity (active lines only; see `outlineSupport`), or of
    /// either polarity for the search with `flippingSides` (see `loosenLineSupports`).
    private var lineSupports: UnsafeMutableBufferPointer<Double> = .allocate(capacity: 1)
    /// Per Hough angle, the first and last offset cell the image's pixels can vote for.
    private let rowReach: UnsafeMutableBufferPointer<Int32> = .allocate(capacity: 2 * angleBins)
    /// Per active line, the active lines that cross it steeply (see `bestQuad`).
    private let steepMasks: UnsafeMutableBufferPointer<UInt64> = .allocate(capacity: 64)
    /// Per active line, the active lines it crosses at a finite point inside the quad search's corner box.
    private let cornerMasks: UnsafeMutableBufferPointer<UInt64> = .allocate(capacity: 64)
    /// Per active line, the index of the first pair whose first line it is (pairs are in (first, second) order).
    private let pairStarts: UnsafeMutableBufferPointer<Int32> = .allocate(capacity: 65)
    /// The pairs one pair is combined with, and per pair the lines that can be a side between its two lines (see
    /// `bestQuad`).
    private var laterPairs: UnsafeMutableBufferPointer<Int32> = .allocate(capacity: 1)
    private var pairSideMasks: UnsafeMutableBufferPointer<UInt64> = .allocate(capacity: 1)
    /// Per pair and active line (not a border) in its side set, that side's visible samples (see `bestQuad`).
    private var pairSideCounts: UnsafeMutableBufferPointer<Int32> = .allocate(capacity: 1)
    /// Crossings of the active lines and the |cos| of the angles between them (see `bestQuad`).
    private var crossings: UnsafeMutableBufferPointer<SIMD2<Double>> = .allocate(capacity: 1)
    private var cosines: UnsafeMutableBufferPointer<Double> = .allocate(capacity: 1)
    /// Per sample of the line being refitted, 5 probes across it, and its position t (see `refitLine`).
    private var refitProbes: UnsafeMutableBufferPointer<UInt16> = .allocate(capacity: 1)
    private var refitTimes: UnsafeMutableBufferPointer<Double> = .allocate(capacity: 1)
    /// Indices into `lines` of the lines quads are built from.
    private var active: [Int] = []
    /// Whether the quad search reads a side whose edge changes polarity once by quarters (see `find` and
    /// `evaluate`).
    private var flippingSides = false
    /// The last quad search's winner (see `completesThreeSides`).
    private var winner: RankedQuad?
    private var edgeThreshold: Int { coarseGradients.edgeThreshold }
    private var weakThreshold: Int { coarseGradients.weakThreshold }
    private var gx: UnsafeMutableBufferPointer<Int16> { coarseGradients.gx }
    private var gy: UnsafeMutableBufferPointer<Int16> { coarseGradients.gy }
    private var magnitude: UnsafeMutableBufferPointer<UInt16> { coarseGradients.magnitude }

    init() {
        lines.reserveCapacity(Self.maxCandidates + 4)
        sampledRange.reserveCapacity(Self.maxCandidates + 4)
        active.reserveCapacity(Self.maxCandidates + 4)
        peaks.reserveCapacity(4096)
        pairs.reserveCapacity(512)
        edgePoints.reserveCapacity(256)
    }

    deinit {
        accumulator.deallocate()
        profiles.deallocate()
        peakHistogram.deallocate()
        refitProbes.deallocate()
        refitTimes.deallocate()
        crossings.deallocate()
        cosines.deallocate()
        rowReach.deallocate()
        lineSupports.deallocate()
        peakOrder.deallocate()
        steepMasks.deallocate()
        cornerMasks.deallocate()
        pairStarts.deallocate()
        laterPairs.deallocate()
        pairSideMasks.deallocate()
        pairSideCounts.deallocate()
    }

    /// The best card-like quad, located on `coarse` and refined on `working` (corners in working pixels), or nil.
    /// When the best quad's confidence is below `acceptance`, the quads are searched again among more lines, unless
    /// the frame's mean luma is above `widerSearchMaxLuma`.
    func find(coarse: GrayImage, working: GrayImage, acceptance: Double, widerSearchMaxLuma: Double) -> Found? {
        let w = coarse.width, h = coarse.height
        guard w >= 16, h >= 16 else { return nil }
        coarseGradients.compute(coarse)
        // The vote runs at half the coarse size (~160 px): it only has to find the lines, which are then refitted
        // to the coarse image's edge pixels.
        voteImage.downsample2x(from: coarse)
        voteGradients.compute(voteImage)
        vote(width: voteImage.width, height: voteImage.height, coarseWidth: w, coarseHeight: h)
        guard lines.count >= 2 else { return nil }
        readLines(coarse, budget: Self.maxLines, perSector: Self.maxLinesPerSector, fresh: true)
        var found = bestQuad(coarse, width: w, height: h)
        // The budget keeps the quad search cheap, but the strongest lines are not always the card's: a photo, a
        // printed face or a textured desk can fill a direction's share with lines that outvote a card's side (small
        // cards' sides most of all). A frame where no quad is good enough is searched again among every candidate
        // line the vote kept (the lines already read are reused); the quads of the first search are among those of
        // the second, so it can only find a better-scoring outline.
        // Not in an over-exposed frame: its card's edges are clipped into the background, and more lines there are
        // the clutter's (on camsim seeds 2-4 the wider search found no over-exposed card, only false quads).
        let widerSearch = voteImage.meanLuma <= widerSearchMaxLuma
        var searchedFourth = false
        if (found?.confidence ?? 0) < acceptance && widerSearch {
            readLines(coarse, budget: Self.secondPassLines, perSector: Self.secondPassPerSector, fresh: false)
            if let second = bestQuad(coarse, width: w, height: h) { found = second }
            // Still nothing: where three of a card's sides are among the lines (two opposite, one across them), its
            // fourth may be too faint, or too short, to be among the frame's strongest lines; it is searched for
            // where a card's shape puts it (see `addFourthSides`). Such an outline rests on a line found by a search
            // that takes the best it can find, so it must also look like a card seen nearly square-on: an outline
            // that is far off square is as likely to be assembled from texture (stripes, waves) as to be a card.
            // (Only quads with a side on a searched line are new: the others were all searched above.)
            let firstSearched = lines.count, searchedFrom = active.count
            if (found?.confidence ?? 0) < acceptance {
                searchedFourth = true
                if addFourthSides(coarse),
                   let fourth = bestQuad(coarse, width: w, height: h, requiring: ~((1 << UInt64(searchedFrom)) &- 1)),
                   fourth.confidence > (found?.confidence ?? 0),
                   fourth.quad.skewDegrees <= Self.maxSearchedSkew,
                   completesThreeSides(searchedFrom: firstSearched, width: w, height: h) {
                    found = fourth
                }
            }
            // Still nothing: a card's side keeps one polarity only while the background beside it stays darker (or
            // brighter) than the card's edge; where a shadow, a hand or a two-tone desk crosses it, the edge flips
            // polarity, and half the side counts against it. Last, the quads are searched once more with each
            // quarter of a side at its own polarity, for sides whose edge flips at most once (texture and stripes
            // flip all along; see `LineTable.quarterSupport`). Such an outline is accepted only with exactly one
            // flipping side, no frame border and every corner in the frame: a card seen whole.
            if (found?.confidence ?? 0) < acceptance {
                flippingSides = true
                loosenLineSupports()
                if let flipped = bestQuad(coarse, width: w, height: h),
                   flipped.confidence > (found?.confidence ?? 0), !flipped.borders.contains(true),
                   flipped.quad.corners.allSatisfy({ p in
                       p.x >= 0 && p.y >= 0 && p.x <= Double(w - 1) && p.y <= Double(h - 1)
                   }),
                   let quad = winner, flippingSideCount(quad) == 1 {
                    found = flipped
                }
                flippingSides = false
            }
        }
        // An accepted winner closed by a frame border does not always end the search. The borders are candidate
        // lines, and an outline of background edges that reach the frame's edge (a desk's, a paper's, a hand's) is
        // closed by them just as a card leaving the frame is. When the border-closed outline reaches deeper into
        // the frame than any card's cut-off part can (see `deeperThanCard`), it is not a cut-off card, and a card
        // seen whole elsewhere in the frame is searched for: among every candidate line but the borders, then with
        // the fourth-side search. An accepted outline apart from the border-closed one replaces it (one inside or
        // around it may be a cut-off card's own print, or a card around its cut-off print).
        if let closed = found, closed.confidence >= acceptance, widerSearch, !searchedFourth,
           Self.deeperThanCard(closed.quad, borders: closed.borders) {
            readLines(coarse, budget: Self.secondPassLines, perSector: Self.secondPassPerSector, fresh: false)
            active.removeAll { lines[$0].border }
            var whole = bestQuad(coarse, width: w, height: h)
            let firstSearched = lines.count, searchedFrom = active.count
            if (whole?.confidence ?? 0) < acceptance && addFourthSides(coarse),
               let fourth = bestQuad(coarse, width: w, height: h, requiring: ~((1 << UInt64(searchedFrom)) &- 1)),
               fourth.confidence >= acceptance, fourth.quad.skewDegrees <= Self.maxSearchedSkew,
               completesThreeSides(searchedFrom: firstSearched, width: w, height: h) {
                whole = fourth
            }
            if let whole, whole.confidence >= acceptance, Self.apart(whole.quad, closed.quad) { found = whole }
        }
        guard let best = found else { return nil }
        let sx = Double(working.width) / Double(w), sy = Double(working.height) / Double(h)
        let scaled = best.quad.scaled(x: sx, y: sy)
        let refined = refine(scaled, borders: best.borders, in: working) ?? scaled
        return Found(quad: refined, confidence: best.confidence)
    }

    /// Whether a quad closed by one frame border (side flags `borders`) reaches deeper into the frame than any
    /// card's cut-off part: the card's side opposite the border is one of its sides, and the part of the card in
    /// view extends from it at most the card's other side (an ID-1 card's long side is 1.586 × its short side; a
    /// passport page's, 1.42), so at most `maxCutOffDepth` × the opposite side, perspective included.
    private static func deeperThanCard(_ quad: Quadrilateral, borders: [Bool]) -> Bool {
        guard borders.filter({ $0 }).count == 1, let side = borders.firstIndex(of: true) else { return false }
        func length(_ i: Int) -> Double {
            let d = quad.corners[(i + 1) & 3] - quad.corners[i & 3]
            return (d * d).sum().squareRoot()
        }
        let depth = (length(side + 1) + length(side + 3)) / 2
        return depth > Self.maxCutOffDepth * length(side + 2)
    }

    /// Whether neither quad's centre lies inside the other (two outlines apart, not one inside or around the other).
    private static func apart(_ a: Quadrilateral, _ b: Quadrilateral) -> Bool {
        func centre(_ q: Quadrilateral) -> SIMD2<Double> { q.corners.reduce(SIMD2(0, 0), +) / 4 }
        func contains(_ q: Quadrilateral, _ p: SIMD2<Double>) -> Bool {
            var sign = 0.0
            for i in 0..<4 {
                let a = q.corners[i], b = q.corners[(i + 1) & 3]
                let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
                if cross * sign < 0 { return false }
                if cross != 0 { sign = cross }
            }
            return true
        }
        return !contains(a, centre(b)) && !contains(b, centre(a))
    }

    // MARK: Gradients

    /// ⌈2³² / d⌉ for d = 0…1020 (entry 0 unused): ⌊n / d⌋ = (n · reciprocal[d]) >> 32 exactly for n < 2¹⁸
    /// (the error, below n · d / 2³² < 1 / d, never reaches the next integer).
    private static let reciprocals: [UInt64] = (0...1020).map {
        $0 == 0 ? 0 : ((1 << 32) + UInt64($0) - 1) / UInt64($0)
    }

    /// Direction of the gradient (gx, gy) in whole degrees, 0…359 (|gx|, |gy| ≤ 1020, a 3×3 Sobel's range).
    @inline(__always)
    private static func gradientAngle(_ gx: Int32, _ gy: Int32, _ table: UnsafePointer<UInt8>,
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

    private func vote(width w: Int, height h: Int, coarseWidth: Int, coarseHeight: Int) {
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
        let edgeThreshold = voteGradients.edgeThreshold, weakThreshold = voteGradients.weakThreshold
        let diagonal = Int((Double(w * w + h * h)).squareRoot()) + 2
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
        let gxp = voteGradients.gx.baseAddress!, gyp = voteGradients.gy.baseAddress!
        let mp = voteGradients.magnitude.baseAddress!
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
                    // Lane k's bit (as the lanes' sum: the voting lanes as one bit set, lowest lane first).
                    let laneBits = SIMD16<Int16>(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384,
                                                 Int16.min)
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
                            let gxi = Int32(gxp[i]), gyi = Int32(gyp[i])
                            // Only the ridge of each edge votes (not weaker than its neighbours across it): a
                            // Sobel edge is ~3 px wide, and thin votes make sharper, cheaper peaks.
                            if abs(gxi) >= abs(gyi) {
                                if m < mp[i - 1] || m < mp[i + 1] { continue }
                            } else {
                                if m < mp[i - w] || m < mp[i + w] { continue }
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
        // A line of at least ~10 % of the short side (weights are 1…16 per ridge pixel).
        let minimum = UInt16((16 * weakThreshold / max(edgeThreshold, 1)) * max(8, shortSide * 8 / 100))
        let minimumVector = SIMD16<UInt16>(repeating: minimum)
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
                    if any(peak) {
                        for lane in 0..<16 where peak[lane] { peaks.append((chunk[lane], t, r + lane - diagonal)) }
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
            let degrees = 2 * peak.angle
            // (The normal `Line(theta:…)` computes, from a table.)
            let candidate = Line(normal: Self.cellNormals[peak.angle], rho: Double(peak.rho))   // on the vote image
            if lines.contains(where: { Self.similar($0, candidate, cosine: Self.sameLineCosine, offset: minSeparation) }) {
                continue
            }
            let sector = (degrees % 180) / 30
            if perSector[sector] >= Self.maxCandidatesPerSector { continue }
            perSector[sector] += 1
            lines.append(candidate)
            if lines.count >= Self.maxCandidates { break }
        }
        // To coarse pixels (the vote image's pixel x is the coarse image's 2x + 0.5).
        for i in lines.indices {
            let n = lines[i].normal
            lines[i].rho = 2 * lines[i].rho + 0.5 * (n.x + n.y)
        }
        lines.append(Line(theta: 0, rho: 0, border: true))
        lines.append(Line(theta: 0, rho: Double(coarseWidth - 1), border: true))
        lines.append(Line(theta: .pi / 2, rho: 0, border: true))
        lines.append(Line(theta: .pi / 2, rho: Double(coarseHeight - 1), border: true))
    }

    /// Moves the key at `start` down the min-heap of the first `count` keys to its place.
    @inline(__always)
    private static func siftDown(_ keys: UnsafeMutablePointer<UInt64>, _ start: Int, count: Int) {
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
    private static func buildMinHeap(_ keys: UnsafeMutablePointer<UInt64>, count: Int) {
        guard count > 1 else { return }
        for start in stride(from: count / 2 - 1, through: 0, by: -1) { siftDown(keys, start, count: count) }
    }

    /// Removes and returns the smallest key of the min-heap of the first `count` keys (count > 0).
    private static func popMin(_ keys: UnsafeMutablePointer<UInt64>, count: inout Int) -> UInt64 {
        let smallest = keys[0]
        count -= 1
        keys[0] = keys[count]
        siftDown(keys, 0, count: count)
        return smallest
    }

    /// Per Hough angle cell, the normal `Line(theta:…)` gives its angle (the same cos and sin).
    private static let cellNormals: [SIMD2<Double>] = (0..<angleBins).map {
        let theta = Double(2 * $0) * .pi / 180
        return SIMD2(cos(theta), sin(theta))
    }

    /// Whether two lines are the same line within `cosine` (of the angle between them) and `offset` pixels.
    @inline(__always)
    private static func similar(_ a: Line, _ b: Line, cosine: Double, offset: Double) -> Bool {
        let dot = (a.normal * b.normal).sum()
        guard abs(dot) >= cosine else { return false }
        return abs(a.rho - (dot < 0 ? -b.rho : b.rho)) <= offset
    }

    @inline(__always)
    private static func intersect(_ a: Line, _ b: Line) -> SIMD2<Double>? {
        let ca = a.normal.x, sa = a.normal.y, cb = b.normal.x, sb = b.normal.y
        let det = ca * sb - sa * cb
        guard abs(det) > 1e-6 else { return nil }
        return SIMD2((a.rho * sb - b.rho * sa) / det, (ca * b.rho - cb * a.rho) / det)
    }

    // MARK: Profiles

    /// Samples candidate line `index` once, one sample per pixel of its length, into prefix sums indexed by the
    /// position t along the line (t = p · direction, direction = (−sin θ, cos θ)); returns the sampled range of t
    /// (empty when the line has no part inside the image).
    private func profileLine(_ index: Int, _ image: GrayImage, half: Int) -> (lo: Int, hi: Int) {
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
        var signedSupport: Float = 0, signedGradient: Float = 0
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
            let i1 = Int(p.y + n.y + 0.5) * w + Int(p.x + n.x + 0.5)
            let i2 = Int(p.y - n.y + 0.5) * w + Int(p.x - n.x + 0.5)
            let m0 = mp[i0], m1 = mp[i1], m2 = mp[i2]
            if m0 >= weak || m1 >= weak || m2 >= weak {
                if !(m0 >= weak && take(i0, m0, p)) && !(m1 >= weak && take(i1, m1, p)) && m2 >= weak {
                    _ = take(i2, m2, p)
                }
            }
            row[t + 1 + profileOrigin] = Profile(visible, supported, stepSum, gradientSum, signedSupport, signedGradient,
                                                 0, 0)
        }
        return (lo, hi)
    }

    /// The range of t (position along the line) where origin + t·direction is at least 3 px inside the image.
    private static func chord(origin: SIMD2<Double>, direction d: SIMD2<Double>, width w: Int, height h: Int,
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
    private func refitLine(_ index: Int, width w: Int, height h: Int, half: Int) {
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
    private struct LineTable {
        let lines: [Line]
        let ranges: [(lo: Int, hi: Int)]
        let profiles: UnsafeMutablePointer<Profile>
        let stride: Int
        let origin: Int

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

        /// The number of samples of line `index` between t0 and t1 (either order), clipped to its sampled part: the
        /// visible count `segment` would return (field 0), without reading the profile.
        @inline(__always)
        func count(_ index: Int, _ t0: Double, _ t1: Double) -> Int {
            let range = ranges[index]
            let lo = max(range.lo, Self.ceiling(min(t0, t1)))
            let hi = min(range.hi, Self.floor(max(t0, t1)))
            return max(0, hi - lo + 1)
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

    /// Refits the candidate lines, reads them into profiles and keeps those that look like an outline: a step
    /// between two regions along the supported part (a text line, a painted stripe or a joint has the same
    /// brightness on both sides), strongest first, at most `perSector` per 30° of direction and `budget` in all; the
    /// frame borders always. A line is refitted and read only while it could still be kept (in order, each line's
    /// fate depends only on the lines before it), so the weakest candidates of a busy frame cost nothing. Called
    /// again with a larger budget (the second pass), it reuses what it has read.
    private func readLines(_ image: GrayImage, budget: Int, perSector sectorBudget: Int, fresh: Bool) {
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
                lineSupports = .allocate(capacity: lines.count + Self.maxAddedLines)
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
            let voteDegrees = (Int((atan2(lines[index].normal.y, lines[index].normal.x) * 180 / .pi).rounded()) + 360) % 180
            if voteDegrees % 30 >= 4 && voteDegrees % 30 <= 26 && perSector[voteDegrees / 30] >= sectorBudget {
                continue
            }
            if !refitted[index] {
                refitLine(index, width: w, height: h, half: half)
                refitted[index] = true
            }
            let line = lines[index]
            let degrees = Int((atan2(line.normal.y, line.normal.x) * 180 / .pi).rounded())
            let sector = min(5, max(0, (degrees + 360) % 180 / 30))
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
    private func outlineSupport(_ index: Int) -> Double? {
        let range = sampledRange[index]
        guard range.lo <= range.hi else { return nil }
        let row = profiles.baseAddress! + index * profileStride
        let sums = row[range.hi + 1 + profileOrigin] - row[range.lo + profileOrigin]
        guard sums[1] >= 6, Double(sums[2]) >= 0.27 * Double(sums[3]) else { return nil }
        return Double(max(sums[1] + sums[4], sums[1] - sums[4]) / 2)
    }

    /// Adds `line` (coarse pixels) to the active lines, refitted and read, when the search does not have it yet and
    /// it passes `readLines`'s outline test; returns whether it was added.
    private func adopt(_ candidate: Line, _ image: GrayImage) -> Bool {
        let w = image.width, h = image.height
        let half = Int((Double(w * w + h * h)).squareRoot()) + 4
        let separation = Self.sameLineOffset(shortSide: min(w, h))
        guard active.count < 64, lines.count < refittedCapacity else { return false }
        if active.contains(where: { Self.similar(lines[$0], candidate, cosine: Self.sameLineCosine, offset: separation) }) {
            return false
        }
        let index = lines.count
        lines.append(candidate)
        sampledRange.append((lo: 0, hi: -1))
        refitted.append(true)
        profiled.append(false)
        refitLine(index, width: w, height: h, half: half)
        let line = lines[index]
        var keep = !line.unsupported
            && !active.contains(where: { Self.similar(lines[$0], line, cosine: Self.sameLineCosine, offset: separation) })
        if keep {
            sampledRange[index] = profileLine(index, image, half: half)
            profiled[index] = true
            if let support = outlineSupport(index) { lineSupports[index] = support } else { keep = false }
        }
        guard keep else {
            lines.removeLast(); sampledRange.removeLast(); refitted.removeLast(); profiled.removeLast()
            return false
        }
        active.append(index)
        return true
    }

    /// Whether the last winning quad rests on exactly one line the fourth-side search found (index `first` on), with
    /// both ends of that side inside the frame: the search completes three sides the frame-wide vote found, and only
    /// with a side it can see (where a card's outline leaves the frame, the line across it may be its print).
    private func completesThreeSides(searchedFrom first: Int, width w: Int, height h: Int) -> Bool {
        guard let quad = winner else { return false }
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
    private func flippingSideCount(_ quad: RankedQuad) -> Int {
        let table = LineTable(lines: lines, ranges: sampledRange, profiles: profiles.baseAddress!,
                              stride: profileStride, origin: profileOrigin)
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

    /// Sets each active line's support (the quad search's bound) to its samples with an edge of either polarity.
    private func loosenLineSupports() {
        for index in active where !lines[index].border {
            let range = sampledRange[index]
            guard range.lo <= range.hi else { continue }
            let row = profiles.baseAddress! + index * profileStride
            lineSupports[index] = Double((row[range.hi + 1 + profileOrigin] - row[range.lo + profileOrigin])[1])
        }
    }

    /// Lines `profiles` and `lineSupports` have room for.
    private var refittedCapacity: Int { min(profiles.count / max(1, profileStride), lineSupports.count) }

    /// Looks for a card's fourth side where three are among the active lines: two opposite lines and one across both,
    /// each with an edge of one polarity along most of the card's outline (from the crossings), the fourth side then
    /// crossing the same two lines, roughly parallel to the third, on the side where their edges run, at a distance
    /// a card's aspect allows (see `BandLineSearch`). Adds the lines found to the active lines; returns whether any
    /// was added.
    private func addFourthSides(_ image: GrayImage) -> Bool {
        let w = image.width, h = image.height
        let table = LineTable(lines: lines, ranges: sampledRange, profiles: profiles.baseAddress!,
                              stride: profileStride, origin: profileOrigin)
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
        typealias Seed = (score: Double, third: Int, from: (SIMD2<Double>, SIMD2<Double>),
                          along: (SIMD2<Double>, SIMD2<Double>), span: Double)
        var seeds: [Seed] = []
        let candidates = active.filter { !lines[$0].border }
        for (position, i) in candidates.enumerated() {
            for j in candidates[(position + 1)...] {
                guard abs((lines[i].normal * lines[j].normal).sum()) >= Self.minOppositeCosine else { continue }
                if let x = Self.intersect(lines[i], lines[j]), insideFrame(x) { continue }
                for k in candidates where k != i && k != j {
                    guard abs((lines[k].normal * lines[i].normal).sum()) <= 0.87,
                          abs((lines[k].normal * lines[j].normal).sum()) <= 0.87,
                          let ci = Self.intersect(lines[k], lines[i]), let cj = Self.intersect(lines[k], lines[j]),
                          insideFrame(ci), insideFrame(cj) else { continue }
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
        var chosen = Array(seeds.prefix(Self.fourthSideSeeds))
        let sameOutline = 0.04 * Double(min(w, h))
        @inline(__always) func close(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Bool {
            ((a - b) * (a - b)).sum() <= sameOutline * sameOutline
        }
        var cleanest = seeds
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
            let band = [ci + di * near, cj + dj * near, cj + dj * far, ci + di * far]
            for found in BandLineSearch.lines(coarseGradients, width: w, height: h, band: band,
                                              reference: lines[seed.third].normal, count: Self.bandLines) {
                if adopt(Line(normal: found.normal, rho: found.rho), image) { added = true }
            }
        }
        return added
    }

    /// Refits and profiles the candidate lines `readLines` left unread (all but the frame borders and the lines the
    /// refit finds unsupported), as if every line had been read.
    private func readRemainingLines(_ image: GrayImage) {
        let w = image.width, h = image.height
        let half = Int((Double(w * w + h * h)).squareRoot()) + 4
        for index in lines.indices where !lines[index].border {
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

    // MARK: Quads

    /// The best quad (see `find`); only quads with a side on one of the active lines in `required` (bits by position
    /// in `active`) are built.
    private func bestQuad(_ image: GrayImage, width w: Int, height h: Int,
                          requiring required: UInt64 = .max) -> (quad: Quadrilateral, confidence: Double, borders: [Bool])? {
        let table = LineTable(lines: lines, ranges: sampledRange, profiles: profiles.baseAddress!, stride: profileStride,
                              origin: profileOrigin)
        let lines = table.lines
        let frameArea = Double(w * h)
        pairs.removeAll(keepingCapacity: true)
        let centre = SIMD2(Double(w) / 2, Double(h) / 2), minSeparation = 0.08 * Double(min(w, h))
        for ii in 0..<active.count {
            for jj in (ii + 1)..<active.count {
                let i = active[ii], j = active[jj]
                if lines[i].border && lines[j].border { continue }
                // Opposite sides: parallel in the card, converging by up to 60° under strong perspective.
                guard abs((lines[i].normal * lines[j].normal).sum()) >= Self.minOppositeCosine else { continue }
                // Opposite sides of a card do not cross inside the frame (they would make a wedge, not a card).
                if let x = Self.intersect(lines[i], lines[j]), x.x >= 0, x.y >= 0, x.x < Double(w), x.y < Double(h) {
                    continue
                }
                // ... and lie well apart: near the frame's centre, at least 8 % of its short side (the smallest card
                // worth finding is about twice that across).
                let onI = centre - lines[i].normal * ((centre * lines[i].normal).sum() - lines[i].rho)
                guard abs((onI * lines[j].normal).sum() - lines[j].rho) >= minSeparation else { continue }
                pairs.append((ii, jj))
            }
        }
        // Every crossing of two active lines and the |cos| of their angle, computed once (a line is a side of
        // thousands of candidate quads): by position in `active`, NaN where the lines are parallel.
        let activeCount = active.count
        if activeCount * activeCount > crossings.count {
            crossings.deallocate()
            cosines.deallocate()
            crossings = .allocate(capacity: activeCount * activeCount)
            cosines = .allocate(capacity: activeCount * activeCount)
        }
        let crossing = crossings.baseAddress!, cosine = cosines.baseAddress!
        for ii in 0..<activeCount {
            for jj in 0..<activeCount {
                let a = lines[active[ii]], b = lines[active[jj]]
                crossing[ii * activeCount + jj] = Self.intersect(a, b) ?? SIMD2(repeating: .nan)
                cosine[ii * activeCount + jj] = abs((a.normal * b.normal).sum())
            }
        }
        // As bit sets over the active lines (at most maxLines + 8 of them, within 64): which lines are frame borders,
        // and per line which lines cross it steeply enough to be an adjacent side.
        let steep = steepMasks.baseAddress!
        // ... and per line which lines cross it at a corner the search accepts: a finite crossing inside the box
        // around the frame (a quad is built only when all four of its corners are such crossings).
        let cornerOK = cornerMasks.baseAddress!
        let lower = SIMD2(-0.6 * Double(w), -0.6 * Double(h)), upper = SIMD2(1.6 * Double(w), 1.6 * Double(h))
        var borderMask: UInt64 = 0
        for ii in 0..<activeCount {
            if lines[active[ii]].border { borderMask |= 1 << UInt64(ii) }
            var mask: UInt64 = 0, corners: UInt64 = 0
            for jj in 0..<activeCount {
                if cosine[ii * activeCount + jj] <= 0.87 { mask |= 1 << UInt64(jj) }
                let c = crossing[ii * activeCount + jj]
                if !c.x.isNaN && !c.y.isNaN && !any(c .< lower) && !any(c .> upper) { corners |= 1 << UInt64(jj) }
            }
            steep[ii] = mask
            cornerOK[ii] = corners
        }
        // Where each line's pairs begin (pairs come in order of their first line, then their second).
        let pairStart = pairStarts.baseAddress!
        do {
            var next = 0
            for ii in 0...activeCount {
                while next < pairs.count && pairs[next].0 < ii { next += 1 }
                pairStart[ii] = Int32(next)
            }
        }
        let active = self.active
        let lineSupport = lineSupports.baseAddress!
        // The few best distinct quads, best first: the winner is the best one whose inside is printed (below).
        var ranked: [RankedQuad] = []
        ranked.reserveCapacity(Self.quadsVerified + 1)
        // Two quads whose corners all lie this close are one outline found through slightly different lines.
        let sameOutline = 0.04 * Double(min(w, h))
        let pairs = self.pairs, pairCount = pairs.count
        if pairCount > laterPairs.count {
            laterPairs.deallocate()
            pairSideMasks.deallocate()
            laterPairs = .allocate(capacity: pairCount)
            pairSideMasks = .allocate(capacity: pairCount)
        }
        if pairCount * activeCount > pairSideCounts.count {
            pairSideCounts.deallocate()
            pairSideCounts = .allocate(capacity: pairCount * activeCount)
        }
        let sideCount = pairSideCounts.baseAddress!
        let later = laterPairs.baseAddress!
        // Per pair, the lines that can be either side between its lines: crossing both steeply, at accepted corners,
        // and (unless a frame border) with enough edge samples between them for `evaluate`'s support test
        // (`sideCanBeSupported`). A quad is built only from two pairs each of whose lines is in the other's set.
        // (Crossings and |cos| are symmetric, so the pair's set holds each of its lines' sides with either pair.)
        let sideMask = pairSideMasks.baseAddress!
        for p in 0..<pairCount {
            let (pa1, pa2) = pairs[p]
            let row1 = pa1 * activeCount, row2 = pa2 * activeCount
            var sideLines = steep[pa1] & steep[pa2] & cornerOK[pa1] & cornerOK[pa2]
            var unchecked = sideLines & ~borderMask, borderLines = sideLines & borderMask
            while borderLines != 0 {
                sideCount[p * activeCount + borderLines.trailingZeroBitCount] = 0
                borderLines &= borderLines &- 1
            }
            let support = (borderMask >> UInt64(pa1)) & 1 + (borderMask >> UInt64(pa2)) & 1 > 0
                ? Self.borderSideSupport : Self.minOccludedSupport
            while unchecked != 0 {
                let line = unchecked.trailingZeroBitCount
                unchecked &= unchecked &- 1
                let visible = Self.sideVisible(table, line: active[line], from: crossing[row1 + line],
                                               to: crossing[row2 + line])
                sideCount[p * activeCount + line] = Int32(visible)
                if prunesUnsupportedSides && !Self.sideCanBeSupported(lineSupport: lineSupport, line: active[line],
                                                                      minimum: support, visible: visible) {
                    sideLines &= ~(1 << UInt64(line))
                }
            }
            sideMask[p] = sideLines
        }
        let edgeFloor = Double(edgeThreshold) / 4
        for p in 0..<pairCount {
            let (pa1, pa2) = pairs[p]
            let a1 = active[pa1], a2 = active[pa2]
            let row1 = pa1 * activeCount, row2 = pa2 * activeCount
            let pairBorders = Int((borderMask >> UInt64(pa1)) & 1 + (borderMask >> UInt64(pa2)) & 1)
            let steepToBoth = steep[pa1] & steep[pa2]
            // Only the later pairs that can make a quad with this one (see `sideMask`) are visited, in pair order
            // (the order, and so the ranking, of the full scan). A pair sharing line pa1 is never among them (a line
            // is not steep to itself).
            let sideLines = sideMask[p], ownLines: UInt64 = 1 << UInt64(pa1) | 1 << UInt64(pa2)
            var firstLines = sideLines & ~((2 << UInt64(pa1)) &- 1), laterCount = 0
            let ownRequired = ownLines & required != 0
            while firstLines != 0 {
                let first = firstLines.trailingZeroBitCount
                firstLines &= firstLines &- 1
                for q in Int(pairStart[first])..<Int(pairStart[first + 1])
                where (sideLines >> UInt64(pairs[q].1)) & 1 != 0 && sideMask[q] & ownLines == ownLines
                    && (ownRequired || (1 << UInt64(pairs[q].0) | 1 << UInt64(pairs[q].1)) & required != 0) {
                    later[laterCount] = Int32(q)
                    laterCount += 1
                }
            }
            for q in UnsafeBufferPointer(start: later, count: laterCount) {
                let (pb1, pb2) = pairs[Int(q)]
                let borders = pairBorders + Int((borderMask >> UInt64(pb1)) & 1 + (borderMask >> UInt64(pb2)) & 1)
                guard borders <= 2 else { continue }
                // A frame border is free of edge evidence: prefer a quad with a real fourth edge over one that
                // borrows the border, or a blurred edge would lose to the frame itself.
                let borderWeight = borders == 0 ? 1 : (borders == 1 ? 0.75 : 0.5625)
                // Everything else in the score is at most 1: a quad that cannot beat the worst of the kept quads
                // (once `quadsVerified` are kept) cannot enter them, and is not built.
                if ranked.count == Self.quadsVerified, borderWeight <= ranked[ranked.count - 1].score { continue }
                // Adjacent sides must cross steeply (a card's corner under perspective stays within 60° of square):
                // |cos| ≤ 0.87 between each line of one pair and each of the other (which also rules out a shared
                // line, |cos| = 1).
                if (steepToBoth >> UInt64(pb1)) & (steepToBoth >> UInt64(pb2)) & 1 == 0 { continue }
                if pa1 == pb1 || pa1 == pb2 || pa2 == pb1 || pa2 == pb2 { continue }
                let b1 = active[pb1], b2 = active[pb2]
                let c0 = crossing[row1 + pb1], c1 = crossing[row1 + pb2]
                let c2 = crossing[row2 + pb2], c3 = crossing[row2 + pb1]
                if c0.x.isNaN || c1.x.isNaN || c2.x.isNaN || c3.x.isNaN { continue }
                guard let candidate = CandidateQuad(c0, c1, c2, c3, lower: lower, upper: upper) else { continue }
                let area = candidate.area
                guard area >= frameArea * 0.012 else { continue }
                let sizeWeight = 0.6 + 0.4 * min(1, area / frameArea / 0.2)
                // (The same bound, now with the size known: skip the shape terms of a quad that cannot enter them.)
                if ranked.count == Self.quadsVerified, sizeWeight * borderWeight <= ranked[ranked.count - 1].score {
                    continue
                }
                let lengths = candidate.sideLengths
                let s0 = lengths[0], s1 = lengths[1], s2 = lengths[2], s3 = lengths[3]
                guard min(min(s0, s1), min(s2, s3)) >= 6 else { continue }
                let aspect = max(s0 + s2, s1 + s3) / min(s0 + s2, s1 + s3)
                let worstCos = candidate.worstCosine(lengths)
                let skewSine = (1 - min(1, worstCos * worstCos)).squareRoot()   // sin of the deviation from 90°
                guard skewSine <= 0.87 else { continue }
                // An ID-1 card (1.586) looks squarer only when it is turned away from the camera, which also
                // makes its corners visibly unsquare; a square-ish shape seen head-on is not a card.
                guard aspect <= 3.2, aspect >= 1.2 || skewSine >= 0.17 else { continue }
                let sides = SIMD4(a1, b2, a2, b1)
                // Bound the score again before reading the profiles: a side cannot have more samples of one
                // polarity than its whole line has, and the visible share is known from the sides' extents alone.
                // (Each side's visible samples as counted for its pair's side set: side 0 lies on pa1 between q's
                // lines, side 1 on pb2 between p's, and so on.)
                let rowP = p * activeCount, rowQ = Int(q) * activeCount
                let visibles = SIMD4(sideCount[rowQ + pa1], sideCount[rowP + pb2], sideCount[rowQ + pa2],
                                     sideCount[rowP + pb1])
                guard let evidenceBound = Self.evidenceBound(table, lineSupport: lineSupport, lengths: SIMD4(s0, s1, s2, s3),
                                                             visibles: visibles, sides: sides) else { continue }
                if ranked.count == Self.quadsVerified,
                   evidenceBound * sizeWeight * borderWeight * (1 + 1e-9) <= ranked[ranked.count - 1].score {
                    continue
                }
                guard let (support, cornerness, evidenced, ends) = Self.evaluate(
                    table, edgeFloor: edgeFloor, lengths: SIMD4(s0, s1, s2, s3), xs: SIMD4(c0.x, c1.x, c2.x, c3.x),
                    ys: SIMD4(c0.y, c1.y, c2.y, c3.y), sides: sides, quarters: flippingSides) else { continue }
                let aspectFit = exp(-pow(log(aspect / IDCard.aspect) / 0.35, 2))
                // A quad closed by the frame's borders rests on less evidence: below 70 % of its outline seen as
                // edges, confidence falls in proportion (long background edges meeting the frame edge are common).
                let confidence = support * (0.8 + 0.2 * aspectFit) * (0.5 + 0.5 * cornerness) * min(1, evidenced / 0.7)
                    * (Self.endsBase + (1 - Self.endsBase) * ends)
                let score = confidence * cornerness * sizeWeight * borderWeight
                if ranked.count == Self.quadsVerified, score <= ranked[ranked.count - 1].score { continue }
                Self.insert(((c0, c1, c2, c3), confidence, score, sides), into: &ranked, sameOutline: sameOutline)
            }
        }
        winner = nil
        guard !ranked.isEmpty else { return nil }
        // An ID document's face is printed all over (photo, text, guilloche, MRZ): its inside is full of edges. A
        // plain object with a straight outline (a window pane, a box, a book cover, a hand's edge closed by the frame)
        // is not, whatever its outline scores. The best quad with a printed inside wins; when none has one, the best
        // quad stays but its confidence falls with how bare it is.
        var best = ranked[0]
        var bestTexture = -1.0
        for candidate in ranked {
            let texture = interiorTexture(candidate.corners, in: image)
            if texture >= Self.minInteriorTexture {
                best = candidate
                bestTexture = texture
                break
            }
            if bestTexture < 0 { bestTexture = texture }
        }
        if bestTexture < Self.minInteriorTexture {
            let share = max(0, bestTexture) / Self.minInteriorTexture
            best.confidence *= share * share
        }
        if let outer = container(of: best, image: image, width: w, height: h) { best = outer }
        if let completed = completeBand(best, image: image) { best = completed }
        winner = best
        // Canonical order (clockwise from top-left), with each side's border flag following its side.
        let found = [best.corners.0, best.corners.1, best.corners.2, best.corners.3]
        let ordered = Quadrilateral.ordered(found)
        var borders = [Bool](repeating: false, count: 4)
        for i in 0..<4 {
            let a = ordered.corners[i], b = ordered.corners[(i + 1) % 4]
            for j in 0..<4 {
                let c = found[j], d = found[(j + 1) % 4]
                if (a == c && b == d) || (a == d && b == c) { borders[i] = lines[best.sides[j]].border }
            }
        }
        return (ordered, best.confidence, borders)
    }

    /// The quad with its missing band restored, or nil. A quad much longer than any identity document is a card one
    /// of whose bands was not closed by its own edge: a light band (an MRZ strip) against a background of its shade,
    /// the quad closed instead on the edge of the printed band beside it. The card's outer edge is then a candidate
    /// line parallel to that long side, outside it by about the missing band's width, supported along its length,
    /// with the short sides' edges running on to it.
    private func completeBand(_ quad: RankedQuad, image: GrayImage) -> RankedQuad? {
        var c = [quad.corners.0, quad.corners.1, quad.corners.2, quad.corners.3]
        let (even, odd) = Quadrilateral.meanOppositeSides(c)
        let long = max(even, odd), short = max(1, min(even, odd))
        guard long / short > IDCard.longestQuadAspect else { return nil }
        // The band's edge may be any candidate line, not only one `readLines` kept (and read).
        readRemainingLines(image)
        let table = LineTable(lines: self.lines, ranges: sampledRange, profiles: profiles.baseAddress!,
                              stride: profileStride, origin: profileOrigin)
        let lines = table.lines
        let missing = long / IDCard.aspect - short
        let centre = (c[0] + c[1] + c[2] + c[3]) / 4
        var best: (side: Int, line: Int, support: Double, start: SIMD2<Double>, end: SIMD2<Double>)?
        for side in (even >= odd ? [0, 2] : [1, 3]) {
            let own = lines[quad.sides[side]]
            guard !own.border else { continue }
            let before = quad.sides[(side + 3) & 3], after = quad.sides[(side + 1) & 3]
            let middle = (c[side] + c[(side + 1) & 3]) / 2
            var outward = own.normal
            if ((centre - middle) * outward).sum() > 0 { outward = -outward }
            for k in lines.indices where !lines[k].border && !lines[k].unsupported && k != quad.sides[side] {
                let line = lines[k]
                let facing = (outward * line.normal).sum()
                guard abs(facing) >= 0.985 else { continue }
                let t = (line.rho - (middle * line.normal).sum()) / facing
                guard t >= 0.6 * missing, t <= 1.5 * missing else { continue }
                guard let p = Self.intersect(line, lines[before]), let q = Self.intersect(line, lines[after]) else {
                    continue
                }
                // The new side: an edge of one polarity with a step across it, along most of its length.
                let d = SIMD2(-line.normal.y, line.normal.x)
                let sums = table.segment(k, (p * d).sum(), (q * d).sum())
                guard sums[0] >= 8, sums[3] > 0, Double(sums[2]) >= Self.minStepness * Double(sums[3]) else { continue }
                let polarity: Float = sums[4] >= 0 ? 1 : -1
                let support = Double((sums[1] + polarity * sums[4]) / 2) / Double(sums[0])
                guard support >= 0.6 else { continue }
                // A short side's line carries an edge (of either polarity: the band is another colour) over the band;
                // one is enough, the band may match the background on the other side.
                var carried = false
                for (index, from, to) in [(before, c[side], p), (after, c[(side + 1) & 3], q)] where !lines[index].border {
                    let e = SIMD2(-lines[index].normal.y, lines[index].normal.x)
                    let part = table.segment(index, (from * e).sum(), (to * e).sum())
                    if part[0] >= 3 && Double(part[1]) >= 0.5 * Double(part[0]) { carried = true }
                }
                guard carried, support > (best?.support ?? 0) else { continue }
                best = (side, k, support, p, q)
            }
        }
        guard let best else { return nil }
        c[best.side] = best.start
        c[(best.side + 1) & 3] = best.end
        var sides = quad.sides
        sides[best.side] = best.line
        return ((c[0], c[1], c[2], c[3]), quad.confidence, quad.score, sides)
    }

    /// The card around a winning quad that is only the card's photo, or nil. An ID-1 card's portrait photo is a
    /// printed rectangle standing upright on the landscape card: a squarish quad whose long axis runs across the
    /// card's. Its frame can outscore the card's own outline (a thumb or the frame's edge over a side, a card larger
    /// than the frame leaving little of its outline in view); the card is then an outline around the photo, across
    /// it, whose sides are among the lines already read (the frame's borders included). The photo inside already
    /// shows a document there, so that outline is held to lenient gates (see `evaluate`), but it must still be a
    /// well-supported outline of its own.
    private func container(of inner: RankedQuad, image: GrayImage, width w: Int, height h: Int) -> RankedQuad? {
        let c = [inner.corners.0, inner.corners.1, inner.corners.2, inner.corners.3]
        func length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }
        let (even, odd) = Quadrilateral.meanOppositeSides(c)
        let innerLong = max(even, odd), innerShort = max(1, min(even, odd))
        guard inner.confidence >= Self.minContainerConfidence, innerLong / innerShort <= Self.maxPhotoAspect else {
            return nil
        }
        var axis = even >= odd ? (c[1] - c[0]) + (c[2] - c[3]) : (c[2] - c[1]) + (c[3] - c[0])
        axis /= max(1e-9, length(axis))
        let innerArea = abs((c[2] - c[0]).x * (c[3] - c[1]).y - (c[2] - c[0]).y * (c[3] - c[1]).x) / 2
        let table = LineTable(lines: self.lines, ranges: sampledRange, profiles: profiles.baseAddress!,
                              stride: profileStride, origin: profileOrigin)
        let lines = table.lines
        // Lines that do not cross the winning quad (they may run along its sides: a winning part of the card shares
        // sides with it), each with its normal turned toward it.
        var around: [(index: Int, inward: SIMD2<Double>)] = []
        let margin = 0.03 * innerShort
        for k in lines.indices {
            let line = lines[k]
            if !line.border {
                guard !line.unsupported, sampledRange[k].lo <= sampledRange[k].hi else { continue }
            }
            let d = c.map { ($0 * line.normal).sum() - line.rho }
            let lowest = d.min()!, highest = d.max()!
            if lowest >= -margin && highest > margin {
                around.append((k, line.normal))
            } else if highest <= margin && lowest < -margin {
                around.append((k, -line.normal))
            }
        }
        var pairs: [(Int, Int)] = []
        for i in around.indices {
            for j in (i + 1)..<around.count {
                let a = around[i], b = around[j]
                guard (a.inward * b.inward).sum() <= -Self.minOppositeCosine else { continue }
                if let x = Self.intersect(lines[a.index], lines[b.index]), x.x >= 0, x.y >= 0, x.x < Double(w),
                   x.y < Double(h) {
                    continue
                }
                pairs.append((i, j))
            }
        }
        let lower = SIMD2(-0.6 * Double(w), -0.6 * Double(h)), upper = SIMD2(1.6 * Double(w), 1.6 * Double(h))
        let edgeFloor = Double(edgeThreshold) / 4
        var best: RankedQuad?
        for p in pairs.indices {
            let a1 = around[pairs[p].0].index, a2 = around[pairs[p].1].index
            for q in (p + 1)..<pairs.count {
                let b1 = around[pairs[q].0].index, b2 = around[pairs[q].1].index
                if a1 == b1 || a1 == b2 || a2 == b1 || a2 == b2 { continue }
                let borderCount = (lines[a1].border ? 1 : 0) + (lines[a2].border ? 1 : 0) + (lines[b1].border ? 1 : 0)
                    + (lines[b2].border ? 1 : 0)
                guard borderCount <= 2 else { continue }
                // Adjacent sides cross steeply (as in `bestQuad`).
                let n1 = lines[a1].normal, n2 = lines[a2].normal, m1 = lines[b1].normal, m2 = lines[b2].normal
                guard abs((n1 * m1).sum()) <= 0.87, abs((n1 * m2).sum()) <= 0.87, abs((n2 * m1).sum()) <= 0.87,
                      abs((n2 * m2).sum()) <= 0.87,
                      let c0 = Self.intersect(lines[a1], lines[b1]), let c1 = Self.intersect(lines[a1], lines[b2]),
                      let c2 = Self.intersect(lines[a2], lines[b2]), let c3 = Self.intersect(lines[a2], lines[b1])
                else { continue }
                guard let candidate = CandidateQuad(c0, c1, c2, c3, lower: lower, upper: upper),
                      candidate.area >= Self.minContainerGrowth * innerArea else { continue }
                let lengths = candidate.sideLengths
                let s0 = lengths[0], s1 = lengths[1], s2 = lengths[2], s3 = lengths[3]
                guard min(min(s0, s1), min(s2, s3)) >= 6 else { continue }
                let aspect = max(s0 + s2, s1 + s3) / min(s0 + s2, s1 + s3)
                let worstCos = candidate.worstCosine(lengths)
                let skewSine = (1 - min(1, worstCos * worstCos)).squareRoot()
                guard skewSine <= 0.87, aspect <= 3.2, aspect >= Self.minContainerAspect else { continue }
                // The card's long axis runs across the photo's, and the photo spans much of the card's height (no more
                // than all of it: a winning part of the card, closed by a line across it, spans all of it).
                var cardAxis = s0 + s2 >= s1 + s3 ? candidate.e0 - candidate.e2 : candidate.e1 - candidate.e3
                cardAxis /= max(1e-9, length(cardAxis))
                guard abs((cardAxis * axis).sum()) <= 0.5 else { continue }
                let cardShort = min(s0 + s2, s1 + s3) / 2
                guard innerLong <= 1.05 * cardShort, innerLong >= 0.35 * cardShort else { continue }
                let sides = SIMD4(a1, b2, a2, b1)
                guard let (support, cornerness, evidenced, ends) = Self.evaluate(
                    table, edgeFloor: edgeFloor, lengths: SIMD4(s0, s1, s2, s3), xs: SIMD4(c0.x, c1.x, c2.x, c3.x),
                    ys: SIMD4(c0.y, c1.y, c2.y, c3.y), sides: sides, lenient: true, quarters: flippingSides) else {
                    continue
                }
                let aspectFit = exp(-pow(log(aspect / IDCard.aspect) / 0.35, 2))
                let confidence = support * (0.8 + 0.2 * aspectFit) * (0.5 + 0.5 * cornerness)
                    * min(1, evidenced / Self.lenientEvidence) * (Self.endsBase + (1 - Self.endsBase) * ends)
                let score = confidence * cornerness
                if score > (best?.score ?? 0) { best = ((c0, c1, c2, c3), confidence, score, sides) }
            }
        }
        guard let best, best.confidence >= Self.minContainerConfidence,
              best.confidence >= Self.containerConfidenceShare * inner.confidence,
              interiorTexture(best.corners, in: image) >= Self.minInteriorTexture else { return nil }
        return best
    }

    /// Inserts a scored quad into the best-first list of at most `quadsVerified` distinct outlines.
    private static func insert(_ candidate: RankedQuad, into ranked: inout [RankedQuad], sameOutline: Double) {
        let a = candidate.corners, limit = sameOutline * sameOutline
        // Every corner of the candidate near some corner of the other (in any order: the same quad can be built with
        // its pairs of lines swapped). Tuples, not arrays: this runs inside the quad search.
        func near(_ p: SIMD2<Double>, _ b: Corners) -> Bool {
            func close(_ q: SIMD2<Double>) -> Bool { ((p - q) * (p - q)).sum() <= limit }
            return close(b.0) || close(b.1) || close(b.2) || close(b.3)
        }
        func same(_ b: Corners) -> Bool {
            near(a.0, b) && near(a.1, b) && near(a.2, b) && near(a.3, b)
        }
        if let index = ranked.firstIndex(where: { same($0.corners) }) {
            guard candidate.score > ranked[index].score else { return }
            ranked.remove(at: index)
        }
        let position = ranked.firstIndex { $0.score < candidate.score } ?? ranked.count
        ranked.insert(candidate, at: position)
        if ranked.count > quadsVerified { ranked.removeLast() }
    }

    /// Share of the quad's inside (shrunk toward its centre, away from its own sides) whose gradient is at least the
    /// weak edge threshold, on a sparse grid of the detection image.
    private func interiorTexture(_ corners: Corners, in image: GrayImage) -> Double {
        let w = image.width, h = image.height
        let all = [corners.0, corners.1, corners.2, corners.3]
        let centre = (all[0] + all[1] + all[2] + all[3]) / 4
        let inner = all.map { centre + ($0 - centre) * 0.8 }
        // Edge normals pointing inward (the quad's orientation is either way round).
        let turn = (inner[1] - inner[0]).x * (inner[2] - inner[1]).y - (inner[1] - inner[0]).y * (inner[2] - inner[1]).x
        let sign: Double = turn > 0 ? 1 : -1
        var low = inner[0], high = inner[0]
        for p in inner { low = pointwiseMin(low, p); high = pointwiseMax(high, p) }
        let x0 = max(1, Int(low.x.rounded(.up))), x1 = min(w - 2, Int(high.x))
        let y0 = max(1, Int(low.y.rounded(.up))), y1 = min(h - 2, Int(high.y))
        guard x0 <= x1, y0 <= y1 else { return 0 }
        let mp = magnitude.baseAddress!, weak = UInt16(weakThreshold), src = image.base
        var inside = 0, textured = 0, clipped = 0
        @inline(__always) func isInside(_ x: Int, _ y: Int) -> Bool {
            let p = SIMD2(Double(x), Double(y))
            for i in 0..<4 {
                let a = inner[i], e = inner[(i + 1) & 3] - a, r = p - a
                if sign * (e.x * r.y - e.y * r.x) < 0 { return false }
            }
            return true
        }
        let lastX = x0 + (x1 - x0) / 2 * 2
        var y = y0
        while y <= y1 {
            // Along a row each side's test is monotone in x (every operation in it is, rounding included), so the
            // row's inside samples are one run: only the samples outside it, at either end, are tested.
            var left = x0
            while left <= lastX && !isInside(left, y) { left += 2 }
            if left <= lastX {
                var right = lastX
                while right > left && !isInside(right, y) { right -= 2 }
                for x in stride(from: left, through: right, by: 2) {
                    inside += 1
                    if mp[y * w + x] >= weak { textured += 1 } else if src[y * w + x] >= Self.clippedLuma { clipped += 1 }
                }
            }
            y += 2
        }
        // Clipped pixels hide the print: when they are most of the inside (an over-exposed card), the print is judged
        // on the rest (a blown-out window pane shows none there, an over-exposed card still shows some of its print).
        // A glare patch is a small part of a card and changes little.
        guard inside > 0 else { return 0 }
        if 2 * clipped >= inside {
            // A card is mostly clipped only when the whole scene is over-exposed; a blown-out region in a scene
            // exposed for its mid-tones is a light source (a window with its bars, a lamp, a screen), not a card.
            guard image.meanLuma >= Self.overexposedSceneLuma else { return 0 }
            return Double(textured) / Double(max(1, inside - clipped))
        }
        return Double(textured) / Double(inside)
    }

    /// `evaluate`'s support tests: a side of at least 8 visible samples with under this share of them of its
    /// polarity fails (the second for a side next to a frame border), unless it is the one partly hidden side
    /// (`minOccludedSupport`). `sideCanBeSupported` prunes quads by the weakest share that can pass (the border
    /// share, or `minOccludedSupport`) before they are built: change it with them.
    private static let sideSupport = 0.4
    private static let borderSideSupport = 0.7

    /// The visible samples of the side on candidate line `index` between `from` and `to` (the count `evaluate`'s
    /// `segment` gives it, from the same t).
    @inline(__always)
    private static func sideVisible(_ table: LineTable, line index: Int, from: SIMD2<Double>,
                                    to: SIMD2<Double>) -> Int {
        let line = table.lines[index]
        let d = SIMD2(-line.normal.y, line.normal.x)
        let t0 = from.x * d.x + from.y * d.y, t1 = to.x * d.x + to.y * d.y
        return table.count(index, t0, t1)
    }

    /// Whether a side of `visible` samples on candidate line `index` can pass `evaluate`'s support test with
    /// `minimum`: a side's samples of its polarity are at most its line's samples of the stronger polarity (of
    /// either polarity while `flippingSides`).
    @inline(__always)
    private static func sideCanBeSupported(lineSupport: UnsafeMutablePointer<Double>, line index: Int, minimum: Double,
                                           visible: Int) -> Bool {
        let sideVisible = Double(visible)
        return !(sideVisible >= 8 && lineSupport[index] / sideVisible < minimum)
    }

    /// An upper bound of `support × min(1, evidenced / 0.7)` of `evaluate` for the same quad, from the sides' visible
    /// samples (`visibles`, side s from corner s to s + 1; any value for a border side) and each line's samples of its
    /// stronger polarity (no profile is read), or nil where `evaluate` would
    /// return nil because too little of the outline is visible. (Quads with a side that fails `sideCanBeSupported`
    /// are not built.)
    @inline(__always)
    private static func evidenceBound(_ table: LineTable, lineSupport: UnsafeMutablePointer<Double>,
                                      lengths: SIMD4<Double>, visibles: SIMD4<Int32>, sides: SIMD4<Int>) -> Double? {
        var visible = 0.0, supported = 0.0, borderLength = 0.0
        for s in 0..<4 where table.lines[sides[s]].border { borderLength += lengths[s] }
        for s in 0..<4 where !table.lines[sides[s]].border {
            let sideVisible = Double(visibles[s])
            visible += sideVisible
            supported += min(sideVisible, lineSupport[sides[s]])
        }
        guard visible > 0, visible >= lengths.sum() * 0.35 else { return nil }
        // (`evaluate`'s evidence: the visible share of the outline inside the frame, frame-border sides included.)
        return supported / visible * min(1, visible / (visible + borderLength) / 0.7)
    }

    /// (edge support of the visible sides 0…1, cornerness 0…1, share of the perimeter seen as real sides, edge
    /// support next to the corners 0…1) or nil when these four lines do not outline one object. Side s runs from corner s to corner s + 1 on line `sides[s]`.
    private static func evaluate(_ table: LineTable, edgeFloor: Double, lengths: SIMD4<Double>, xs: SIMD4<Double>,
                                 ys: SIMD4<Double>, sides: SIMD4<Int>,
                                 lenient: Bool = false,
                                 quarters byQuarter: Bool = false) -> (Double, Double, Double, Double)? {
        let lines = table.lines
        var supported = 0.0, visible = 0.0
        // Per side: positions of its ends along its line, polarity, strength (first pass: the cheap rejections).
        var t0s = SIMD4<Double>(repeating: 0), t1s = SIMD4<Double>(repeating: 0)
        var strengths = SIMD4<Double>(repeating: 0)
        var startPolarities = SIMD4<Double>(repeating: 0), endPolarities = SIMD4<Double>(repeating: 0)
        var borders = SIMD4<Int>(repeating: 0)
        var fractions = SIMD4<Double>(repeating: 1), weakSide = -1
        for s in 0..<4 where lines[sides[s]].border { borders[s] = 1 }
        for s in 0..<4 where borders[s] == 0 {
            let line = lines[sides[s]]
            let d = SIMD2(-line.normal.y, line.normal.x)
            let next = (s + 1) & 3
            let t0 = xs[s] * d.x + ys[s] * d.y, t1 = xs[next] * d.x + ys[next] * d.y
            let sums = table.segment(sides[s], t0, t1)
            let sideVisible = Double(sums[0])
            guard sideVisible > 0 else { continue }
            // The side's polarity, and its support counting only samples of one polarity per quarter of it: along a
            // card's side the background can turn from darker than the card's edge to brighter (a shadow, a hand,
            // a two-tone desk), and the edge flips polarity there, once; texture and stripes flip all along.
            let polarity: Float = sums[4] >= 0 ? 1 : -1
            let quarters = (byQuarter ? table.quarterSupport(sides[s], t0, t1) : nil)
                ?? ((sums[1] + polarity * sums[4]) / 2, polarity * sums[5], polarity, polarity)
            let fraction = Double(quarters.supported) / sideVisible
            // A visible side with hardly any edge along it means these lines do not outline one object, unless it
            // is the only such side and the others are strong: a thumb over the card's edge, or a glare patch
            // washing it out, hides part of one side (checked after the loop).
            if sideVisible >= 8 && fraction < Self.sideSupport {
                guard fraction >= Self.minOccludedSupport, weakSide < 0 else { return nil }
                weakSide = s
            }
            if sideVisible >= 8 && sums[3] > 0 && Double(sums[2]) < minStepness * Double(sums[3]) { return nil }
            // A card edge that runs out of the frame is an edge all the way: a side that only reaches the border
            // over background is a missed side, not a cut-off card.
            if borders[(s + 3) & 3] + borders[(s + 1) & 3] > 0 && sideVisible >= 8
                && fraction < (lenient ? Self.lenientBorderSideSupport : Self.borderSideSupport) { return nil }
            supported += fraction * sideVisible
            visible += sideVisible
            t0s[s] = t0
            t1s[s] = t1
            startPolarities[s] = Double(quarters.first)
            endPolarities[s] = Double(quarters.last)
            // (Never below a typical edge: beside a faint side, texture would look like the side running on.)
            strengths[s] = max(edgeFloor, Double(quarters.strength) / sideVisible)
            fractions[s] = fraction
        }
        guard visible >= lengths.sum() * 0.35 else { return nil }
        if weakSide >= 0 {
            let strong = lenient ? Self.lenientStrongSideSupport : Self.strongSideSupport
            for s in 0..<4 where s != weakSide && borders[s] == 0 && fractions[s] < strong { return nil }
        }
        var cornerness = 1.0
        // A card's side carries its edge right up to both its corners (past the rounding); a quad whose side is only
        // part of a longer line, closed on another object's line (a desk stripe, a window bar), lacks the edge near
        // that corner. The support of each side's end stretches, where the corner is inside the frame and not on a
        // border (a side meeting a border is checked to run up to it below).
        var endSupport = 0.0, endsCounted = 0.0
        for s in 0..<4 where borders[s] == 0 && strengths[s] > 0 {
            let length = lengths[s], t0 = t0s[s], t1 = t1s[s]
            let direction: Double = t1 >= t0 ? 1 : -1
            let skip = max(1, 0.05 * length), window = max(4, 0.2 * length)
            for atEnd in 0..<2 where borders[atEnd == 0 ? (s + 3) & 3 : (s + 1) & 3] == 0 {
                // Inward from the corner: along the side from its start, back along it from its end (at the
                // polarity of the side's quarter there).
                let corner = atEnd == 0 ? t0 : t1, inward = atEnd == 0 ? direction : -direction
                let polarity = Float(atEnd == 0 ? startPolarities[s] : endPolarities[s])
                let part = table.segment(sides[s], corner + inward * skip, corner + inward * (skip + window))
                guard part[0] >= 3 else { continue }
                endSupport += Double((part[1] + polarity * part[4]) / 2 / part[0])
                endsCounted += 1
            }
        }
        let ends = endsCounted > 0 ? min(1, endSupport / endsCounted / Self.fullEndSupport) : 1
        for s in 0..<4 where borders[s] == 0 && strengths[s] > 0 {
            let index = sides[s], length = lengths[s], t0 = t0s[s], t1 = t1s[s]
            let sideStrength = strengths[s]
            // Signed edge strength per sample over a stretch of this line, relative to the side's own: about 1
            // where the same edge continues, about 0 over texture (either polarity) or background. (At the polarity
            // of the side's quarter at that end.)
            func continuation(_ from: Double, _ to: Double, _ polarity: Double) -> Double? {
                let part = table.segment(index, from, to)
                guard part[0] >= 3 else { return nil }
                return max(0, min(1, polarity * Double(part[5] / part[0]) / sideStrength))
            }
            let direction: Double = t1 >= t0 ? 1 : -1
            let startAtBorder = borders[(s + 3) & 3] == 1, endAtBorder = borders[(s + 1) & 3] == 1
            // A side that meets a frame border must carry its edge all the way up to it: the card runs out of the
            // frame there. (Otherwise the border only stands in for a side the finder missed.) The first few
            // pixels are skipped: a card's rounded corner can sit just inside the frame.
            if startAtBorder || endAtBorder {
                let skip = min(10, 0.1 * length), inward = skip + max(4, min(16, 0.25 * length))
                if startAtBorder, let c = continuation(t0 + direction * skip, t0 + direction * inward,
                                                       startPolarities[s]), c < 0.5 {
                    return nil
                }
                if endAtBorder, let c = continuation(t1 - direction * inward, t1 - direction * skip,
                                                     endPolarities[s]), c < 0.5 {
                    return nil
                }
            }
            // Does the edge run on past either corner? (A card's edge stops there.)
            let extent = max(3, min(12, 0.2 * length))
            if !startAtBorder, let runOn = continuation(t0 - direction * 2, t0 - direction * (2 + extent),
                                                        startPolarities[s]) {
                cornerness *= 1 - max(0, runOn - 0.3)
            }
            if !endAtBorder, let runOn = continuation(t1 + direction * 2, t1 + direction * (2 + extent),
                                                      endPolarities[s]) {
                cornerness *= 1 - max(0, runOn - 0.3)
            }
        }
        // Evidence is judged on the outline inside the frame: the part of a side beyond the frame's edge (a card
        // larger than the frame, or leaving it) cannot be seen by any camera, while a frame border standing in for a
        // side is outline without evidence.
        var borderLength = 0.0
        for s in 0..<4 where borders[s] == 1 { borderLength += lengths[s] }
        return (supported / visible, cornerness, visible / (visible + borderLength), ends)
    }

    // MARK: Refinement on the working image

    /// Refits each non-border side to the sub-pixel edge points along it on `image` and intersects the fitted lines.
    private func refine(_ quad: Quadrilateral, borders: [Bool], in image: GrayImage) -> Quadrilateral? {
        let w = image.width, h = image.height
        let src = image.base
        var fitted: [Line] = []
        fitted.reserveCapacity(4)
        let radius = 5
        for i in 0..<4 {
            let start = quad.corners[i], end = quad.corners[(i + 1) % 4]
            let d = end - start
            let length = (d * d).sum().squareRoot()
            guard length > 8 else { return nil }
            let n = SIMD2(-d.y / length, d.x / length)
            let coarse = Line(normal: n, rho: (start * n).sum())
            if borders[i] {
                fitted.append(coarse)
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
                fitted.append(coarse)
                continue
            }
            fitted.append(line)
        }
        var corners: [SIMD2<Double>] = []
        for i in 0..<4 {
            guard let c = Self.intersect(fitted[(i + 3) % 4], fitted[i]) else { return nil }
            // A refined corner may not wander far from the coarse one.
            let delta = c - quad.corners[i]
            guard (delta * delta).sum() < 64 else { return nil }
            corners.append(c)
        }
        return Quadrilateral(corners: corners)
    }

    /// Weighted total-least-squares line through the edge points of one polarity within `tolerance` of `near`.
    private func fit(sign: Double, near: Line, tolerance: Double) -> Line? {
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

/// Sobel gradients of an image with an adaptive edge threshold, in buffers reused between frames.
final class SobelGradients {
    private(set) var gx: UnsafeMutableBufferPointer<Int16> = .allocate(capacity: 1)
    private(set) var gy: UnsafeMutableBufferPointer<Int16> = .allocate(capacity: 1)
    /// |gx| + |gy|, 0 on the border rows and columns.
    private(set) var magnitude: UnsafeMutableBufferPointer<UInt16> = .allocate(capacity: 1)
    private let histogram: UnsafeMutableBufferPointer<Int32> = .allocate(capacity: 2048)
    /// Four interleaved partial histograms of the sampled rows (consecutive pixels often share a bin: one counter
    /// per column modulo 4 keeps the increments independent). |gx| + |gy| ≤ 2040, so half of it has 1021 bins.
    private let partialHistograms: UnsafeMutableBufferPointer<Int32> = .allocate(capacity: 4 * 1024)
    /// The strongest 12 % of magnitudes, but never weaker than a step of ~10 grey levels.
    private(set) var edgeThreshold = 40
    /// The median gradient magnitude: in a frame of flat regions and texture, about the sensor's noise.
    private(set) var noiseLevel = 8
    /// The weakest gradient that votes for a line or supports a side: a step of ~4 grey levels, a third of an edge,
    /// or twice the noise, whichever is lower above the floor. A card's outline against a background of nearly
    /// its own shade (a light card on a light desk) is a step of a few grey levels, well under a third of the card's
    /// own text contrast, yet it stands clear of the noise and runs straight for a long way.
    var weakThreshold: Int { max(16, min(edgeThreshold / 3, 2 * noiseLevel)) }

    deinit {
        gx.deallocate()
        gy.deallocate()
        magnitude.deallocate()
        histogram.deallocate()
        partialHistograms.deallocate()
    }

    func compute(_ image: GrayImage) {
        let w = image.width, h = image.height, n = w * h
        if n > gx.count {
            gx.deallocate(); gy.deallocate(); magnitude.deallocate()
            gx = .allocate(capacity: n); gy = .allocate(capacity: n); magnitude = .allocate(capacity: n)
        }
        let src = image.base, gxp = gx.baseAddress!, gyp = gy.baseAddress!, mp = magnitude.baseAddress!
        mp.update(repeating: 0, count: w)
        (mp + (h - 1) * w).update(repeating: 0, count: w)
        let hist = histogram.baseAddress!
        hist.update(repeating: 0, count: 2048)
        let partial = partialHistograms.baseAddress!
        partial.update(repeating: 0, count: 4 * 1024)
        for y in 1..<(h - 1) {
            let r0 = src + (y - 1) * w, r1 = src + y * w, r2 = src + (y + 1) * w
            let ox = gxp + y * w, oy = gyp + y * w, om = mp + y * w
            om[0] = 0
            om[w - 1] = 0
            for x in 1..<(w - 1) {
                // In 16 bits (|sx|, |sy| ≤ 1020): the compiler then handles 8 pixels per vector, not 4.
                let a = Int16(r0[x - 1]), b = Int16(r0[x]), c = Int16(r0[x + 1])
                let d = Int16(r1[x - 1]), f = Int16(r1[x + 1])
                let g = Int16(r2[x - 1]), hh = Int16(r2[x]), k = Int16(r2[x + 1])
                let sx = (c &+ 2 &* f &+ k) &- (a &+ 2 &* d &+ g)
                let sy = (g &+ 2 &* hh &+ k) &- (a &+ 2 &* b &+ c)
                ox[x] = sx
                oy[x] = sy
                om[x] = UInt16(bitPattern: (sx < 0 ? 0 &- sx : sx) &+ (sy < 0 ? 0 &- sy : sy))
            }
            // The percentile only needs a sample: every other row.
            if y & 1 == 0 {
                var x = 1
                while x + 4 <= w - 1 {
                    partial[Int(min(om[x] >> 1, 1023))] &+= 1
                    partial[1024 + Int(min(om[x + 1] >> 1, 1023))] &+= 1
                    partial[2048 + Int(min(om[x + 2] >> 1, 1023))] &+= 1
                    partial[3072 + Int(min(om[x + 3] >> 1, 1023))] &+= 1
                    x += 4
                }
                while x < w - 1 {
                    partial[Int(min(om[x] >> 1, 1023))] &+= 1
                    x += 1
                }
            }
        }
        for bin in 0..<1024 {
            hist[bin] = partial[bin] &+ partial[1024 + bin] &+ partial[2048 + bin] &+ partial[3072 + bin]
        }
        let counted = (w - 2) * ((h - 2) / 2)
        var remaining = counted * 12 / 100, bin = 2047
        while bin > 0 && remaining > 0 {
            remaining -= Int(hist[bin])
            bin -= 1
        }
        edgeThreshold = max(40, bin * 2)
        var half = counted / 2, median = 0
        while median < 2047 && half > 0 {
            half -= Int(hist[median])
            median += 1
        }
        noiseLevel = median * 2
    }
}
