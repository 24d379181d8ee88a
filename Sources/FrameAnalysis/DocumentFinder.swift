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
// 4. Two pairs of roughly opposite lines (up to 60° apart, 78° beside a parallel pair: a tilted card's sides
//    converge) form a quad; shapes a card cannot project to are dropped; the rest are scored by edge support, shape,
//    size, and whether their sides stop at the corners (a card's corner is where both edges end; lines that run on
//    past a "corner" are a background grid or a card that continues beyond the frame).
//    When no quad is good enough even among more lines, a card's fourth side is searched for where three of its
//    sides put it (a small or faint side can be missing from the frame-wide vote's strongest lines), and last each
//    quarter of a side is read at its own polarity (a side's edge flips where the background crosses the card's
//    brightness), and in a portrait frame a card pitched far is searched for (its sides meet inside the frame), and
//    a card leaving the frame with the holding hand over one side where it meets the frame's edge. A winner closed
//    by a frame border that reaches deeper into the frame than a cut-off card's part can is not a card: a card seen
//    whole elsewhere replaces it.
// 5. The winner's sides are refitted on the working image: along each side, the sub-pixel position of the
//    steepest step of the side's polarity; total-least-squares line through them, outliers dropped, refit.
// This file holds the finder's state and `find`; the steps live in DocumentFinder+Hough (1-2), +Profiles (3 and the
// fourth-side search's lines), +Quads (4) and +Refinement (5); SobelGradients in its own file.
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
        /// Whether the search's winner had a side on a frame border, as `find` settled on it (before its band was
        /// completed); false from the other searches.
        var borderClosed = false
    }

    /// Gradient directions over the full circle: a document's side has one polarity along its length, so its votes
    /// gather in one cell, while a text stroke or a stripe (a ridge) splits into two weaker ones. 2° cells: each
    /// candidate line is refitted to its edge pixels afterwards, so the vote only has to find it.
    static let angleBins = 180
    static let cosQ: [Int32] = (0..<angleBins).map { Int32((cos(Double(2 * $0) * .pi / 180) * 1024).rounded()) }
    static let sinQ: [Int32] = (0..<angleBins).map { Int32((sin(Double(2 * $0) * .pi / 180) * 1024).rounded()) }
    /// atan(r / 256) in degrees, rounded, for r in 0…256.
    static let atanTable: [UInt8] = (0...256).map { UInt8((atan(Double($0) / 256) * 180 / .pi).rounded()) }
    /// Hough peaks read into profiles, and of those (outline-like ones only) the lines quads are built from.
    static let peaksKept = 400
    static let maxCandidates = 48
    static let maxCandidatesPerSector = 16
    /// Lines (besides the frame borders) quads are built from: at most `maxLines` in all and `maxLinesPerSector` per
    /// 30° of direction, or in the second pass (see `find`) nearly every candidate the vote keeps.
    static let maxLines = 24
    static let maxLinesPerSector = 7
    /// |cos| of the angle between two lines, at least which they may be opposite sides: a strongly tilted card's
    /// sides converge by up to 60° (as far as its corners may be off square), measured on camsim's tilted cards.
    static let minOppositeCosine = 0.5
    /// With `admitsSteeplyConvergingSides`, two lines neither of them a frame border may be opposite sides down to
    /// this |cos| (78°): a card turned 50-60° near the camera has its sides across the turn converge by up to 76°
    /// (camsim's tilted cards: |cos| 0.24-0.5). Such a quad must then have its other two sides nearly parallel (at
    /// least `minParallelBesideConverging`: a card turned about one axis keeps the sides along that axis parallel),
    /// and the shorter of those at least `minFarSideShare` of the longer (foreshortening: the far side of every
    /// tilted card of the tuning sets is 0.40-0.68 of the near one; a wedge of a desk's line and a card's edge is
    /// far narrower).
    static let minConvergingCosine = 0.2
    static let minParallelBesideConverging = 0.97
    static let minFarSideShare = 0.4
    /// Whether opposite sides may converge past `minOppositeCosine`, down to `minConvergingCosine` (see there).
    /// Always on; tests turn it off to show the frames it decides.
    var admitsSteeplyConvergingSides = true
    static let secondPassLines = 44
    static let secondPassPerSector = 14
    /// An accepted winner of the first search below this confidence, not closed by a frame border, is searched again
    /// among the second pass's lines (see `find`).
    static let reconsideredBelow = 0.8
    /// Lines the fourth-side search (see `addFourthSides`) may add, at most: per seed, the best `bandLines` of its
    /// band, for the best `fourthSideSeeds` seeds (three sides, each with an edge along at least `minSeedSupport`
    /// of it) by support × span and the `cleanestSeeds` best by support alone. Its outline is accepted only within
    /// `maxSearchedSkew` degrees of square (AnalysisThresholds' default `maxSkew`, beyond which a card is TILTED).
    static let maxAddedLines = 16
    /// Two lines within 4° (cos 4°) and `sameLineOffset` of each other are one line. At 5° (until session 38) a
    /// card's side 4-5° off a stronger line beside it (a band's edge, a background line it meets) was dropped as that
    /// line, and the outline built on the stronger one scored below the card's own (portrait 94 `good_0004`: the
    /// card's right side, truth outline 0.74, found 0.50: NO_DOCUMENT). At 3° far more lines split into two.
    static let sameLineCosine = 0.99756
    static func sameLineOffset(shortSide: Int) -> Double { max(2.0, Double(shortSide) * 0.025) }
    static let fourthSideSeeds = 10
    static let cleanestSeeds = 3
    /// Seeds the search for a card around a weak winner (see `find`) tries: its best one that shares two of the
    /// winner's sides (on fifteen sets the best one found every card the ten-plus-three seeds did).
    static let aroundWeakWinnerSeeds = 1
    static let bandLines = 2
    static let minSeedSupport = 0.6
    static let maxSearchedSkew = 15.0
    /// The largest angle (degrees) between a side of an outline closed by a frame border and the nearest side of an
    /// outline inside or across it for the inner one to be taken for the outer card's print (see `printAligned`).
    static let maxPrintMisalignment = 6.0
    /// How far (share of the frame's short side) a card's corners keep from a border-closed outline's sides for the
    /// card to be lying clear inside it (`cardLyingInside`).
    static let cardInsideMargin = 0.03
    /// How much more confident than a border-closed winner a card seen whole and square-on inside it must be to be
    /// taken however near the winner's sides it lies (`cardLyingInside`'s `nearItsSides`).
    static let cardNearSidesMargin = 0.05
    /// How much more confident than a border-closed winner an outline seen whole, of any shape, must be to replace it
    /// (`farMoreConfidentWhole`).
    static let farMoreConfidentMargin = 0.15
    /// The largest deviation of a corner from square (degrees) with which a quad counts as seen nearly square-on in
    /// the search for a missing band (`completeBand`): below it, foreshortening does not lengthen a card much.
    static let maxSquareOnSkew = 15.0
    /// The search for a card pitched far in a portrait frame (see `find`): the sine of a corner's deviation from
    /// square (20°) from which a square-ish quad may be a card turned away (`turnedAwaySkew`; see `bestQuad`), and
    /// the deviation its winner must reach (`minPitchedSkew`). camsim's strongly tilted cards in portrait frames have
    /// a corner 25° or more off square.
    static let turnedAwaySkew = 0.34
    static let minPitchedSkew = 20.0
    /// Under this aspect (the mean long side over the mean short side) an outline is square-ish: `bestQuad`'s square
    /// parts (a card seen head-on is 1.586 long; square-ish, it is turned away or no card).
    static let squareishAspect = 1.2
    /// Share of each quarter of a side whose edge flips polarity once that must carry its edge (see `LineTable`'s
    /// `quarterSupport`).
    static let minFlippingQuarter: Float = 0.6
    /// Brightness difference across a side / the step its gradient implies, below which the side is a painted line
    /// or a joint (same brightness both sides), not the edge between the document and its background.
    static let minStepness = 0.35
    /// Edge support near a side's ends (see `evaluate`) that counts as a whole corner, and the confidence factor of
    /// a quad whose sides carry no edge near any of its corners.
    static let fullEndSupport = 0.8
    static let endsBase = 0.5
    /// A side may be partly hidden (a thumb, a glare patch) when it still has this much edge along it and every
    /// other side at least `strongSideSupport`.
    static let minOccludedSupport = 0.25
    static let strongSideSupport = 0.85
    /// The same gates for the outline around a card's photo (see `container`): a side meeting a frame border needs
    /// this much edge (not 0.7), the sides beside a partly hidden one this much (not `strongSideSupport`), and the
    /// outline inside the frame counts as fully evidenced from this share (not 0.7).
    static let lenientBorderSideSupport = 0.5
    static let lenientStrongSideSupport = 0.55
    static let lenientEvidence = 0.35
    /// A winning quad of at least `minContainerConfidence` and at most `maxPhotoAspect` long for its width may be a
    /// card's portrait photo (see `container`); the card around it is at least `minContainerGrowth` times its area,
    /// at least `minContainerAspect` long for its width (landscape), and reaches `minContainerConfidence` and
    /// `containerConfidenceShare` of the photo's confidence (a card's outline is nearly as clear as its photo's).
    static let maxPhotoAspect = 1.6
    /// The longest a winner seen whole may be for its width and still be a part of a card the frame cuts, around
    /// which that card is looked for (`cutCardAround`, with `takesCutCardsAroundLongerParts`): a card's photo with the
    /// print beside it, closed by a print line across the card, or the card without its header band, 1.7-1.9 (camsim
    /// small 170 `cut_off_0003`, 1.74; small 152 `cut_off_0000`, 1.71). Measured in docs/capture.md ("The cut card
    /// around a longer part").
    static let maxCutPartAspect = 1.9
    /// A line cutting a photo-like winner may be a side of the card around it when it does not cut the winner's
    /// outline refitted to the winner's edges (`refine`) and runs within this many degrees of one of the refitted
    /// sides: a card's side beside its photo's runs as the photo's does (`container`). Measured at 2°, 3° and 5°: at
    /// 3°, a line 2.7° off a side closed an outline around a blurred whole card taken for a photo, down to the frame's
    /// bottom (portrait 86 `blurry_0005`). The outline is refitted only for lines within `maxRefitTurn` of a voted
    /// side: `refine` turns a side at most 6°.
    static let maxSideAlongRefittedPhoto = 2.0
    static let maxRefitTurn = 8.0
    static let minContainerGrowth = 1.8
    static let minContainerAspect = 1.3
    /// A card the frame cuts, taken around its photo, shows at most this much of its length for its height (an ID-1
    /// card is 1.586 long; the margin takes perspective).
    static let maxCutContainerLength = 1.75
    static let minContainerConfidence = 0.6
    /// A card around a winner that runs along it (the winner a part of the card, not its photo) is taken only seen
    /// whole with a whole card's length (ID-1's 1.586 with the margin perspective gives) and at least this much more
    /// confident than the winner (`container`, `takesCardsAlongTheirPart`).
    static let cardAlongPartAspects = 1.4...1.75
    static let cardAlongPartMargin = 0.1
    static let containerConfidenceShare = 0.9
    /// The search for the card around a photo-like winner among the lines of the bands where its sides must lie
    /// (`cardAroundPhoto`): the largest share of the frame a card's photo takes (an ID-1 card's photo is about a
    /// fifth of the card, a passport page's a seventh, and a card held too close fills the frame), and how far beyond
    /// the photo's long sides (one of the card's ends: an ID-1 card is ~2.7 photo heights long) and short sides (the
    /// card's long sides) the bands reach, in photo lengths.
    static let maxPhotoFill = 0.25
    static let photoToCardEnd = 4.5
    static let photoToCardSide = 0.9
    /// The most lines taken from each band, and how far (cosine of 8°) they may turn from the photo's side: the
    /// card's sides run along its print, and a thumb's or the background's edges crossing the band at a slant
    /// (which the band search, made for perspective, reaches to ±15°) are not the card's.
    static let photoBandLines = 4
    static let photoAlignedCosine = cos(8 * Double.pi / 180)
    static let photoBandContainerShare = 0.8
    /// How many of the best distinct quads are checked for a printed inside, best first.
    static let quadsVerified = 4
    /// ... and in the second pass (see `find`): a plain object's strong outline (a phone, a notebook, a dark desk
    /// mat) and its variants through neighbouring lines can fill the first few, all bare, above a card seen at a
    /// slant or small.
    static let widerQuadsVerified = 12
    /// Share of a document's inside with edges at least the weak threshold: an ID card's printed face (text, photo,
    /// guilloche) has far more, a plain object (window pane, box, hand) far less.
    static let minInteriorTexture = 0.3
    /// Twice that: an outline closed by a frame border, deep in the ranking (past `quadsVerified`), wins only with
    /// this much print inside (see `bestQuad`).
    static let minDeepPrintedTexture = 2 * minInteriorTexture
    /// The print a square-ish outline closed by one frame border needs inside to be kept (see `bestQuad`), with
    /// `admitsLessPrintedSquarePartsAtOneBorder`: five thirds of a card's, under `minDeepPrintedTexture`. Such an
    /// outline has three sides of its own, two of them carrying their edges up to the border (`evaluate`), where one
    /// closed by two borders has two; background edges closed by the frame seldom make three such sides around print.
    static let minSquarePartAtOneBorderTexture = 5.0 / 3.0 * minInteriorTexture
    /// Mean luma of a scene below which a mostly clipped quad is a light source rather than an over-exposed card
    /// (measured: camsim's windows sit in scenes of 84–146, its over-exposed frames are 197 and up; framegen's
    /// over-exposed cards, lit apart from their background, in scenes of 160 and up).
    static let overexposedSceneLuma = 150.0
    /// Luma at or above which a detection-image pixel is clipped (its print, if any, is not visible).
    static let clippedLuma: UInt8 = 245
    /// Luma at or above which a detection-image pixel without an edge is washed out: near white, where an
    /// over-exposed card's print is squeezed under the weak edge threshold (`interiorTexture`).
    static let washedOutLuma: UInt8 = 235
    /// Mean luma of a scene from which a mostly washed-out quad is judged on its other samples: the scene is bright
    /// as a whole. Between the tuning sets' scenes exposed for their mid-tones (90th percentile 154; an empty scene
    /// at 152 had a cyan eraser, mostly near white, taken for a card at 150) and their over-exposed ones (1st
    /// percentile 190). Tests lower it to show what it keeps out.
    var washedOutSceneLuma = 170.0
    /// Whether `interiorTexture` judges a mostly washed-out inside, in a bright scene, on its other samples
    /// (`washedOutLuma`). Always on; tests turn it off to show the frames it decides.
    var takesWashedOutCards = true

    /// Gradients of the coarse image (line refits, profiles) and of its half-size copy (the vote).
    /// Whether the quad search skips quads with a side that provably fails `evaluate`'s first pass (`readPairSides`)
    /// and quads whose score bound cannot enter the ranking. Always on; tests turn it off to prove that the pruning
    /// never drops a quad that would be kept (the floors are copied from `evaluate`, and a stale copy or a bound
    /// that is not one would lose quads silently).
    var prunesUnsupportedSides = true
    /// Whether a quad's side with no visible sample weighs as a frame border does (see `bestQuad`). Always on; tests
    /// turn it off to show the frames it decides.
    var weighsUnseenSidesAsBorders = true
    /// Whether the winner's missing band is also searched for where the vote has no line (`completeBand` from
    /// `find`). Always on; tests turn it off to show the frames it decides.
    var searchesBandEdges = true
    /// Whether an outline closed by a frame border, ranked past `quadsVerified`, may still win when its inside is
    /// densely printed (`minDeepPrintedTexture`; see `bestQuad`). Always on; tests turn it off to show the frames it
    /// decides.
    var admitsDeepPrintedOutlines = true
    /// Whether a square-ish outline closed by a frame border (a cut-off card's part in view) may be a card when its
    /// inside is densely printed (`minDeepPrintedTexture`; see `bestQuad`). Always on; tests turn it off to show the
    /// frames it decides.
    var admitsSquarePrintedPartsAtBorders = true
    /// Whether such an outline closed by one frame border needs only `minSquarePartAtOneBorderTexture` of print
    /// inside (rather than `minDeepPrintedTexture`; see `bestQuad`). Always on; tests turn it off to show the frames it
    /// decides.
    var admitsLessPrintedSquarePartsAtOneBorder = true
    /// Whether an outline seen whole inside or across a border-closed winner, turned apart from its sides, replaces it
    /// (`printAligned`; in `find` and in `FrameAnalyzer`'s search at the detection scale). Always on; tests turn it
    /// off to show the frames it decides.
    var takesOutlinesTurnedApart = true
    /// Whether a quad whose inside repeats (keys, bars, stripes; `InteriorPeriodicity`) is passed over as a card in
    /// `bestQuad`. Always on; tests turn it off to show the frames it decides.
    var rejectsRepeatingInsides = true
    let periodicity = InteriorPeriodicity()
    /// The most confident quad `bestQuad` passed over for its repeating inside since the last `find` began (on the
    /// searched image), and whether a frame border closed it; read right after `find`. Such an outline (a striped
    /// desk's, a keyboard's) is where the half-size vote aliases a fine texture and misses the card's sides, so when
    /// nothing was accepted, `FrameAnalyzer` runs its search at the detection scale after it as after a border-closed
    /// winner (which it was, before it was passed over). `find`'s own border-closed follow-up does not take it: by
    /// then the fallback searches have run over the same lines.
    var passedOverRepeating: (quad: Quadrilateral, confidence: Double, borderClosed: Bool)?
    /// The best outline closed by a frame border that the search for a card held at the frame's edge found accepted
    /// but could not take since the last `find` began (an outline seen whole ranked above it: often the card's part,
    /// closed on its print), refined; read right after `find`. `FrameAnalyzer` takes it last, when none of its own
    /// searches found a card either (`takesHeldCardsLast`).
    var heldAtBorder: Found?
    /// Whether the search for a card held at the frame's edge ranks as many outlines as the wider searches
    /// (`widerQuadsVerified`, not `quadsVerified`; see `find`). Always on; tests turn it off to show the frames it
    /// decides.
    var ranksHeldOutlinesWidely = true
    /// Whether an accepted winner below `reconsideredBelow` is searched again among more lines (see `find`). Always
    /// on; tests turn it off to show the frames it decides.
    var searchesWeakWinnersAgain = true
    /// Whether a weak winner that may be a card's part is searched around for the card's missing side (see `find`).
    /// Always on; tests turn it off to show the frames it decides.
    var searchesAroundWeakWinners = true
    /// Whether the outline found around a weak winner must be larger than it to replace it (see `find`). Always on;
    /// tests turn it off to show the frames it decides.
    var aroundWeakWinnerMustBeLarger = true
    /// Whether the weak-side rule reads a side partly inside a clipped patch over the rest of it
    /// (`glareForgiven`). Always on; tests turn it off to show the frames it decides.
    var forgivesSidesUnderGlare = true
    /// Whether a border-closed winner is searched around for a card spanning the frame from one edge to the opposite
    /// one (`cardAcrossFrame`). Always on; tests turn it off to show the frames it decides.
    var takesCardsAcrossTheFrame = true
    /// Whether a card lying clear inside an accepted border-closed outline replaces it (see `cardLyingInside`).
    /// Always on; tests turn it off to show the frames it decides.
    var takesCardsLyingInside = true
    /// Whether a photo-like winner is searched around for its card among the lines of the bands where the card's
    /// sides must lie (`cardAroundPhoto`). Always on; tests turn it off to show the frames it decides.
    var searchesAroundPhotos = true
    /// Whether a card around a photo seen square-on and longer than a whole card, its band not found, is refused
    /// (`cardAroundPhoto`). Always on; tests turn it off to show the frames it decides.
    var refusesLongCardsAroundPhotos = true
    /// Whether the chroma search takes a card whose ring is textured one way only (a grained or striped surface it
    /// lies on; `acceptedInColour`). Always on; tests turn it off to show the frames it decides.
    var acceptsGrainAround = true
    /// Whether the card around a photo-like winner must run along the winner's sides (`container`). Always on; tests
    /// turn it off to show the frames it decides.
    var requiresContainersAlignedWithInner = true
    /// Whether the colour search takes a card around a photo-like winner only held across (`container`, `heldAcross`),
    /// as it takes any card. Always on; tests turn it off to show the frames it decides.
    var containersInColourHeldAcross = true
    /// Whether a square-ish outline seen whole in a portrait frame with a corner far off square is a card turned away
    /// in every quad search, not only the pitched one (`bestQuad`). Always on; tests turn it off to show the frames it
    /// decides.
    var admitsTurnedAwaySquares = true
    /// Where the searches record the outlines they find or take (`FrameAnalyzer.tracesSearch`); nil: not traced.
    var trace: SearchTrace?
    /// Whether an accepted winner not seen whole in a portrait frame is searched past for a card pitched far
    /// (`pitchedCardPast`). Always on; tests turn it off to show the frames it decides.
    var searchesPitchedPastWinnersNotSeenWhole = true
    /// Whether the searches after nothing was found take a square-ish outline turned far from square-on as held across
    /// (`heldAcross`), not only one whose longer sides run nearer the horizontal. Always on; tests turn it off to show
    /// the frames it decides.
    var takesTurnedAwaySquaresAsHeldAcross = true
    /// Whether a sparsely printed winner gives way to a densely printed outline apart from it that scores nearly as
    /// well (`bestQuad`, `denselyPrinted`). Always on; tests turn it off to show the frames it decides.
    var prefersDenselyPrinted = true
    /// Whether a printed winner that runs out of the frame gives way to an outline seen whole sharing two of its lines
    /// and scoring nearly as well (`bestQuad`, `cardSeenWholeUnder`). Always on; tests turn it off to show the frames
    /// it decides.
    var prefersCardsUnderRunOutWinners = true
    /// Whether a winner seen whole longer than a photo (up to `maxCutPartAspect`) is searched around for the card the
    /// frame cuts (`cutCardAround`, `container`'s `cut`). Always on; tests turn it off to show the frames it decides.
    var takesCutCardsAroundLongerParts = true
    /// Whether a line cutting a photo-like winner as voted but not with its sides refitted, and running along one of
    /// the refitted sides, may be a side of the card around it (`container`). Always on; tests turn it off to show
    /// the frames it decides.
    var refitsPhotoOutlines = true
    /// Whether a side's edge running on to the frame's border is read without the samples that lie in a field of
    /// stripes parallel to it (`StripeField`; lane 7 of the profiles). Always on; tests turn it off to show the
    /// frames it decides.
    var discountsStripeFields = true
    /// The least share of a cut card's part beside its photo on an edge (`printedBesidePhoto`), and of the cut card's
    /// inside (`interiorTexture`, not `minInteriorTexture`: `container` with `cut`). Measured in session 30 beside a
    /// whole card on a plain surface (taken for a photo): 0.001-0.08; beside a photo: 0.24-0.84. A card held too
    /// close, larger than the frame, shows its face's blank areas large at the coarse scale: camsim 108 `move_away_0004`
    /// read 0.16 beside its photo and 0.29 inside, `0002` 0.18 and 0.25 (still refused: the print beside its photo
    /// reads coherence 0.557, over `PrintedRegions.maxCoherence`). Session 30 set 0.2 and kept the whole card's 0.3
    /// inside; session 32 lowered them to 0.15, in that gap, and 0.2. Tests raise them to show what they let in.
    var minPrintBesidePhoto = 0.15
    var minCutCardTexture = 0.2
    /// The least share of an outline's inside that is not clipped for its print to be judged on the rest
    /// (`interiorTexture`, in a scene over-exposed as a whole): below it, the outline is bare. A blown-out window pane
    /// in a bright scene (mean over `overexposedSceneLuma`) leaves only a few samples of its rim and bars unclipped,
    /// all edges, and read "printed" at 1.0: portrait 101 `blurry_0001`, 109 `move_closer_0007` (fixture), a pane
    /// closed by the frame's top taken for a cut card. Measured at 0.05, 0.1 and 0.2 (docs/capture.md). Tests set it
    /// to 0 to show what it keeps out.
    var minUnclippedShare = 0.05
    /// Whether a side meeting a frame border may carry its edge up to it at the other polarity (`evaluate`'s
    /// `reachesBorder`). Always on; tests turn it off to show the frames it decides.
    var followsFlippedRunsToBorder = true
    /// The searched image as a window of a frame (`FrameAnalyzer.findInPrintedRegions`), and that frame's shape.
    struct SearchedWindow {
        /// Whether the frame (not the window) is portrait, taller than wide.
        var frameIsPortrait: Bool
    }
    /// Set while the searched image is only a window of the frame; nil: the searched image is the frame. In a window,
    /// the rules that hold only in portrait frames (a card turned or pitched far away, `admitsTurnedAwaySquares` and
    /// the pitched search) follow the frame's shape, the camera's field of view, not the window's; and the window's
    /// edges are no frame's edges, so an outline they close is no card the frame cuts (`searchesWindow`).
    var window: SearchedWindow?
    var searchesWindow: Bool { window != nil }
    /// Whether rules for portrait frames apply to an image `w` × `h` searched now (see `window`).
    func portrait(width w: Int, height h: Int) -> Bool { window?.frameIsPortrait ?? (h > w) }
    /// Whether the card around a photo-like winner may be one the frame cuts, its outline closed by a frame border
    /// (`container`): then only its height, across the photo's long axis, is known. Always on; tests turn it off to
    /// show the frames it decides.
    var takesCutCardsAroundPhotos = true
    /// Whether the card around a photo-like winner may run along it, the winner a part of the card rather than its
    /// photo (`container`). Always on; tests turn it off to show the frames it decides.
    var takesCardsAlongTheirPart = true
    /// Whether a card seen whole and square-on inside a border-closed winner, clearly more confident than it, is taken
    /// however near the winner's sides it lies (`find`'s border-closed follow-up, and `FrameAnalyzer`'s search at the
    /// detection scale after a border-closed answer). Always on; tests turn it off to show the frames it decides.
    var takesConfidentCardsNearTheSides = true
    /// Whether an outline seen whole far more confident than a border-closed winner replaces it whatever its shape
    /// (`farMoreConfidentWhole`). Always on; tests turn it off to show the frames it decides.
    var takesFarMoreConfidentWholes = true
    let coarseGradients = SobelGradients()
    /// Where a quad's print is read (`interiorTexture`) when that is not the searched image: the chroma search
    /// (`findInChroma`) searches the colour contrast but judges the print on the luma detection image.
    var printSource: (image: GrayImage, gradients: SobelGradients)?
    /// Where `interiorTexture` reads print in the luma searches (when `printSource` is not set) on a frame whose
    /// decode kept most of its noise: the noise-matched detection image (`NoiseMatchedPrintImage.prepared(for:)`,
    /// begun by `FrameAnalyzer` per frame; nil for the searched image of a frame that does not need it).
    var noiseMatchedPrint: NoiseMatchedPrintImage?
    let lumaGradients = SobelGradients()
    let voteGradients = SobelGradients()
    let voteImage = GrayImage()
    /// The fourth-side search's band vote (see `addFourthSides`), reused from seed to seed and frame to frame.
    let bandSearch = BandLineSearch()
    /// The lines of the last band `addBandLines` searched (indices in `lines`).
    var bandLineIndices: [Int] = []
    var accumulator: UnsafeMutableBufferPointer<UInt16> = .allocate(capacity: 1)
    /// Per candidate line, prefix sums along it: visible samples, supported samples, brightness step across,
    /// gradient step, and the supported samples and gradient step signed by the edge's polarity (which side is
    /// brighter): a document's side keeps one polarity along its length, wavy texture and stripes do not; then the
    /// samples inside a clipped patch (see `glareForgiven`).
    var profiles: UnsafeMutableBufferPointer<Profile> = .allocate(capacity: 1)
    typealias Profile = SIMD8<Float>
    /// The candidate lines with their profiles, as the quad searches read them.
    var lineTable: LineTable {
        LineTable(lines: lines, ranges: sampledRange, profiles: profiles.baseAddress!, stride: profileStride,
                  origin: profileOrigin, stripes: stripeLane)
    }
    /// The image the lines were last profiled on (the coarse detection image), kept for their stripe lane.
    var profiledImage: GrayImage?
    /// Per candidate line, whether its profile's stripe lane is filled (`StripeLane`).
    var stripeLaneFilled: UnsafeMutableBufferPointer<Bool> = .allocate(capacity: 1)
    /// The stripe lane's filler for the line table, or nil when stripe fields are not discounted.
    var stripeLane: StripeLane? {
        guard discountsStripeFields, let image = profiledImage else { return nil }
        return StripeLane(filled: stripeLaneFilled.baseAddress!,
                          image: StripeField.Image(source: UnsafePointer(image.base), gx: UnsafePointer(gx.baseAddress!),
                                                   gy: UnsafePointer(gy.baseAddress!),
                                                   magnitude: UnsafePointer(magnitude.baseAddress!),
                                                   width: image.width, height: image.height,
                                                   weak: UInt16(weakThreshold)))
    }
    /// A quad's corners in order, as a tuple: the quad search builds thousands of them, so no arrays.
    typealias Corners = (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>, SIMD2<Double>)
    /// A scored quad of the search: its corners, confidence, ranking score and the candidate lines of its sides.
    typealias RankedQuad = (corners: Corners, confidence: Double, score: Double, sides: SIMD4<Int>)
    /// A quad search's result (see `bestQuad`): the winner in canonical order, its confidence, its sides' border
    /// flags, and as ranked.
    typealias Searched = (quad: Quadrilateral, confidence: Double, borders: QuadSideFlags, winner: RankedQuad)
    var profileStride = 0, profileOrigin = 0
    var sampledRange: [(lo: Int, hi: Int)] = []
    /// Per candidate line, whether `readLines` refitted it and whether it profiled it (it stops reading lines that
    /// cannot be kept; `completeBand` reads the rest when it needs them).
    var refitted: [Bool] = []
    var profiled: [Bool] = []
    var lines: [Line] = []
    var peaks: [(votes: UInt16, angle: Int, rho: Int)] = []
    var pairs: [(Int, Int)] = []
    var edgePoints: [SIMD3<Double>] = []
    /// The four sides `refinedCorners` fits, kept from call to call.
    var fittedSides: [Line] = []
    /// Emptied lists of ranked quads kept for `bestQuad`'s next call (one per call in progress: the searches around a
    /// winner call it again), so that ranking allocates nothing once they have grown.
    var rankedQuadLists: [[RankedQuad]] = []
    /// A three-sided seed of the fourth-side search (`addFourthSides`): its score, third line, the corners where the
    /// third line meets the two opposite ones, the directions along those away from it, and the third side's span.
    typealias FourthSideSeed = (score: Double, third: Int, from: (SIMD2<Double>, SIMD2<Double>),
                                along: (SIMD2<Double>, SIMD2<Double>), span: Double)
    /// `addFourthSides`'s lists, kept between calls (`takenEmptied`).
    var keptSeeds: [FourthSideSeed] = [], keptChosenSeeds: [FourthSideSeed] = []
    var keptCleanestSeeds: [FourthSideSeed] = [], keptSeedLines: [Int] = []
    var perSector = [Int](repeating: 0, count: 6)
    let peakHistogram: UnsafeMutableBufferPointer<Int32> = .allocate(capacity: 4096)
    /// The peaks' sort keys (see `vote`).
    var peakOrder: UnsafeMutableBufferPointer<UInt64> = .allocate(capacity: 1)
    /// Per candidate line, its samples of its stronger polarity (active lines only; see `outlineSupport`): the quad
    /// search's bound on a side's support (see `sideCanBeSupported`).
    var lineSupports: UnsafeMutableBufferPointer<Double> = .allocate(capacity: 1)
    /// The same bound for the quad search by quarters, where each quarter of a side has its own polarity: per active
    /// line, its samples with an edge of either polarity (see `supportBound`). A buffer of its own, so that neither
    /// search leaves its bound to the next.
    var eitherPolaritySupports: UnsafeMutableBufferPointer<Double> = .allocate(capacity: 1)
    /// Per Hough angle, the first and last offset cell the image's pixels can vote for.
    let rowReach: UnsafeMutableBufferPointer<Int32> = .allocate(capacity: 2 * angleBins)
    /// Per active line, the active lines that cross it steeply (see `bestQuad`).
    let steepMasks: UnsafeMutableBufferPointer<UInt64> = .allocate(capacity: 64)
    /// Per active line, the active lines it crosses at a finite point inside the quad search's corner box.
    let cornerMasks: UnsafeMutableBufferPointer<UInt64> = .allocate(capacity: 64)
    /// Per active line, the index of the first pair whose first line it is (pairs are in (first, second) order).
    let pairStarts: UnsafeMutableBufferPointer<Int32> = .allocate(capacity: 65)
    /// The pairs one pair is combined with, and per pair the lines that can be a side between its two lines (see
    /// `bestQuad`).
    var laterPairs: UnsafeMutableBufferPointer<Int32> = .allocate(capacity: 1)
    var pairSideMasks: UnsafeMutableBufferPointer<UInt64> = .allocate(capacity: 1)
    /// Per pair, the lines in its side set whose side between its two lines is weak (below `sideSupport`, which
    /// `evaluate` allows on one side only), and those below `strongSideSupport` (see `bestQuad`).
    var pairWeakSides: UnsafeMutableBufferPointer<UInt64> = .allocate(capacity: 1)
    var pairNotStrongSides: UnsafeMutableBufferPointer<UInt64> = .allocate(capacity: 1)
    /// Per pair and active line (not a border) in its side set, that side's visible samples (see `bestQuad`).
    var pairSideCounts: UnsafeMutableBufferPointer<Int32> = .allocate(capacity: 1)
    /// Crossings of the active lines and the |cos| of the angles between them (see `bestQuad`).
    var crossings: UnsafeMutableBufferPointer<SIMD2<Double>> = .allocate(capacity: 1)
    var cosines: UnsafeMutableBufferPointer<Double> = .allocate(capacity: 1)
    /// Per sample of the line being refitted, 5 probes across it, and its position t (see `refitLine`).
    var refitProbes: UnsafeMutableBufferPointer<UInt16> = .allocate(capacity: 1)
    var refitTimes: UnsafeMutableBufferPointer<Double> = .allocate(capacity: 1)
    /// Indices into `lines` of the lines quads are built from.
    var active: [Int] = []
    /// `container`'s lists (the lines around a winning quad, and their opposite pairs), kept between calls.
    var containerAround: [(index: Int, inward: SIMD2<Double>)] = []
    var containerPairs: [(Int, Int)] = []
    var edgeThreshold: Int { coarseGradients.edgeThreshold }
    /// The least edge strength `evaluate` credits a side with (a quarter of the edge threshold: beside a faint side,
    /// texture would otherwise look like the side running on).
    var edgeFloor: Double { Double(edgeThreshold) / 4 }
    var weakThreshold: Int { coarseGradients.weakThreshold }
    var gx: UnsafeMutableBufferPointer<Int16> { coarseGradients.gx }
    var gy: UnsafeMutableBufferPointer<Int16> { coarseGradients.gy }
    var magnitude: UnsafeMutableBufferPointer<UInt16> { coarseGradients.magnitude }

    init() {
        lines.reserveCapacity(Self.maxCandidates + 4)
        sampledRange.reserveCapacity(Self.maxCandidates + 4)
        active.reserveCapacity(Self.maxCandidates + 4)
        peaks.reserveCapacity(4096)
        pairs.reserveCapacity(512)
        edgePoints.reserveCapacity(256)
        fittedSides.reserveCapacity(4)
        bandLineIndices.reserveCapacity(2 * Self.trackedLinesPerSide)
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
        eitherPolaritySupports.deallocate()
        stripeLaneFilled.deallocate()
        peakOrder.deallocate()
        steepMasks.deallocate()
        cornerMasks.deallocate()
        pairStarts.deallocate()
        laterPairs.deallocate()
        pairSideMasks.deallocate()
        pairWeakSides.deallocate()
        pairNotStrongSides.deallocate()
        pairSideCounts.deallocate()
    }

    /// The best card-like quad, located on `coarse` and refined on `working` (corners in working pixels), or nil.
    /// When the best quad's confidence is below `acceptance`, the quads are searched again among more lines, unless
    /// the frame's mean luma is above `widerSearchMaxLuma`.
    /// `gradientsComputed`: `coarseGradients` already hold `coarse`'s (a `track` that found nothing computed them).
    func find(coarse: GrayImage, working: GrayImage, acceptance: Double, widerSearchMaxLuma: Double,
              gradientsComputed: Bool = false, fallbacks: Bool = true, votingAtDetectionScale: Bool = false) -> Found? {
        let w = coarse.width, h = coarse.height
        let portrait = portrait(width: w, height: h)
        passedOverRepeating = nil
        heldAtBorder = nil
        guard w >= 16, h >= 16 else { return nil }
        guard readFirstLines(coarse, gradientsComputed: gradientsComputed,
                             votingAtDetectionScale: votingAtDetectionScale) else { return nil }
        var found = bestQuad(coarse, width: w, height: h)
        trace?.coarse("find.first", found)
        // The budget keeps the quad search cheap, but the strongest lines are not always the card's: a photo, a
        // printed face or a textured desk can fill a direction's share with lines that outvote a card's side (small
        // cards' sides most of all). A frame where no quad is good enough is searched again among every candidate
        // line the vote kept (the lines already read are reused); the quads of the first search are among those of
        // the second, so it can only find a better-scoring outline.
        // Not in an over-exposed frame: its card's edges are clipped into the background, and more lines there are
        // the clutter's (on camsim seeds 2-4 the wider search found no over-exposed card, only false quads).
        let widerSearch = voteImage.meanLuma <= widerSearchMaxLuma
        // A winner only just accepted is searched again among the second pass's lines: the budget can leave out one
        // or two of a card's sides while a lesser outline of the lines it keeps (a part of the card, its print with
        // one of its sides, a background outline) passes. The wider winner replaces it only with more confidence,
        // and neither may be closed by a frame border: a border-closed winner has its own follow-up below, and a
        // cut-off card's outline rests on less evidence than inner outlines of its part in view (with those, three
        // cut-off cards became MOVE_CLOSER on camsim seeds 2-4; camsim seed 17 `good_0009`: the card's part closed
        // by two borders outscored the card by 0.01). Measurements and cost in docs/capture.md ("Document quad").
        if searchesWeakWinnersAgain, let first = found, first.confidence >= acceptance,
           first.confidence < Self.reconsideredBelow, !first.borders.contains(true), widerSearch, fallbacks {
            readLines(coarse, budget: Self.secondPassLines, perSector: Self.secondPassPerSector, fresh: false)
            if let wider = bestQuad(coarse, width: w, height: h), wider.confidence > first.confidence,
               !wider.borders.contains(true) {
                found = wider
                trace?.coarse("find.widerSearch", wider)
            }
            // Still weak, it may be a card's part: a corner of the card closed by a print line or a thumb's edge,
            // where the card's side beyond it is not among the vote's lines at all (a direction crowded by the
            // card's print lines, `maxCandidatesPerSector`). The card then shares two sides with the winner and
            // has a third among the lines; its fourth is searched for as the fallback's fourth-side search does,
            // from the best such seed only. The outline found replaces the winner only around it (larger), with
            // more confidence, seen whole and near square. (camsim seed 35 `good_0019`: the card's lower right
            // part, MOVE_CLOSER, became the card, GOOD.)
            if searchesAroundWeakWinners, let weak = found {
                let firstSearched = lines.count, searchedFrom = active.count
                if addFourthSides(coarse, sharingTwoSidesOf: weak.winner.sides),
                   let around = bestQuad(coarse, width: w, height: h, requiring: ~((1 << UInt64(searchedFrom)) &- 1)),
                   around.confidence > weak.confidence, !around.borders.contains(true),
                   around.quad.area > weak.quad.area || !aroundWeakWinnerMustBeLarger,
                   around.quad.skewDegrees <= Self.maxSearchedSkew,
                   completesThreeSides(around.winner, searchedFrom: firstSearched, width: w, height: h) {
                    found = around
                    trace?.coarse("find.aroundWeakWinner", around)
                }
            }
        }
        var searchedFourth = false
        // `fallbacks` false (a stream where nothing was found lately, `CaptureTracker.searchesLightly`): the searches
        // below, which run only when the vote's quads gave no card, are left out; an accepted card is unaffected.
        if (found?.confidence ?? 0) < acceptance && widerSearch && fallbacks {
            readLines(coarse, budget: Self.secondPassLines, perSector: Self.secondPassPerSector, fresh: false)
            if let second = bestQuad(coarse, width: w, height: h, verified: Self.widerQuadsVerified) {
                found = second
                trace?.coarse("find.secondPass", second)
            }
            // Still nothing: where three of a card's sides are among the lines (two opposite, one across them), its
            // fourth may be too faint, or too short, to be among the frame's strongest lines; it is searched for
            // where a card's shape puts it (see `addFourthSides`). Such an outline rests on a line found by a search
            // that takes the best it can find, so it must also look like a card seen nearly square-on: an outline
            // that is far off square is as likely to be assembled from texture (stripes, waves) as to be a card.
            // (Only quads with a side on a searched line are new: the others were all searched above.)
            let firstSearched = lines.count, searchedFrom = active.count
            // (An outline far off square in a portrait frame is kept for the search for a pitched card, below.)
            var pitchedFourth: Searched?
            if (found?.confidence ?? 0) < acceptance {
                searchedFourth = true
                if addFourthSides(coarse),
                   let fourth = bestQuad(coarse, width: w, height: h, requiring: ~((1 << UInt64(searchedFrom)) &- 1)),
                   fourth.confidence > (found?.confidence ?? 0),
                   completesThreeSides(fourth.winner, searchedFrom: firstSearched, width: w, height: h) {
                    if fourth.quad.skewDegrees <= Self.maxSearchedSkew {
                        found = fourth
                        trace?.coarse("find.fourthSide", fourth)
                    } else if portrait {
                        pitchedFourth = fourth
                    }
                }
            }
            // Still nothing: a card's side keeps one polarity only while the background beside it stays darker (or
            // brighter) than the card's edge; where a shadow, a hand or a two-tone desk crosses it, the edge flips
            // polarity, and half the side counts against it. Last, the quads are searched once more with each
            // quarter of a side at its own polarity, for sides whose edge flips at most once (texture and stripes
            // flip all along; see `LineTable.quarterSupport`). Such an outline is accepted only with exactly one
            // flipping side, no frame border and every corner in the frame: a card seen whole.
            if (found?.confidence ?? 0) < acceptance {
                if let flipped = bestQuad(coarse, width: w, height: h, quarters: true),
                   flipped.confidence > (found?.confidence ?? 0), !flipped.borders.contains(true),
                   flipped.quad.liesInside(width: w, height: h),
                   flippingSideCount(flipped.winner) == 1 {
                    found = flipped
                    trace?.coarse("find.flippedSide", flipped)
                }
            }
            // Still nothing: a card pitched far from the camera in a portrait frame has its sides meet inside the
            // frame (see `vanishesInFrame`), which the searches above take for a wedge, and its outline can be
            // square-ish with one corner near square, which they take for a plain object seen head-on. Last, such
            // outlines are searched for, and the fourth-side search's best outline is taken back when only its
            // skew kept it out (it was kept apart above). One is accepted only seen whole (no frame border, every
            // corner in the frame) and far off square (`minPitchedSkew`): the card looked for is turned far away.
            // (In a landscape frame the focal length is about 0.8 × the long side: the sides meet inside only past
            // ~60°, beyond a card shown.)
            if (found?.confidence ?? 0) < acceptance, portrait {
                func accept(_ pitched: Searched?) {
                    if let pitched, pitched.confidence > (found?.confidence ?? 0),
                       seenWhole(pitched.winner, width: w, height: h), pitched.quad.skewDegrees >= Self.minPitchedSkew {
                        found = pitched
                        trace?.coarse("find.pitched", pitched)
                    }
                }
                accept(bestQuad(coarse, width: w, height: h, verified: Self.widerQuadsVerified, pitched: true))
                accept(pitchedFourth)
            }
            // Still nothing: a card that leaves the frame is often held by its end there, and the thumb covers its
            // edge where it meets the frame's edge (and part of that side), which the searches above take for a
            // border standing in for a missed side. Last, the quads are searched once more letting one side meeting
            // a frame border be covered so (see `evaluate`); only an outline closed by a frame border is taken.
            // It ranks as many outlines as the wider searches: the part of a cut card in view is small, its score
            // weighed down by its size and the border, and the bare outlines of the background below it (a hand, a
            // desk's edge closed by the frame) and their variants filled the first `quadsVerified` (portrait 101
            // `cut_off_0005`: the card at 0.68, ranked fifth or lower, behind four outlines of the lower frame
            // printed 0.00-0.07 inside). Ranked that deep, an outline closed by the frame still wins only densely
            // printed (`minDeepPrintedTexture`, `bestQuad`).
            if (found?.confidence ?? 0) < acceptance,
               let held = bestQuad(coarse, width: w, height: h,
                                   verified: ranksHeldOutlinesWidely ? Self.widerQuadsVerified : Self.quadsVerified,
                                   coveredAtBorder: true) {
                if held.confidence > (found?.confidence ?? 0), held.borders.contains(true) {
                    found = held
                    trace?.coarse("find.heldAtBorder", held)
                } else if !held.borders.contains(true),
                          let cut = bestQuad(coarse, width: w, height: h, coveredAtBorder: true, closedByBorder: true),
                          cut.confidence >= acceptance,
                          Self.ownCornersSkew(cut, width: w, height: h) <= Self.maxSearchedSkew {
                    // That search ranks every outline, and one seen whole (which it may not take) may have outranked
                    // a border-closed one that passes: a card's part closed on its print, above the card the frame
                    // cuts. Taken here, such an outline would come before searches that find a card seen whole (at
                    // the detection scale, in a printed window); so it is only recorded, refined, for `FrameAnalyzer`
                    // to take when they find nothing. Resting on a side the hand may cover, it must look like a card
                    // seen nearly square-on where its own corners show, as the fourth-side search's outlines must:
                    // the corners between two of its sides, in the frame, within `maxSearchedSkew` of square.
                    var recorded = refined(cut, from: coarse, on: working)
                    recorded.borderClosed = true
                    heldAtBorder = recorded
                    trace?.working("find.heldAtBorderRecorded", recorded)
                }
            }
        }
        // An accepted winner closed by a frame border does not end the search. The borders are candidate lines, and
        // an outline of background edges that reach the frame's edge (a desk's, a paper's, a hand's, a window's) is
        // closed by them just as a card leaving the frame is; so a card seen whole elsewhere in the frame is searched
        // for: among every candidate line but the borders, then with the fourth-side search. An accepted outline
        // apart from the border-closed one replaces it (one inside or around it may be a cut-off card's own print,
        // or a card around its cut-off print). (This ran only for border-closed outlines deeper than any card's
        // cut-off part can reach, 1.7 × its side opposite the border, until 2026-12-01: run for every one, it found
        // five more cards on the camsim sets, one on a held-out seed, made none wrong, and cost ~0.5 ms per frame
        // judged CUT_OFF or MOVE_AWAY.)
        if let closed = found, closed.confidence >= acceptance, widerSearch, !searchedFourth,
           closed.borders.contains(true) {
            readLines(coarse, budget: Self.secondPassLines, perSector: Self.secondPassPerSector, fresh: false)
            active.removeAll { lines[$0].border }
            var whole = bestQuad(coarse, width: w, height: h)
            let firstSearched = lines.count, searchedFrom = active.count
            if (whole?.confidence ?? 0) < acceptance && addFourthSides(coarse),
               let fourth = bestQuad(coarse, width: w, height: h, requiring: ~((1 << UInt64(searchedFrom)) &- 1)),
               fourth.confidence >= acceptance, fourth.quad.skewDegrees <= Self.maxSearchedSkew,
               completesThreeSides(fourth.winner, searchedFrom: firstSearched, width: w, height: h) {
                whole = fourth
            }
            // (Or one inside or across it but turned apart from its sides, which its print cannot be: a card lying
            // inside a desk's outline, `printAligned`. Or a card seen whole and square-on lying clear inside it,
            // however turned: `cardLyingInside`; near its sides too when clearly more confident than it, as a card's
            // print is not than the card's own outline: a card at a desk's or a keyboard's edge. Or any outline
            // seen whole, far more confident than it: `farMoreConfidentWhole`.)
            if let whole, whole.confidence >= acceptance,
               outlineSeenWhole(whole.quad, replaces: closed.quad, width: w, height: h)
                || takesCardsLyingInside && whole.confidence >= Self.reconsideredBelow
                    && (Self.cardLyingInside(whole.quad, clearOf: closed.quad, width: w, height: h)
                        || confidentCardNearTheSides(whole.quad, confidence: whole.confidence, inside: closed.quad,
                                                     closedConfidence: closed.confidence, width: w, height: h))
                || farMoreConfidentWhole(whole.quad, confidence: whole.confidence,
                                         closedConfidence: closed.confidence, width: w, height: h) {
                found = whole
                trace?.coarse("find.wholeBesideBorderClosed", whole)
            }
            // Still closed by a frame border, the winner may be a part of a card held so close that it spans the
            // frame from one edge to the opposite one, an outline the quad search does not build (`cardAcrossFrame`).
            if takesCardsAcrossTheFrame, !searchesWindow, let part = found, part.borders.contains(true),
               let card = cardAcrossFrame(around: part.winner, image: coarse, minConfidence: acceptance) {
                found = searched(card)
                trace?.coarse("find.cardAcrossFrame", found)
            }
        }
        // An accepted winner not seen whole in a portrait frame may be a card pitched far, its sides run on to a
        // background line or a side replaced by one: the pitched search looks for the card (`pitchedCardPast`). Not in
        // the search with the vote at the detection scale: the frame-wide search has looked already, and running it
        // there too changed no answer on 32 sets for 1.7 % more time on portrait frames.
        if widerSearch, fallbacks, !votingAtDetectionScale, let winner = found, winner.confidence >= acceptance,
           let pitched = pitchedCardPast(winner, image: coarse, width: w, height: h) {
            found = pitched
            trace?.coarse("find.pitchedPastWinner", pitched)
        }
        guard var best = found else { return nil }
        // The winner may be only the card's photo, the card's own sides lost in the vote: they are looked for where
        // they must lie (see `cardAroundPhoto`). A winner closed by a frame border and small enough to be a photo may
        // be a part of a card the frame cuts, or of one held too close, closed by the frame (a thumb over its photo
        // cut the rest off): the card's own border-closed outline is looked for around it (`cutCardAround`).
        if searchesAroundPhotos, let card = cardAroundPhoto(best.winner, image: coarse) {
            best = searched(card)
            trace?.coarse("find.cardAroundPhoto", best)
        } else if takesCutCardsAroundPhotos, !searchesWindow, best.borders.contains(true),
                  Quadrilateral.area(best.winner.corners.0, best.winner.corners.1, best.winner.corners.2,
                                     best.winner.corners.3) <= Self.maxPhotoFill * Double(w * h),
                  let card = cutCardAround(best.winner, image: coarse) {
            best = searched(card)
            trace?.coarse("find.cutCardAroundPhoto", best)
        }
        let borderClosed = best.borders.contains(true)
        // The winner, once chosen, may still lack a band whose edge the vote does not have (see `completeBand`): it is
        // searched for where it must lie. Only here, on the outline the searches settled on, so that it refines the
        // outline and decides nothing among the searches.
        if searchesBandEdges, let completed = completeBand(best.winner, image: coarse, searching: true) {
            best = searched(completed)
            trace?.coarse("find.bandCompleted", best)
        }
        var result = refined(best, from: coarse, on: working)
        result.borderClosed = borderClosed
        trace?.working("find.result", result)
        return result
    }

    /// The first search's lines on `coarse`: its gradients (unless `gradientsComputed`), the vote's candidate lines
    /// and the budgeted ones read into profiles (`active`). False when the vote found fewer than two lines.
    /// `votingAtDetectionScale`: the vote runs on `coarse` itself rather than on its half (see `FrameAnalyzer`'s
    /// `locateDocument`, which asks for it where a fine texture may have hidden the card from the half-size vote).
    func readFirstLines(_ coarse: GrayImage, gradientsComputed: Bool = false,
                        votingAtDetectionScale: Bool = false) -> Bool {
        if !gradientsComputed { coarseGradients.compute(coarse) }
        // The vote runs at half the coarse size (~160 px): it only has to find the lines, which are then refitted
        // to the coarse image's edge pixels. (The half-size image is made either way: `find` reads its mean luma.)
        voteImage.downsample2x(from: coarse)
        if votingAtDetectionScale {
            vote(gradients: coarseGradients, width: coarse.width, height: coarse.height, scale: 1,
                 coarseWidth: coarse.width, coarseHeight: coarse.height)
        } else {
            voteGradients.compute(voteImage)
            vote(gradients: voteGradients, width: voteImage.width, height: voteImage.height, scale: 2,
                 coarseWidth: coarse.width, coarseHeight: coarse.height)
        }
        guard lines.count >= 2 else { return false }
        readLines(coarse, budget: Self.maxLines, perSector: Self.maxLinesPerSector, fresh: true)
        return true
    }

    /// The largest deviation from square (degrees) of `outline`'s own corners: those between two sides that are no
    /// frame border, inside the `w` × `h` image (0 when it has none: where a frame border closes the outline, its
    /// corners there are where the border cuts the card, at any angle).
    static func ownCornersSkew(_ outline: Searched, width w: Int, height h: Int) -> Double {
        var worst = 0.0
        for i in 0..<4 where !outline.borders[(i + 3) & 3] && !outline.borders[i]
            && Quadrilateral.inImage(outline.quad.corners[i], width: w, height: h) {
            worst = max(worst, outline.quad.cornerSkewDegrees(i))
        }
        return worst
    }

    /// Whether an outline seen whole may replace a border-closed winner (`closed`; both on a `width` × `height`
    /// image): when it lies apart from it, or inside or across it but turned apart from its sides (`printAligned`,
    /// unless `takesOutlinesTurnedApart` is off). The rule of `find`'s border-closed follow-up and of
    /// `FrameAnalyzer`'s search at the detection scale.
    func outlineSeenWhole(_ whole: Quadrilateral, replaces closed: Quadrilateral, width: Int, height: Int) -> Bool {
        Self.apart(whole, closed)
            || (takesOutlinesTurnedApart && !Self.printAligned(whole, with: closed, width: width, height: height))
    }

    /// Whether a side of `closed` that is not a frame border runs within `maxPrintMisalignment` of one of `inner`'s
    /// sides: a card's print (its photo, a printed panel, its bands) is laid out along the card's sides, so an
    /// outline inside or across a card that leaves the frame can be that card's print only when aligned with it. A
    /// card lying on a desk is turned as its holder left it, apart from the desk's stripes, a keyboard's edge or a
    /// mat's, which a border-closed outline around it is made of. (One aligned side is enough: an outline of one
    /// print line and three of the card's sides — framegen's `cut_off_0003`, its photo cut by a horizontal line —
    /// is aligned on the sides it shares and is the card's print; asking every side to align replaced that card.)
    static func printAligned(_ inner: Quadrilateral, with closed: Quadrilateral, width w: Int, height h: Int) -> Bool {
        func direction(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
            let d = b - a
            let angle = atan2(d.y, d.x) * 180 / .pi
            return angle < 0 ? angle + 180 : angle
        }
        func apartDegrees(_ a: Double, _ b: Double) -> Double { let d = abs(a - b); return min(d, 180 - d) }
        for i in 0..<4 {
            let a = closed.corners[i], b = closed.corners[(i + 1) & 3]
            guard !onFrameBorder(a, b, width: w, height: h) else { continue }
            let side = direction(a, b)
            for j in 0..<4 where apartDegrees(direction(inner.corners[j], inner.corners[(j + 1) & 3]), side)
                <= Self.maxPrintMisalignment {
                return true
            }
        }
        return false
    }

    /// Whether the side from `a` to `b` lies along a frame border (both ends within a pixel of the same edge): the
    /// frame's, not the card's.
    static func onFrameBorder(_ a: SIMD2<Double>, _ b: SIMD2<Double>, width w: Int, height h: Int) -> Bool {
        let right = Double(w - 1), bottom = Double(h - 1)
        return (a.x <= 1 && b.x <= 1) || (a.y <= 1 && b.y <= 1) || (a.x >= right - 1 && b.x >= right - 1)
            || (a.y >= bottom - 1 && b.y >= bottom - 1)
    }

    /// Whether `whole` (seen whole, at `confidence`) is a card lying inside the border-closed `closed` however near
    /// its sides: a whole card's shape seen square-on, more than `cardNearSidesMargin` more confident than `closed`
    /// (`takesConfidentCardsNearTheSides`). The rule of `find`'s border-closed follow-up and of `FrameAnalyzer`'s
    /// search at the detection scale after a border-closed answer.
    func confidentCardNearTheSides(_ whole: Quadrilateral, confidence: Double, inside closed: Quadrilateral,
                                   closedConfidence: Double, width: Int, height: Int) -> Bool {
        takesConfidentCardsNearTheSides && confidence > closedConfidence + Self.cardNearSidesMargin
            && Self.cardLyingInside(whole, clearOf: closed, width: width, height: height, nearItsSides: true)
    }

    /// Whether `whole`, an outline seen whole (every corner in the `width` × `height` frame, no frame border among its
    /// sides) at `confidence`, replaces a border-closed winner (at `closedConfidence`) by being more than
    /// `farMoreConfidentMargin` more confident, whatever its shape and however aligned with the winner's sides
    /// (`takesFarMoreConfidentWholes`). A border-closed outline rests on a side the frame supplies, with no edge
    /// behind it; a card's print inside or across a cut card is aligned with it, which is why `outlineSeenWhole`
    /// refuses it, but a print outline is closed by print lines, weaker than the card's own sides, and scores no
    /// better than the card's outline. One clearly better than the border-closed outline is more likely the card
    /// with the winner assembled from its sides run on to the frame's edge along background lines: a card turned
    /// away at a desk's edge, whose shape `cardLyingInside` (square-on cards only) does not take (camsim portrait
    /// 120 `tilted_0008`: the card at 0.84 under its sides run to the frame's left edge at 0.68, CUT_OFF for
    /// TILTED). Measured in docs/capture.md ("Document quad").
    func farMoreConfidentWhole(_ whole: Quadrilateral, confidence: Double, closedConfidence: Double, width: Int,
                               height: Int) -> Bool {
        takesFarMoreConfidentWholes && confidence > closedConfidence + Self.farMoreConfidentMargin
            && whole.liesInside(width: width, height: height)
    }

    /// Whether `inner` has a whole card's shape seen square-on (`IDCard.wholeSeenSquareOn`) with every corner at least
    /// `cardInsideMargin` of the frame's short side from each of `closed`'s sides that is not on a frame border: a
    /// card lying on a larger object that leaves the frame (a printed panel, a book, a tablet), not the print of a
    /// card that leaves it, which is laid out along the card's sides and shares or nears one of them (its bands, its
    /// photo, a panel beside the photo), or is no card's shape (camsim seed 41 `good_0009`: a card on a lavender
    /// panel printed with a grid, the panel cut by the frame's bottom, aligned within 6° of the card's top: the
    /// panel at 0.90 was taken, MOVE_AWAY; the card at 0.82 now is, GOOD). With `nearItsSides` (the caller's card is
    /// clearly more confident than `closed`) the margin is not asked: a card lying at a desk's or a keyboard's edge.
    static func cardLyingInside(_ inner: Quadrilateral, clearOf closed: Quadrilateral, width w: Int,
                                height h: Int, nearItsSides: Bool = false) -> Bool {
        guard IDCard.wholeSeenSquareOn(inner) else { return false }
        let margin = nearItsSides ? 0 : cardInsideMargin * Double(min(w, h))
        for i in 0..<4 {
            let a = closed.corners[i], b = closed.corners[(i + 1) & 3]
            if onFrameBorder(a, b, width: w, height: h) { continue }
            let d = b - a, length = max(1e-9, (d * d).sum().squareRoot())
            let n = SIMD2(-d.y, d.x) / length
            for c in inner.corners where abs(((c - a) * n).sum()) < margin { return false }
        }
        // Inside it, not beside it (one beside it is `apart`, above).
        return !Self.apart(inner, closed)
    }

    /// Whether neither quad's centre lies inside the other (two outlines apart, not one inside or around the other).
    static func apart(_ a: Quadrilateral, _ b: Quadrilateral) -> Bool {
        apart((a.corners[0], a.corners[1], a.corners[2], a.corners[3]),
              (b.corners[0], b.corners[1], b.corners[2], b.corners[3]))
    }
}
