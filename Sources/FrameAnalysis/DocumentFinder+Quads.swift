// DocumentFinder, step 4: quads from pairs of opposite lines, scored by edge support, shape and cornerness; the
// card around its photo and the missing band.
import Foundation

extension DocumentFinder {
    // MARK: Quads

    /// The best quad (see `find`), in canonical order with its sides' border flags, and as ranked (`winner`: its
    /// lines); only quads with a side on one of the active lines in `required` (bits by position in `active`) are
    /// built. With `quarters`, a side may be read by quarters at their own polarity (see `evaluate`). With `pitched`
    /// (a card pitched far from the camera in a portrait frame), opposite sides may cross inside the frame beyond the
    /// centred square of its short side (see `vanishesInFrame`), and a square-ish quad may be a card with one corner
    /// far off square. With `coveredAtBorder` (a card leaving the frame, held there), one side meeting a frame border
    /// may be partly covered by the hand (see `evaluate`). With `closedByBorder`, only outlines with a frame-border
    /// side are built. `readsRepeats` false: candidates are not read for a repeating inside even with
    /// `rejectsRepeatingInsides` (a stream's frame, `track(readsRepeats:)`).
    func bestQuad(_ image: GrayImage, width w: Int, height h: Int, requiring required: UInt64 = .max,
                  quarters: Bool = false, verified: Int = DocumentFinder.quadsVerified, pitched: Bool = false,
                  coveredAtBorder: Bool = false, closedByBorder: Bool = false, readsRepeats: Bool = true)
        -> Searched? {
        let table = lineTable
        let frameArea = Double(w * h)
        let (lower, upper) = CandidateQuad.searchBox(width: w, height: h)
        let borderMask = crossActiveLines(lower: lower, upper: upper)
        pairOppositeLines(width: w, height: h, pitched: pitched)
        let activeCount = active.count
        let crossing = crossings.baseAddress!, steep = steepMasks.baseAddress!, pairStart = pairStarts.baseAddress!
        let cosine = cosines.baseAddress!
        let active = self.active, weighsUnseen = weighsUnseenSidesAsBorders, prunes = prunesUnsupportedSides
        let admitsTurnedAway = admitsTurnedAwaySquares, portrait = portrait(width: w, height: h)
        // The few best distinct quads, best first: the winner is the best one whose inside is printed (below).
        var ranked = rankedQuadLists.popLast() ?? []
        defer {
            ranked.removeAll(keepingCapacity: true)
            rankedQuadLists.append(ranked)
        }
        ranked.reserveCapacity(verified + 1)
        // Two quads whose corners all lie this close are one outline found through slightly different lines.
        let sameOutline = 0.04 * Double(min(w, h))
        let pairs = self.pairs, pairCount = pairs.count
        let lineSupport = supportBound(quarters: quarters)
        readPairSides(table, borderMask: borderMask, lineSupport: lineSupport, quarters: quarters,
                      coveredAtBorder: coveredAtBorder)
        let sideCount = pairSideCounts.baseAddress!, sideMask = pairSideMasks.baseAddress!
        let weakSides = pairWeakSides.baseAddress!, notStrongSides = pairNotStrongSides.baseAddress!
        if pairCount > laterPairs.count {
            laterPairs.deallocate()
            laterPairs = .allocate(capacity: pairCount)
        }
        let later = laterPairs.baseAddress!
        let edgeFloor = self.edgeFloor
        for p in 0..<pairCount {
            let (pa1, pa2) = pairs[p]
            let a1 = active[pa1], a2 = active[pa2]
            let row1 = pa1 * activeCount, row2 = pa2 * activeCount
            let pairBorders = Int((borderMask >> UInt64(pa1)) & 1 + (borderMask >> UInt64(pa2)) & 1)
            let steepToBoth = steep[pa1] & steep[pa2]
            let cosineP = cosine[row1 + pa2], pConverges = cosineP < Self.minOppositeCosine
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
                    // At most one weak side, and then every other side strong (`evaluate`'s rule): this pair's
                    // sides lie on q's lines, q's on this pair's.
                    let qLines: UInt64 = 1 << UInt64(pairs[q].0) | 1 << UInt64(pairs[q].1)
                    let weak = (weakSides[p] & qLines).nonzeroBitCount + (weakSides[q] & ownLines).nonzeroBitCount
                    if weak > 1 { continue }
                    if weak == 1 && (notStrongSides[p] & qLines).nonzeroBitCount
                        + (notStrongSides[q] & ownLines).nonzeroBitCount > 1 { continue }
                    later[laterCount] = Int32(q)
                    laterCount += 1
                }
            }
            for q in UnsafeBufferPointer(start: later, count: laterCount) {
                let (pb1, pb2) = pairs[Int(q)]
                // A pair converging past `minOppositeCosine` is a card's only beside a nearly parallel pair whose far
                // side is not much shorter than its near one (`minConvergingCosine`).
                let cosineQ = cosine[pb1 * activeCount + pb2]
                if pConverges || cosineQ < Self.minOppositeCosine {
                    let lines = pConverges ? (pa1, pa2, pb1, pb2, cosineQ) : (pb1, pb2, pa1, pa2, cosineP)
                    guard Self.convergesAsACard(lines, crossing: crossing, activeCount: activeCount) else { continue }
                }
                let borders = pairBorders + Int((borderMask >> UInt64(pb1)) & 1 + (borderMask >> UInt64(pb2)) & 1)
                guard borders <= 2, borders > 0 || !closedByBorder else { continue }
                // A frame border is free of edge evidence: prefer a quad with a real fourth edge over one that
                // borrows the border, or a blurred edge would lose to the frame itself.
                let borderWeight = Self.outlineWeight(closedSides: borders)
                // Everything else in the score is at most 1: a quad that cannot beat the worst of the kept quads
                // (once `quadsVerified` are kept) cannot enter them, and is not built.
                if prunes, ranked.count == verified, borderWeight <= ranked[ranked.count - 1].score { continue }
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
                if prunes, ranked.count == verified, sizeWeight * borderWeight <= ranked[ranked.count - 1].score {
                    continue
                }
                let lengths = candidate.sideLengths
                let s0 = lengths[0], s1 = lengths[1], s2 = lengths[2], s3 = lengths[3]
                guard min(min(s0, s1), min(s2, s3)) >= 6 else { continue }
                let aspect = max(s0 + s2, s1 + s3) / min(s0 + s2, s1 + s3)
                let skews = candidate.cornerSkews(lengths)   // sines of corners' deviations from 90°
                guard skews.least <= 0.87 else { continue }
                // An ID-1 card (1.586) looks squarer only when it is turned away from the camera, which also
                // makes its corners visibly unsquare; a square-ish shape seen head-on is not a card. Turned away,
                // every corner leaves square; or one corner leaves it far while another can stay near square (its
                // outline is nearly a trapezoid, tipped by the yaw and roll): taken so for a card pitched far in a
                // portrait frame (`pitched`), and in a portrait frame's every search for an outline seen whole, no
                // frame border and every corner in the frame (`admitsTurnedAwaySquares`; a square-ish block of a
                // keyboard closed by the frame, or running out of it, stays out). (Portrait frames only: their focal
                // length is ~0.8 × the short side, a landscape frame's ~1.4 ×, so a card there shows far less
                // perspective for its size; measured, landscape frames gained nothing from it and one card's outline
                // was traded for a worse one.) An outline closed by a frame border is not a whole card's but the
                // part in view of one the frame cuts, which can have any length: a square-ish one is kept when its
                // inside is printed twice as densely as a card's must be (`minDeepPrintedTexture`, as for
                // border-closed outlines deep in the ranking: background edges closed by the frame enclose no
                // print), five thirds as densely when one border closes it and three sides are its own
                // (`squarePartMinTexture`), read once its outline has passed `evaluate` (below).
                guard aspect <= 3.2 else { continue }
                let squarePart = aspect < Self.squareishAspect && skews.least < 0.17
                    && !(skews.worst >= Self.turnedAwaySkew
                         && (pitched || (admitsTurnedAway && portrait && borders == 0
                                         && Quadrilateral.liesInside(c0, c1, c2, c3, width: w, height: h))))
                if squarePart && !(admitsSquarePrintedPartsAtBorders && borders > 0) { continue }
                let sides = SIMD4(a1, b2, a2, b1)
                // Bound the score again before reading the profiles: a side cannot have more samples of one
                // polarity than its whole line has, and the visible share is known from the sides' extents alone.
                // (Each side's visible samples as counted for its pair's side set: side 0 lies on pa1 between q's
                // lines, side 1 on pb2 between p's, and so on.)
                let rowP = p * activeCount, rowQ = Int(q) * activeCount
                let visibles = SIMD4(sideCount[rowQ + pa1], sideCount[rowP + pb2], sideCount[rowQ + pa2],
                                     sideCount[rowP + pb1])
                // A side with no visible sample (beyond the frame, or along its very edge) is outline without
                // evidence, as a frame border standing in for a side is: it weighs as one, and counts towards the two
                // a quad may have. (Otherwise two lines crossing the frame, closed by a border and by any line that
                // crosses them beyond the frame's edge, outrank the same band closed by two borders: a desk stripe
                // taken for a card larger than the frame.)
                var unseen = 0
                for k in 0..<4 where weighsUnseen && visibles[k] == 0 && !table.lines[sides[k]].border { unseen += 1 }
                if borders + unseen > 2 { continue }
                let outlineWeight = Self.outlineWeight(closedSides: borders + unseen)
                guard let evidenceBound = Self.evidenceBound(table, lineSupport: lineSupport, lengths: SIMD4(s0, s1, s2, s3),
                                                             visibles: visibles, sides: sides) else { continue }
                if prunes, ranked.count == verified,
                   evidenceBound * sizeWeight * outlineWeight * (1 + 1e-9) <= ranked[ranked.count - 1].score {
                    continue
                }
                guard let (support, cornerness, evidenced, ends) = Self.evaluate(
                    table, edgeFloor: edgeFloor, lengths: SIMD4(s0, s1, s2, s3), xs: SIMD4(c0.x, c1.x, c2.x, c3.x),
                    ys: SIMD4(c0.y, c1.y, c2.y, c3.y), sides: sides, quarters: quarters,
                    coveredAtBorder: coveredAtBorder, followsFlippedRuns: followsFlippedRunsToBorder,
                    forgivesGlare: forgivesSidesUnderGlare) else {
                    continue
                }
                if squarePart && interiorTexture((c0, c1, c2, c3), in: image)
                    < squarePartMinTexture(closedSides: borders + unseen) {
                    continue
                }
                // A quad closed by the frame's borders rests on less evidence: below 70 % of its outline seen as
                // edges, confidence falls in proportion (long background edges meeting the frame edge are common).
                let confidence = Self.outlineConfidence(support: support, shape: Self.aspectShape(aspect),
                                                        cornerness: cornerness, evidenced: evidenced,
                                                        fullEvidence: Self.fullEvidence, ends: ends)
                let score = confidence * cornerness * sizeWeight * outlineWeight
                if ranked.count == verified, score <= ranked[ranked.count - 1].score { continue }
                Self.insert(((c0, c1, c2, c3), confidence, score, sides), into: &ranked, sameOutline: sameOutline,
                            keeping: verified)
            }
        }
        guard !ranked.isEmpty else { return nil }
        // An ID document's face is printed all over (photo, text, guilloche, MRZ): its inside is full of edges. A
        // plain object with a straight outline (a window pane, a box, a book cover, a hand's edge closed by the frame)
        // is not, whatever its outline scores. The best quad with a printed inside wins; when none has one, the best
        // quad stays but its confidence falls with how bare it is.
        // Past the first `quadsVerified` (the second pass keeps more: a plain object and its variants can fill
        // them), an outline wins only when seen whole, with no frame-border side and every corner in the frame: that
        // deep in the ranking, an outline closed by the frame is as likely background edges reaching the frame's edge
        // — unless its inside is printed twice as densely as a card's must be (`minDeepPrintedTexture`): background
        // edges closed by the frame do not enclose print, and a card leaving the frame held by a thumb over its side
        // ranks low (its support and corners suffer) while its print does not. (Measured on fourteen sets: two cut-off
        // cards found that were NO_DOCUMENT, none lost; at 1.7 × the bar one frame's desk was taken.)
        var best = ranked[0]
        var bestTexture = -1.0
        for (rank, candidate) in ranked.enumerated() {
            let deep = rank >= Self.quadsVerified && !seenWhole(candidate, width: w, height: h)
            if deep && !admitsDeepPrintedOutlines { continue }
            let texture = interiorTexture(candidate.corners, in: image)
            if deep && texture < Self.minDeepPrintedTexture { continue }
            // A printed inside that repeats (keys, bars, stripes: `InteriorPeriodicity`) is no card's; as the
            // fallback below it counts as bare.
            let printed = texture >= Self.minInteriorTexture
            let repeating = printed && rejectsRepeatingInsides && readsRepeats
                && periodicity.repeats(candidate.corners, in: printSource?.image ?? image)
            if printed && !repeating {
                best = candidate
                bestTexture = texture
                // Printed, but sparsely (a window's bars, a panel's seams): an outline seen whole apart from it,
                // printed as densely as a card's face is and scoring nearly as well, is the card
                // (`prefersDenselyPrinted`; not in the chroma search, whose colour outlines have their own rules).
                if prefersDenselyPrinted, printSource == nil, texture < Self.denselyPrintedTexture,
                   let dense = denselyPrinted(apartFrom: candidate, among: ranked[(rank + 1)...], image: image,
                                              width: w, height: h) {
                    best = dense.quad
                    bestTexture = dense.texture
                }
                break
            }
            if repeating, candidate.confidence > (passedOverRepeating?.confidence ?? 0) {
                let passed = searched(candidate)
                passedOverRepeating = (passed.quad, passed.confidence, passed.borders.contains(true))
            }
            if bestTexture < 0 { bestTexture = repeating ? 0 : texture }
        }
        if bestTexture < Self.minInteriorTexture {
            let share = max(0, bestTexture) / Self.minInteriorTexture
            best.confidence *= share * share
        }
        // A printed winner that runs out of the frame may be a card's sides run on to a line beyond the frame's edge,
        // over the card seen whole (`cardSeenWholeUnder`).
        if prefersCardsUnderRunOutWinners, bestTexture >= Self.minInteriorTexture,
           let card = cardSeenWholeUnder(runOut: best, among: ranked, image: image, width: w, height: h) {
            best = card
        }
        if let outer = container(of: best, image: image, width: w, height: h, quarters: quarters) { best = outer }
        if let completed = completeBand(best, image: image) { best = completed }
        return searched(best)
    }

    /// The first of `later` (ranked quads after `winner`) seen whole (no frame border, every corner in the frame) and
    /// lying apart from `winner` (neither's centre inside the other: not its print, nor around it), scoring at least
    /// `denselyPrintedScoreShare` of its score, printed inside at least `denselyPrintedTexture` and not repeating. (Not
    /// seen whole, a densely printed outline was a stripes' or a desk's closed by the frame, taken over a sparse winner
    /// that the search at the detection scale would have replaced with the card.)
    func denselyPrinted(apartFrom winner: RankedQuad, among later: ArraySlice<RankedQuad>, image: GrayImage,
                        width w: Int, height h: Int) -> (quad: RankedQuad, texture: Double)? {
        for other in later
        where other.score >= Self.denselyPrintedScoreShare * winner.score
            && seenWhole(other, width: w, height: h) && Self.apart(winner.corners, other.corners) {
            if let texture = printedInside(other.corners, atLeast: Self.denselyPrintedTexture, image: image) {
                return (other, texture)
            }
        }
        return nil
    }

    /// The print inside `corners` (`interiorTexture` on `image`) when it is at least `bar` and does not repeat (keys,
    /// bars, stripes: `InteriorPeriodicity`, with `rejectsRepeatingInsides`); nil otherwise. The test an outline other
    /// than the ranked winner must pass to replace it as a card's face (`denselyPrinted`, `cardSeenWholeUnder`).
    func printedInside(_ corners: Corners, atLeast bar: Double, image: GrayImage) -> Double? {
        let texture = interiorTexture(corners, in: image)
        guard texture >= bar,
              !(rejectsRepeatingInsides && periodicity.repeats(corners, in: printSource?.image ?? image)) else {
            return nil
        }
        return texture
    }

    /// `apart` for corner tuples (no arrays: it runs in the quad search): neither quad's centre inside the other.
    static func apart(_ a: Corners, _ b: Corners) -> Bool {
        let centreA = (a.0 + a.1 + a.2 + a.3) / 4, centreB = (b.0 + b.1 + b.2 + b.3) / 4
        return !Quadrilateral.contains(a.0, a.1, a.2, a.3, centreB)
            && !Quadrilateral.contains(b.0, b.1, b.2, b.3, centreA)
    }

    /// See `denselyPrinted`: a card's face (text, photo, guilloche) put edges at 0.41-0.86 of its inside on the
    /// traced misses of session 29; the window pane with its bars that won over a card on portrait 118 `glare_0002`,
    /// 0.30. A first version at 0.40 (an empty scene's outline taken) and at 0.50 (a sharp GOOD card traded for a
    /// denser outline) each lost a frame that 0.45 keeps.
    static let denselyPrintedTexture = 0.45
    static let denselyPrintedScoreShare = 0.8

    /// `quad` in canonical order (clockwise from top-left), with each side's border flag following its side.
    func searched(_ quad: RankedQuad) -> Searched {
        let found = QuadCorners(quad.corners)
        let ordered = Quadrilateral.ordered(found)
        var borders = QuadSideFlags(repeating: false)
        for i in 0..<4 {
            let a = ordered.corners[i], b = ordered.corners[(i + 1) % 4]
            for j in 0..<4 {
                let c = found[j], d = found[(j + 1) % 4]
                if (a == c && b == d) || (a == d && b == c) { borders[i] = lines[quad.sides[j]].border }
            }
        }
        return (ordered, quad.confidence, borders, quad)
    }

    /// The print a square-ish outline with `closedSides` sides without edge evidence (frame borders, sides with no
    /// visible sample: see `outlineWeight`) needs inside to be kept (`bestQuad`): `minDeepPrintedTexture`, or
    /// `minSquarePartAtOneBorderTexture` for one (three sides of its own) with `admitsLessPrintedSquarePartsAtOneBorder`.
    func squarePartMinTexture(closedSides: Int) -> Double {
        closedSides == 1 && admitsLessPrintedSquarePartsAtOneBorder ? Self.minSquarePartAtOneBorderTexture
            : Self.minDeepPrintedTexture
    }

    /// The ranking weight of a quad with `closedSides` sides that carry no edge evidence (frame borders standing in
    /// for a side, sides with no visible sample): each costs a quarter, so a real edge beats the frame itself.
    @inline(__always)
    static func outlineWeight(closedSides: Int) -> Double {
        closedSides == 0 ? 1 : (closedSides == 1 ? 0.75 : 0.5625)
    }

    /// Whether a quad whose lines `c1`, `c2` converge past `minOppositeCosine` can be a card's: its other lines `v1`,
    /// `v2` (|cos| `parallel` between them) nearly parallel, and the shorter of their stretches between `c1` and
    /// `c2` at least `minFarSideShare` of the longer (positions in `active`; `crossing` is `crossings`).
    @inline(__always)
    static func convergesAsACard(_ lines: (c1: Int, c2: Int, v1: Int, v2: Int, parallel: Double),
                                 crossing: UnsafeMutablePointer<SIMD2<Double>>, activeCount: Int) -> Bool {
        guard lines.parallel >= minParallelBesideConverging else { return false }
        func stretch(_ v: Int) -> Double {
            let d = crossing[v * activeCount + lines.c1] - crossing[v * activeCount + lines.c2]
            return (d * d).sum().squareRoot()
        }
        let a = stretch(lines.v1), b = stretch(lines.v2)
        return min(a, b) >= minFarSideShare * max(a, b)
    }

    /// Whether opposite sides crossing at `x`, inside a portrait frame, can be a card's: outside the centred square
    /// of the frame's short side. The vanishing point of a card's sides pitched by t lies f / tan t from the frame's
    /// centre; in a portrait frame the focal length f is about 0.8 × the short side (the field of view is across the
    /// width), so a card pitched past ~45° has its sides meet inside the frame, never near its centre (t ≤ ~65°).
    static func vanishesInFrame(_ x: SIMD2<Double>, width w: Int, height h: Int) -> Bool {
        let half = Double(min(w, h)) / 2
        return abs(x.x - Double(w) / 2) > half || abs(x.y - Double(h) / 2) > half
    }

    /// Whether a ranked quad has no frame-border side and every corner inside the frame.
    func seenWhole(_ quad: RankedQuad, width w: Int, height h: Int) -> Bool {
        for s in 0..<4 where lines[quad.sides[s]].border { return false }
        return Quadrilateral.liesInside(quad.corners.0, quad.corners.1, quad.corners.2, quad.corners.3, width: w,
                                        height: h)
    }

    /// The share of a band's edge among the vote's lines that must carry an edge of one polarity.
    static let minBandSupport = 0.6
    /// The same for a band's edge found by the band search (not by the vote): half, not `minBandSupport`. That edge is faint, as the band is near its background's shade,
    /// and fewer of its samples clear the edge threshold (framegen's green headers on purple walls: 0.59). Measured
    /// on the twelve document sets: at 0.5, 16 more bands than at 0.6, each closer to the true corners; at 0.4, 33,
    /// two of them background lines taken for a band's edge.
    static let minSearchedBandSupport = 0.5

    /// The quad with its missing band restored, or nil. A quad longer than an identity document can look is a card
    /// one of whose bands was not closed by its own edge: a light band (an MRZ strip) or a dark one (a header) against
    /// a background of its shade, the quad closed instead on the edge between that band and the card's body. The
    /// card's outer edge is then a candidate line parallel to that long side, outside it by about the missing band's
    /// width, supported along its length, with the short sides' edges running on to it. How long is too long: a
    /// card seen nearly square-on (`maxSquareOnSkew`) measures within a few % of ID-1 (`longestSquareOnAspect`);
    /// one turned further away is lengthened by its foreshortening, up to `longestQuadAspect` within the skew test.
    /// (Until 2026-12-01 every quad was held to the second: quads of 1.75–1.98 square-on, a card without its MRZ or
    /// header band, were taken as they were: 130 of them on the twelve document sets.) With `searching` (`find`, on
    /// the outline it settled on), the band's edge is also searched for where no candidate line lies (below).
    func completeBand(_ quad: RankedQuad, image: GrayImage, searching: Bool = false) -> RankedQuad? {
        var c = QuadCorners(quad.corners)
        let (even, odd) = Quadrilateral.meanOppositeSides(c)
        let long = max(even, odd), short = max(1, min(even, odd))
        let longest = Quadrilateral(corners: c).skewDegrees <= Self.maxSquareOnSkew
            ? IDCard.longestSquareOnAspect : IDCard.longestQuadAspect
        guard long / short > longest else { return nil }
        let missing = long / IDCard.aspect - short
        let centre = (c[0] + c[1] + c[2] + c[3]) / 4
        // Each long side that is not a frame border: its middle and the normal pointing away from the quad.
        var longSides = InlinePair<(side: Int, middle: SIMD2<Double>, outward: SIMD2<Double>)>()
        for side in even >= odd ? stride(from: 0, through: 2, by: 2) : stride(from: 1, through: 3, by: 2)
        where !lines[quad.sides[side]].border {
            let middle = (c[side] + c[(side + 1) & 3]) / 2
            var outward = lines[quad.sides[side]].normal
            if ((centre - middle) * outward).sum() > 0 { outward = -outward }
            longSides.append((side, middle, outward))
        }
        // Where a line must lie to be the band's edge beyond a long side: nearly parallel, outside it by about the
        // missing band's width (`slack` widens both for a line the vote found, before its refit moves it by up to a
        // degree and a couple of pixels).
        func beyond(_ line: Line, _ g: (side: Int, middle: SIMD2<Double>, outward: SIMD2<Double>),
                    slack: Double) -> Bool {
            let facing = (g.outward * line.normal).sum()
            guard abs(facing) >= 0.985 - 0.015 * slack else { return false }
            let t = (line.rho - (g.middle * line.normal).sum()) / facing
            return t >= (0.6 - 0.15 * slack) * missing - 3 * slack && t <= (1.5 + 0.2 * slack) * missing + 3 * slack
        }
        // The new side along line `k` beyond long side `g`, when it can be the band's edge: an edge of one polarity
        // with a step across it along at least `minSupport` of its length, and a short side's line carrying an edge
        // (of either polarity: the band is another colour) over the band; one is enough, the band may match the
        // background on the other side. Its support and ends, or nil.
        func bandEdge(_ k: Int, beyond g: (side: Int, middle: SIMD2<Double>, outward: SIMD2<Double>),
                      minSupport: Double) -> (support: Double, start: SIMD2<Double>, end: SIMD2<Double>)? {
            let table = lineTable
            let lines = table.lines, side = g.side
            let before = quad.sides[(side + 3) & 3], after = quad.sides[(side + 1) & 3]
            guard profiled[k], !lines[k].border, !lines[k].unsupported, k != quad.sides[side],
                  beyond(lines[k], g, slack: 0),
                  let p = Self.intersect(lines[k], lines[before]), let q = Self.intersect(lines[k], lines[after])
            else { return nil }
            let d = SIMD2(-lines[k].normal.y, lines[k].normal.x)
            let sums = table.segment(k, (p * d).sum(), (q * d).sum())
            guard sums[0] >= 8, sums[3] > 0, Double(sums[2]) >= Self.minStepness * Double(sums[3]) else { return nil }
            let polarity: Float = sums[4] >= 0 ? 1 : -1
            let support = Double((sums[1] + polarity * sums[4]) / 2) / Double(sums[0])
            guard support >= minSupport else { return nil }
            // (Each short side in turn, not a list of them: this runs for every candidate line.)
            func carries(_ index: Int, from: SIMD2<Double>, to: SIMD2<Double>) -> Bool {
                guard !lines[index].border else { return false }
                let e = SIMD2(-lines[index].normal.y, lines[index].normal.x)
                let part = table.segment(index, (from * e).sum(), (to * e).sum())
                return part[0] >= 3 && Double(part[1]) >= 0.5 * Double(part[0])
            }
            let carriedBefore = carries(before, from: c[side], to: p)
            let carriedAfter = carries(after, from: c[(side + 1) & 3], to: q)
            return carriedBefore || carriedAfter ? (support, p, q) : nil
        }
        // The band's edge may be any candidate line, not only one `readLines` kept (and read): those that can be
        // are read. (Not again when `searching`: every outline `find` settles on comes out of `bestQuad`, which has
        // looked among the candidate lines for it already.)
        var best: (side: Int, line: Int, support: Double, start: SIMD2<Double>, end: SIMD2<Double>)?
        if !searching { readRemainingLines(image) { line in longSides.contains { beyond(line, $0, slack: 1) } } }
        for g in longSides where !searching {
            for k in lines.indices {
                guard let edge = bandEdge(k, beyond: g, minSupport: Self.minBandSupport),
                      edge.support > (best?.support ?? 0) else { continue }
                best = (g.side, k, edge.support, edge.start, edge.end)
            }
        }
        // None: the vote may not have the band's edge at all (a header at its background's shade has a faint edge,
        // which loses to the frame's strong lines). It is searched for where it must lie (`BandLineSearch`, as the
        // fourth-side search does: the band's best lines however few votes they have), and held to the same test but
        // for its support (`minSearchedBandSupport`).
        // Each line is read as an extra line (not an active one) and dropped unless it is the best; the best is read
        // again at the end (the same refit and profile), so at most one line is left behind.
        if best == nil && searching {
            var chosen: (candidate: Line, side: Int, support: Double)?
            for g in longSides {
                let a = c[g.side], b = c[(g.side + 1) & 3]
                bandSearch.search(coarseGradients, width: image.width, height: image.height,
                                  band: (a + g.outward * (0.5 * missing), b + g.outward * (0.5 * missing),
                                         b + g.outward * (1.6 * missing), a + g.outward * (1.6 * missing)),
                                  reference: lines[quad.sides[g.side]].normal, count: Self.bandLines)
                for found in bandSearch.found {
                    let candidate = Line(normal: found.normal, rho: found.rho)
                    guard let k = readExtraLine(candidate, image) else { continue }
                    if let edge = bandEdge(k, beyond: g, minSupport: Self.minSearchedBandSupport),
                       edge.support > (chosen?.support ?? 0) {
                        chosen = (candidate, g.side, edge.support)
                    }
                    dropLastLine()
                }
            }
            if let chosen, let k = readExtraLine(chosen.candidate, image),
               let g = longSides.first(where: { $0.side == chosen.side }),
               let edge = bandEdge(k, beyond: g, minSupport: Self.minSearchedBandSupport) {
                best = (chosen.side, k, edge.support, edge.start, edge.end)
            }
        }
        guard let best else { return nil }
        c[best.side] = best.start
        c[(best.side + 1) & 3] = best.end
        var sides = quad.sides
        sides[best.side] = best.line
        return (c.tuple, quad.confidence, quad.score, sides)
    }

    /// The card around a winning quad that is only the card's photo, or nil. An ID-1 card's portrait photo is a
    /// printed rectangle standing upright on the landscape card: a squarish quad whose long axis runs across the
    /// card's. Its frame can outscore the card's own outline (a thumb or the frame's edge over a side, a card larger
    /// than the frame leaving little of its outline in view); the card is then an outline around the photo, across
    /// it, whose sides are among the lines already read (the frame's borders included). The photo inside already
    /// shows a document there, so that outline is held to lenient gates (see `evaluate`; one side meeting a frame
    /// border may be covered by the hand holding the card there, `coveredAtBorder`), but it must still be a
    /// well-supported outline of its own.
    func container(of inner: RankedQuad, image: GrayImage, width w: Int, height h: Int,
                   quarters: Bool, confidenceShare: Double = DocumentFinder.containerConfidenceShare,
                   cut: Bool = false) -> RankedQuad? {
        let c = QuadCorners(inner.corners)
        func length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }
        let (even, odd) = Quadrilateral.meanOppositeSides(c)
        let innerLong = max(even, odd), innerShort = max(1, min(even, odd))
        // (Around a part the frame cuts, the part may be longer than a photo: `maxCutPartAspect`.)
        let longestInner = cut && takesCutCardsAroundLongerParts ? Self.maxCutPartAspect : Self.maxPhotoAspect
        guard Self.mayBePhoto(inner, maxAspect: longestInner) else { return nil }
        var axis = even >= odd ? (c[1] - c[0]) + (c[2] - c[3]) : (c[2] - c[1]) + (c[3] - c[0])
        axis /= max(1e-9, length(axis))
        let innerArea = abs((c[2] - c[0]).x * (c[3] - c[1]).y - (c[2] - c[0]).y * (c[3] - c[1]).x) / 2
        let table = lineTable
        let lines = table.lines
        // Lines that do not cross the winning quad (they may run along its sides: a winning part of the card shares
        // sides with it), each with its normal turned toward it.
        // (Both lists in buffers kept from call to call: this runs in every quad search.)
        var around = containerAround, pairs = containerPairs
        containerAround = []
        containerPairs = []
        around.removeAll(keepingCapacity: true)
        pairs.removeAll(keepingCapacity: true)
        defer {
            containerAround = around
            containerPairs = pairs
        }
        let margin = 0.03 * innerShort
        // The winner's outline, its sides refitted to its own edges (read once, when first needed): on the coarse
        // image a photo's side of 25-40 px may be turned a few degrees, so that a corner of it lies outside the
        // card's side running along it, which then cuts it (camsim 85 `move_away_0009`: the photo's left side ran
        // from x = 34 to 43 at the detection scale, the card's side at 38). A line cutting the outline as voted but
        // not as refitted, within `maxSideAlongRefittedPhoto` of a refitted side, lies beside it too.
        var refitted: Corners?, refittedRead = !refitsPhotoOutlines
        for k in lines.indices {
            let line = lines[k]
            if !line.border {
                guard !line.unsupported, sampledRange[k].lo <= sampledRange[k].hi else { continue }
            }
            if let inward = Self.inwardNormal(of: line, beside: inner.corners, margin: margin) {
                around.append((k, inward))
                continue
            }
            guard Self.runsAlongASide(of: inner.corners, line: line, within: Self.maxRefitTurn) else { continue }
            if !refittedRead {
                refittedRead = true
                refitted = refinedCorners(inner.corners, borders: (lines[inner.sides[0]].border,
                                                                   lines[inner.sides[1]].border,
                                                                   lines[inner.sides[2]].border,
                                                                   lines[inner.sides[3]].border), in: image)
            }
            if let refitted, Self.runsAlongASide(of: refitted, line: line, within: Self.maxSideAlongRefittedPhoto),
               let inward = Self.inwardNormal(of: line, beside: refitted, margin: margin) {
                around.append((k, inward))
            }
        }
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
        let (lower, upper) = CandidateQuad.searchBox(width: w, height: h)
        let edgeFloor = self.edgeFloor
        var best: RankedQuad?
        for p in pairs.indices {
            let a1 = around[pairs[p].0].index, a2 = around[pairs[p].1].index
            for q in (p + 1)..<pairs.count {
                let b1 = around[pairs[q].0].index, b2 = around[pairs[q].1].index
                if a1 == b1 || a1 == b2 || a2 == b1 || a2 == b2 { continue }
                let borderCount = (lines[a1].border ? 1 : 0) + (lines[a2].border ? 1 : 0) + (lines[b1].border ? 1 : 0)
                    + (lines[b2].border ? 1 : 0)
                // (Around a part the frame cuts, only outlines closed by a frame border: see below.)
                guard borderCount <= 2, borderCount > 0 || !cut else { continue }
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
                let skews = candidate.cornerSkews(lengths)
                guard skews.least <= 0.87, aspect <= 3.2 else { continue }
                var alongInner = false
                if cut {
                    // A card the frame cuts (`cut`: only such outlines) shows its whole height, across its long sides,
                    // which run across the photo's long axis, but only part of its length, which may be shorter than
                    // its height: its visible outline has any aspect and either axis. Its height is read between the
                    // sides across the photo's axis, and the photo spans much of it (as below).
                    guard borderCount > 0 else { continue }
                    let aAcross = abs((n1 * axis).sum()) >= abs((m1 * axis).sum())
                    let height = aAcross ? (s1 + s3) / 2 : (s0 + s2) / 2
                    let visibleLength = aAcross ? (s0 + s2) / 2 : (s1 + s3) / 2
                    // (Its length is bounded by its height only when that is the card's own, between two of its
                    // sides; a frame border as one of them cuts the height too: a card held too close, larger than
                    // the frame both ways, shows any length for the height in view.)
                    let heightCut = aAcross ? lines[a1].border || lines[a2].border : lines[b1].border || lines[b2].border
                    guard innerLong <= 1.05 * height, innerLong >= 0.35 * height,
                          heightCut || visibleLength <= Self.maxCutContainerLength * height else { continue }
                } else {
                    // The card is landscape, its long axis runs across the photo's, and the photo spans much of the
                    // card's height (no more than all of it: a winning part of the card, closed by a line across it,
                    // spans all of it).
                    var cardAxis = s0 + s2 >= s1 + s3 ? candidate.e0 - candidate.e2 : candidate.e1 - candidate.e3
                    cardAxis /= max(1e-9, length(cardAxis))
                    let cardShort = min(s0 + s2, s1 + s3) / 2
                    guard aspect >= Self.minContainerAspect, innerLong <= 1.05 * cardShort,
                          innerLong >= 0.35 * cardShort else { continue }
                    // The winner may be a part of the card rather than its photo (the photo with the print beside
                    // it, closed on a glare patch's or a print line's edge), whose long axis runs along the card's.
                    // Such a card is taken only seen whole with a whole card's length and clearly more confident
                    // than the winner (below): a desk's outline around a whole card taken for a photo seldom is.
                    // In the colour search, only a card held across (`heldAcross`): the search takes no other
                    // (`acceptedInColour`), and a container it would refuse only throws away the outline inside it
                    // (fresh portrait 197 `good_0000`: a card held across, found at 0.74, gave way to an upright
                    // outline of the hand and the wall around it, refused: NO_DOCUMENT).
                    if containersInColourHeldAcross, printSource != nil,
                       !heldAcross(Quadrilateral(corners: QuadCorners(c0, c1, c2, c3))) { continue }
                    alongInner = abs((cardAxis * axis).sum()) > 0.5
                    if alongInner && !(takesCardsAlongTheirPart && borderCount == 0
                                       && Self.cardAlongPartAspects.contains(aspect)) { continue }
                }
                let sides = SIMD4(a1, b2, a2, b1)
                // The photo is printed on the card, its sides along the card's: in one plane, each side of the card
                // runs nearly as the photo's nearest side does. An outline of background lines around a card seen at
                // a slant (taken for a photo: squarish, turned away) runs as the background does.
                if requiresContainersAlignedWithInner, !Self.runsAlong(c, lines: lines, sides: sides) { continue }
                guard let (support, cornerness, evidenced, ends) = Self.evaluate(
                    table, edgeFloor: edgeFloor, lengths: SIMD4(s0, s1, s2, s3), xs: SIMD4(c0.x, c1.x, c2.x, c3.x),
                    ys: SIMD4(c0.y, c1.y, c2.y, c3.y), sides: sides, lenient: true, quarters: quarters,
                    coveredAtBorder: true, followsFlippedRuns: followsFlippedRunsToBorder,
                    forgivesGlare: forgivesSidesUnderGlare) else {
                    continue
                }
                let confidence = Self.outlineConfidence(support: support, shape: Self.aspectShape(aspect),
                                                        cornerness: cornerness, evidenced: evidenced,
                                                        fullEvidence: Self.lenientEvidence, ends: ends)
                let score = confidence * cornerness
                if alongInner && confidence < inner.confidence + Self.cardAlongPartMargin { continue }
                if score > (best?.score ?? 0) { best = ((c0, c1, c2, c3), confidence, score, sides) }
            }
        }
        guard let best, best.confidence >= Self.minContainerConfidence,
              best.confidence >= confidenceShare * inner.confidence,
              interiorTexture(best.corners, in: image) >= (cut ? minCutCardTexture : Self.minInteriorTexture)
        else { return nil }
        return best
    }

    /// The normal of `line` turned toward the quad with corners `corners` when the line does not cut it by more than
    /// `margin` (it may run along one of its sides), or nil when it cuts it.
    static func inwardNormal(of line: Line, beside corners: Corners, margin: Double) -> SIMD2<Double>? {
        let d = SIMD4((corners.0 * line.normal).sum(), (corners.1 * line.normal).sum(),
                      (corners.2 * line.normal).sum(), (corners.3 * line.normal).sum()) - line.rho
        let lowest = d.min(), highest = d.max()
        if lowest >= -margin && highest > margin { return line.normal }
        if highest <= margin && lowest < -margin { return -line.normal }
        return nil
    }

    /// Whether `line` runs within `degrees` of one of the sides of the quad with corners `corners`.
    static func runsAlongASide(of corners: Corners, line: Line, within degrees: Double) -> Bool {
        let least = cos(degrees * Double.pi / 180)
        func along(_ e: SIMD2<Double>) -> Bool {
            let length = (e * e).sum().squareRoot()
            // |cos| between the line's normal and the side's normal: the side's direction turned a right angle.
            return length > 0 && abs((SIMD2(-e.y, e.x) * line.normal).sum()) / length >= least
        }
        return along(corners.1 - corners.0) || along(corners.2 - corners.1) || along(corners.3 - corners.2)
            || along(corners.0 - corners.3)
    }

    /// Whether each of the lines `sides` indexes in `lines`, but the frame borders, runs within
    /// `maxContainerMisalignment` of one of the sides of the quad with corners `corners` (see `container`).
    static func runsAlong(_ corners: QuadCorners, lines: [Line], sides: SIMD4<Int>) -> Bool {
        for k in 0..<4 where !lines[sides[k]].border {
            if !runsAlongASide(of: (corners[0], corners[1], corners[2], corners[3]), line: lines[sides[k]],
                               within: maxContainerMisalignment) { return false }
        }
        return true
    }

    /// The largest angle (degrees) between a side of the card around a photo and the photo's nearest side (see
    /// `container`). The photo's sides and the card's meet at the same vanishing points, so they stay within a few
    /// degrees of each other; but a photo's outline is small on the coarse image (sides of 25-40 px, where a pixel off
    /// at each end turns a side 3-4°): a cut-off card held around its photo (portrait 7 `cut_off_0007`, fixture
    /// `held-card-around-photo-camsim-portrait-seed7.jpg`) read 8.7° between one side and the photo's. The outlines
    /// of background lines this refuses on the measured sets are refused at 8° and at 12° alike.
    static let maxContainerMisalignment = 12.0

    /// Whether a winning quad may be a card's portrait photo, around which `container` and `cardAroundPhoto` look for
    /// the card: at least `minContainerConfidence`, and at most `maxPhotoAspect` long for its width.
    static func mayBePhoto(_ quad: RankedQuad, maxAspect: Double = maxPhotoAspect) -> Bool {
        let (even, odd) = Quadrilateral.meanOppositeSides(QuadCorners(quad.corners))
        return quad.confidence >= minContainerConfidence && max(even, odd) / max(1, min(even, odd)) <= maxAspect
    }

    /// Inserts a scored quad into the best-first list of at most `keeping` distinct outlines.
    static func insert(_ candidate: RankedQuad, into ranked: inout [RankedQuad], sameOutline: Double, keeping: Int) {
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
        if ranked.count > keeping { ranked.removeLast() }
    }

    /// Share of the quad's inside (shrunk toward its centre, away from its own sides) whose gradient is at least the
    /// weak edge threshold, on a sparse grid of the detection image (or of `printSource`'s, or of
    /// `noiseMatchedPrint`'s for a frame that needs it, which have its size).
    func interiorTexture(_ corners: Corners, in searched: GrayImage) -> Double {
        let matched = printSource == nil ? noiseMatchedPrint?.prepared(for: searched) : nil
        let image = printSource?.image ?? matched?.image ?? searched
        let w = image.width, h = image.height
        // (Four corners as a tuple, no arrays: this runs for every ranked quad of a search.)
        let centre = (corners.0 + corners.1 + corners.2 + corners.3) / 4
        let inner = (centre + (corners.0 - centre) * 0.8, centre + (corners.1 - centre) * 0.8,
                     centre + (corners.2 - centre) * 0.8, centre + (corners.3 - centre) * 0.8)
        // Edge normals pointing inward (the quad's orientation is either way round).
        let turn = (inner.1 - inner.0).x * (inner.2 - inner.1).y - (inner.1 - inner.0).y * (inner.2 - inner.1).x
        let sign: Double = turn > 0 ? 1 : -1
        let low = pointwiseMin(pointwiseMin(pointwiseMin(inner.0, inner.1), inner.2), inner.3)
        let high = pointwiseMax(pointwiseMax(pointwiseMax(inner.0, inner.1), inner.2), inner.3)
        let x0 = max(1, Int(low.x.rounded(.up))), x1 = min(w - 2, Int(high.x))
        let y0 = max(1, Int(low.y.rounded(.up))), y1 = min(h - 2, Int(high.y))
        guard x0 <= x1, y0 <= y1 else { return 0 }
        let gradients = printSource?.gradients ?? matched?.gradients ?? coarseGradients
        let mp = gradients.magnitude.baseAddress!, weak = UInt16(gradients.weakThreshold), src = image.base
        var inside = 0, textured = 0, clipped = 0, washedOut = 0
        @inline(__always) func isInside(_ x: Int, _ y: Int) -> Bool {
            let p = SIMD2(Double(x), Double(y))
            @inline(__always) func leftOf(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Bool {
                let e = b - a, r = p - a
                return !(sign * (e.x * r.y - e.y * r.x) < 0)
            }
            return leftOf(inner.0, inner.1) && leftOf(inner.1, inner.2) && leftOf(inner.2, inner.3)
                && leftOf(inner.3, inner.0)
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
                    if mp[y * w + x] >= weak {
                        textured += 1
                    } else if src[y * w + x] >= Self.washedOutLuma {
                        washedOut += 1
                        if src[y * w + x] >= Self.clippedLuma { clipped += 1 }
                    }
                }
            }
            y += 2
        }
        // Clipped pixels hide the print: when they are most of the inside (an over-exposed card), the print is judged
        // on the rest (a blown-out window pane shows none there, an over-exposed card still shows some of its print).
        // A glare patch is a small part of a card and changes little. Short of clipping, over-exposure still washes
        // print out: the tone curve's shoulder squeezes a card's ink and paper together just under white, below the
        // weak edge threshold; in a scene bright as a whole (`washedOutSceneLuma`: only there is a mostly near-white
        // inside an over-exposed card rather than a light object in a scene exposed for its mid-tones), the print is
        // judged on the samples not washed out in the same way. (Clipped samples are washed out too, so an inside
        // mostly of neither is judged whole, and the scene's mean is read only for one that is, once.)
        guard inside > 0 else { return 0 }
        guard 2 * washedOut >= inside else { return Double(textured) / Double(inside) }
        let sceneLuma = image.meanLuma
        let hidden: Int
        if takesWashedOutCards && sceneLuma >= washedOutSceneLuma {
            hidden = washedOut
        } else if 2 * clipped >= inside {
            // A card is mostly clipped only when the whole scene is over-exposed; a blown-out region in a scene
            // exposed for its mid-tones is a light source (a window with its bars, a lamp, a screen), not a card.
            guard sceneLuma >= Self.overexposedSceneLuma else { return 0 }
            hidden = clipped
        } else {
            return Double(textured) / Double(inside)
        }
        // Nearly all hidden, what is left (a blown-out pane's rim, its bars) is too little to judge a print on.
        guard Double(inside - hidden) >= minUnclippedShare * Double(inside) else { return 0 }
        return Double(textured) / Double(max(1, inside - hidden))
    }

    /// `evaluate`'s support tests: a side of at least 8 visible samples with under this share of them of its
    /// polarity fails (the second for a side next to a frame border), unless it is the one partly hidden side
    /// (`minOccludedSupport`). `sideCanBeSupported` prunes quads by the weakest share that can pass (the border
    /// share, or `minOccludedSupport`) before they are built: change it with them.
    static let sideSupport = 0.4
    static let borderSideSupport = 0.7
    /// With `coveredAtBorder` (see `evaluate`): the support from which the one side meeting a frame border that a
    /// hand may cover passes (instead of `borderSideSupport`; the pruning uses it too), and the share of its end
    /// stretch at the border with an edge (of either polarity) up to which that end counts as covered: a hand over
    /// the edge hides it, where a line running on over background still crosses the background's edges.
    /// 0.45 since session 38 (0.5 before): the hand holding a cut card can hide more than half of the visible
    /// stretch of a side meeting the frame's edge (camsim small 156 `move_away_0008`: NO_DOCUMENT → MOVE_AWAY;
    /// tuning sets +4−0, held-out sets +8−0, test sets unchanged; at 0.42 and 0.4 a tuning frame is lost).
    static let coveredBorderSideSupport = 0.45
    static let maxCoveredEndEdgeShare = 1.0 / 3

    /// The share of an outline seen as edges (`evaluate`'s `evidenced`) from which its evidence counts in full.
    static let fullEvidence = 0.7

    /// An outline's confidence from `evaluate`'s readings: its sides' edge support, times `shape` (how near a card's
    /// proportions it is, `aspectShape`; 1 where the card's length is out of view), its cornerness, its evidence up
    /// to `fullEvidence` (0.7, or `lenientEvidence` for the lenient gates) and the support next to its corners. The
    /// one formula of the quad search, the container search and the search for a card spanning the frame.
    @inline(__always)
    static func outlineConfidence(support: Double, shape: Double, cornerness: Double, evidenced: Double,
                                  fullEvidence: Double, ends: Double) -> Double {
        support * shape * (0.5 + 0.5 * cornerness) * min(1, evidenced / fullEvidence)
            * (endsBase + (1 - endsBase) * ends)
    }

    /// The shape term of `outlineConfidence`: 1 for ID-1's long side / short side, falling to 0.8 away from it.
    @inline(__always)
    static func aspectShape(_ aspect: Double) -> Double {
        0.8 + 0.2 * exp(-pow(log(aspect / IDCard.aspect) / 0.35, 2))
    }

    /// The share of a side's visible samples inside a clipped patch (`Profile` lane 6: the sample and the pixels
    /// 3 px to either side across it at `clippedLuma` or more) from which `glareForgiven` reads the side over the
    /// rest of it.
    static let minSideUnderGlare = 0.1

    /// A side's support as the weak-side rule judges it (`evaluate`, `readPairSides`): with `forgiving`, where at
    /// least `minSideUnderGlare` of its `visible` samples lie inside a clipped patch (`underGlare`), its support over
    /// the samples outside the patch, if higher. No camera shows an edge inside a saturated patch: a glare spot over
    /// a card's side, or an over-exposed card against a bright background, leaves that stretch without an edge,
    /// and a side judged over its whole length read 0.36-0.47 there (camsim 2 `glare_0004`, portrait 92
    /// `too_bright_0003`), refused with the sides beside it under `strongSideSupport`. The confidence still weighs
    /// the side's support over all its samples: the patch hides evidence, it adds none.
    @inline(__always)
    static func glareForgiven(_ fraction: Double, visible: Double, underGlare: Float, forgiving: Bool) -> Double {
        support(fraction, visible: visible,
                over: samplesJudged(visible: visible, underGlare: underGlare, forgiving: forgiving))
    }

    /// A side's support `fraction` over its `visible` samples, read over `judged` of them (`samplesJudged`) instead:
    /// the same edges over fewer samples, never lower.
    @inline(__always)
    static func support(_ fraction: Double, visible: Double, over judged: Double) -> Double {
        judged == visible ? fraction : max(fraction, min(1, fraction * visible / judged))
    }

    /// The samples `glareForgiven` reads a side over: those outside a clipped patch when the rule applies (at least
    /// `minSideUnderGlare` of the `visible` samples inside one, at least 8 outside), else all `visible`.
    @inline(__always)
    static func samplesJudged(visible: Double, underGlare: Float, forgiving: Bool) -> Double {
        let outside = visible - Double(underGlare)
        guard forgiving, Double(underGlare) >= minSideUnderGlare * visible, outside >= 8 else { return visible }
        return outside
    }

    /// The positions along candidate line `index` of a side's ends `from` and `to` (as `evaluate` computes them,
    /// bit for bit, from the same crossings).
    @inline(__always)
    static func sideEnds(_ table: LineTable, line index: Int, from: SIMD2<Double>,
                         to: SIMD2<Double>) -> (Double, Double) {
        let line = table.lines[index]
        let d = SIMD2(-line.normal.y, line.normal.x)
        return (from.x * d.x + from.y * d.y, to.x * d.x + to.y * d.y)
    }

    /// A side's visible samples, the share of them with its edge (by quarters with `quarters`) and whether it is a
    /// step between two regions: what `evaluate`'s first pass reads of the side from t0 to t1 on line `index`, whose
    /// prefix sums over that segment are `sums`.
    @inline(__always)
    static func sideSupport(_ table: LineTable, line index: Int, _ t0: Double, _ t1: Double, sums: Profile,
                            quarters: Bool) -> (visible: Float, fraction: Double, isStep: Bool) {
        guard sums[0] > 0 else { return (0, 0, true) }
        let polarity: Float = sums[4] >= 0 ? 1 : -1
        let supported = (quarters ? table.quarterSupport(index, t0, t1)?.supported : nil)
            ?? (sums[1] + polarity * sums[4]) / 2
        let isStep = !(sums[3] > 0 && Double(sums[2]) < minStepness * Double(sums[3]))
        return (sums[0], Double(supported) / Double(sums[0]), isStep)
    }

    /// Whether a side of `visible` samples on candidate line `index` can pass `evaluate`'s support test with
    /// `minimum`: a side's samples of its polarity are at most its line's samples of the stronger polarity (of
    /// either polarity with `quarters`).
    @inline(__always)
    static func sideCanBeSupported(lineSupport: UnsafeMutablePointer<Double>, line index: Int, minimum: Double,
                                           visible: Int) -> Bool {
        let sideVisible = Double(visible)
        return !(sideVisible >= 8 && lineSupport[index] / sideVisible < minimum)
    }

    /// An upper bound of `support × min(1, evidenced / fullEvidence)` of `evaluate` for the same quad, from the
    /// sides' visible samples (`visibles`, side s from corner s to s + 1; any value for a border side) and each line's samples of its
    /// stronger polarity (no profile is read), or nil where `evaluate` would
    /// return nil because too little of the outline is visible. (Quads with a side that fails `sideCanBeSupported`
    /// are not built.)
    @inline(__always)
    static func evidenceBound(_ table: LineTable, lineSupport: UnsafeMutablePointer<Double>,
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
        return supported / visible * min(1, visible / (visible + borderLength) / fullEvidence)
    }

    /// (edge support of the visible sides 0…1, cornerness 0…1, share of the perimeter seen as real sides, edge
    /// support next to the corners 0…1) or nil when these four lines do not outline one object. Side s runs from corner s to corner s + 1 on line `sides[s]`.
    static func evaluate(_ table: LineTable, edgeFloor: Double, lengths: SIMD4<Double>, xs: SIMD4<Double>,
                                 ys: SIMD4<Double>, sides: SIMD4<Int>,
                                 lenient: Bool = false,
                                 quarters byQuarter: Bool = false,
                                 coveredAtBorder: Bool = false,
                                 followsFlippedRuns: Bool = true,
                                 forgivesGlare: Bool = false) -> (Double, Double, Double, Double)? {
        let lines = table.lines
        var supported = 0.0, visible = 0.0
        // With `coveredAtBorder`, the one side meeting a frame border that a hand may cover (see below), or -1.
        var coveredSide = -1
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
            // (The weak-side rule reads the side outside a clipped patch: `glareForgiven`.)
            let judged = Self.glareForgiven(fraction, visible: sideVisible, underGlare: sums[6],
                                            forgiving: forgivesGlare)
            // A visible side with hardly any edge along it means these lines do not outline one object, unless it
            // is the only such side and the others are strong: a thumb over the card's edge, or a glare patch
            // washing it out, hides part of one side (checked after the loop).
            if sideVisible >= 8 && judged < Self.sideSupport {
                guard judged >= Self.minOccludedSupport, weakSide < 0 else { return nil }
                weakSide = s
            }
            if sideVisible >= 8 && sums[3] > 0 && Double(sums[2]) < minStepness * Double(sums[3]) { return nil }
            // A card edge that runs out of the frame is an edge all the way: a side that only reaches the border
            // over background is a missed side, not a cut-off card. (With `coveredAtBorder`, one such side may be
            // partly covered: a card that leaves the frame is often held by its end there, a thumb over its edge.)
            // (Not counting the samples in a field of stripes along it, `StripeField`: over a striped desk any line
            // along the stripes has an edge all the way. The covered side's lower bar reads all its samples: read
            // without the stripes' there too, two cards held at the frame's edge were lost for one found, session 40.)
            if borders[(s + 3) & 3] + borders[(s + 1) & 3] > 0 && sideVisible >= 8
                && fraction * table.unstripedShare(sides[s], t0, t1, of: sums[1])
                    < (lenient ? Self.lenientBorderSideSupport : Self.borderSideSupport) {
                guard coveredAtBorder, fraction >= Self.coveredBorderSideSupport, coveredSide < 0 else { return nil }
                coveredSide = s
            }
            supported += fraction * sideVisible
            visible += sideVisible
            t0s[s] = t0
            t1s[s] = t1
            startPolarities[s] = Double(quarters.first)
            endPolarities[s] = Double(quarters.last)
            // (Never below a typical edge: beside a faint side, texture would look like the side running on.)
            strengths[s] = max(edgeFloor, Double(quarters.strength) / sideVisible)
            fractions[s] = judged
        }
        guard visible >= lengths.sum() * 0.35 else { return nil }
        if weakSide >= 0 {
            let strong = lenient ? Self.lenientStrongSideSupport : Self.strongSideSupport
            for s in 0..<4 where s != weakSide && borders[s] == 0 && fractions[s] < strong { return nil }
        }
        var cornerness = 1.0
        // Ends of sides at a frame border that carry their edge up to it, and whether one is covered (see below).
        var borderEndsReached = 0, coveredEnd = false
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
            // With `stripes`, the edge of the samples in a field of stripes along the line is not counted
            // (`StripeField`): only where the side runs on to the frame's border, as there any line along a striped
            // desk's stripes would; past a corner inside the frame a stripe running on is still the line running on.
            func continuation(_ from: Double, _ to: Double, _ polarity: Double, stripes: Bool = false) -> Double? {
                let part = table.segment(index, from, to)
                guard part[0] >= 3 else { return nil }
                let kept = stripes ? table.unstripedShare(index, from, to, of: part[1]) : 1
                return max(0, min(1, kept * polarity * Double(part[5] / part[0]) / sideStrength))
            }
            // Whether the side's edge runs on up to the frame border between `from` and `to` (true; also when the
            // stretch has no samples to read), or is covered there (false: with `coveredAtBorder`, one end of the
            // side that may be covered, with hardly any edge); nil when it is neither. The edge may run on at the
            // other polarity (`followsFlippedRunsToBorder`): where the background behind the card's edge turns from
            // darker than the card to brighter (a window, a lit wall), the same edge flips, and the stretch reads as
            // strongly the other way; texture or background along the line reads near 0 either way.
            func reachesBorder(_ from: Double, _ to: Double, _ polarity: Double) -> Bool? {
                guard let c = continuation(from, to, polarity, stripes: true), c < 0.5 else { return true }
                if followsFlippedRuns, let flipped = continuation(from, to, -polarity, stripes: true), flipped >= 0.5 {
                    return true
                }
                guard coveredAtBorder, !coveredEnd, coveredSide < 0 || coveredSide == s else { return nil }
                let part = table.segment(index, from, to)
                return Double(part[1]) <= Self.maxCoveredEndEdgeShare * Double(part[0]) ? false : nil
            }
            let direction: Double = t1 >= t0 ? 1 : -1
            let startAtBorder = borders[(s + 3) & 3] == 1, endAtBorder = borders[(s + 1) & 3] == 1
            // A side that meets a frame border must carry its edge all the way up to it: the card runs out of the
            // frame there. (Otherwise the border only stands in for a side the finder missed.) The first few
            // pixels are skipped: a card's rounded corner can sit just inside the frame.
            if startAtBorder || endAtBorder {
                let skip = min(10, 0.1 * length), inward = skip + max(4, min(16, 0.25 * length))
                if startAtBorder {
                    guard let reaches = reachesBorder(t0 + direction * skip, t0 + direction * inward,
                                                      startPolarities[s]) else { return nil }
                    if reaches { borderEndsReached += 1 } else { coveredEnd = true; coveredSide = s }
                }
                if endAtBorder {
                    guard let reaches = reachesBorder(t1 - direction * inward, t1 - direction * skip,
                                                      endPolarities[s]) else { return nil }
                    if reaches { borderEndsReached += 1 } else { coveredEnd = true; coveredSide = s }
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
        // A card that runs out of the frame carries its sides' edges up to the frame's edge; a border standing in
        // for a side the finder missed leaves the sides meeting it running on over background. A hand holding the
        // card by its end that leaves the frame can cover one side's end there (`coveredAtBorder`), but not every
        // side's: a covered end needs another that reaches its border.
        if coveredEnd && borderEndsReached == 0 { return nil }
        return (supported / visible, cornerness, visible / (visible + borderLength), ends)
    }
}
