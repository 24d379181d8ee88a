// The frame-analysis engine: decode/subsample to a small gray working image, then detect, measure and judge.
import COpenCVBridge
import Foundation

/// Reuses its buffers between frames: one analyzer per thread (not Sendable).
public final class FrameAnalyzer {
    public let thresholds: AnalysisThresholds
    public let maxPixels: Int

    let decoder = JPEGGrayDecoder()
    /// The working image (long side ≥ `workingLongSide`) and its half-size copy used for detection.
    let working = GrayImage()
    /// The decoded frame as stored, when it must be turned upright into `working` (`FrameOrientation`).
    private let stored = GrayImage()
    private let small = GrayImage()
    private let spans = RegionSpans()
    private let glare = GlareMeasurement()
    private let noiseMatchedPrint = NoiseMatchedPrintImage()
    /// Internal so tests can turn its rules off (`OutlineSmear.takesLoneSides`).
    let outlineSmear = OutlineSmear()
    /// Internal so tests can compare finder settings (`findDocument`).
    let documentFinder = DocumentFinder()
    /// Whether the document search records its steps (`searchTrace`): for engine developers (`kycctl analyze
    /// --trace`); off in the service.
    public var tracesSearch: Bool {
        get { documentFinder.trace != nil }
        set { documentFinder.trace = newValue ? SearchTrace() : nil }
    }
    /// The last document frame's search steps, in order, with `tracesSearch` (empty without it).
    public var searchTrace: [SearchStep] { documentFinder.trace?.steps ?? [] }
    /// The frame's colour, for the chroma search (read only when the document search needs it).
    private let colour = FrameColour()
    /// Whether a card the luma search did not find is looked for in the frame's colour contrast (docs/capture.md,
    /// "Colour edges"). Internal so tests can compare the two.
    var searchesChroma = true
    /// Whether a frame whose search found an outline closed by a frame border is searched again with the vote on
    /// the detection image (see `locateDocument`). Always on; tests turn it off to show the frames
    /// it decides.
    var searchesAtDetectionScale = true
    /// Whether a frame where neither the luma nor the colour search found a card is searched again with the vote on
    /// the detection image (see `locateDocument`). Always on; tests turn it off to show the frames it decides.
    var searchesAtDetectionScaleWhenNothingFound = true
    /// How much more confidence than `minDocumentConfidence` an outline found only by that search needs (see
    /// `locateDocument`; 0.7 with the default 0.6): measured in docs/capture.md ("Document quad"). Tests lower it to
    /// show what it keeps out.
    var detectionScaleAloneMargin = 0.1
    /// Whether the outline a frame's search settled on (in luma or in colour) is given up when its inside repeats
    /// along its long sides (see `locateDocument`). Always on; tests turn it off to show the frames it decides.
    var rejectsRepeatingAnswers = true
    /// Whether a stream's frame follows the previous outline without reading the quad search's candidates for a
    /// repeating inside (`DocumentFinder.track(readsRepeats:)`). The outline it follows was an answer that met that
    /// test (a whole search's answer is read for it last; a tracked one follows such an answer), every frame after
    /// `maxTrackedFrames` tracked ones and the frame that may be captured are searched whole, and the test was ~6 %
    /// of a tracked frame's analysis (callgrind, session 50); every answer on the measured streams unchanged. Always
    /// on; tests turn it off to show what it skips.
    var tracksWithoutRepeatTest = true
    /// Whether a tracked frame reads the wide step share's rows that its sharpness reads in the same pass
    /// (`CardSharpness.measureWithWideRows`): the same sums either way, fewer instructions when both are read.
    /// Always on; tests turn it off to compare.
    var readsWideRowsWithSharpness = true
    /// Whether a frame whose answer was given up for its repeating inside is searched again as a frame where nothing
    /// was accepted (see `locateDocument`). Always on; tests turn it off to show the frames it decides.
    var searchesAgainAfterRepeatingAnswer = true
    /// Whether a card tilted beyond `maxSkew` in a portrait frame is judged close enough as held across, whatever
    /// its quad's side lengths (see `analyzeDocument`). Always on; tests turn it off to show the frames it decides.
    var judgesTiltedPortraitCardsAcross = true
    /// Whether a square-on quad too long for a card has its missing band placed by the print beyond its long sides
    /// (`MissingBandPrint`). Always on; tests turn it off to show the frames it decides.
    var readsMissingBandPrint = true
    /// Whether a frame where no search found a card is searched again in the windows around its printed regions
    /// (`PrintedRegions`; see `locateDocument`). Always on; tests turn it off to show the frames it decides.
    var searchesPrintedRegions = true
    /// The share of a printed region's cells that a card found in the window around it must hold (the print lies on
    /// the card; see `findInPrintedRegions`). Tests lower it to show what it keeps out.
    var minPrintedShareInside = 0.4
    /// Whether a frame whose search settled on an outline closed by a frame border is searched in the windows around
    /// printed regions lying apart from it (see `locateDocument`). Always on; tests turn it off to show the frames it
    /// decides.
    var searchesPrintedRegionsBesideBorderClosed = true
    /// Whether a frame where no search found a card is searched in the windows around printed regions that reach the
    /// frame's edge too, for a card the frame cuts (see `locateDocument`). Always on; tests turn it off to show the
    /// frames it decides.
    var searchesPrintAtFrameEdge = true
    /// Whether print inside a border-closed outline is searched too when all of it is small beside the outline (the
    /// boxes of its regions under `maxPrintShareOfClosedOutline` of the outline's area): a card lying inside a desk's
    /// outline, or one whose outline ran on along the hand holding it, not the outline's own print (see
    /// `findInPrintedRegions`). Always on; tests turn it off to show the frames it decides.
    var searchesSmallPrintInsideBorderClosed = true
    /// 0.6 (session 39; 0.25 before): a card's print fills most of a card the frame cuts, its outline's own, while a
    /// card held up by a hand, its outline run on along the hand or a desk's band to the frame's border, has its print
    /// over half of that outline or less (docs/capture.md, "Printed regions"). Tests lower it to show what it decides.
    var maxPrintShareOfClosedOutline = 0.6
    /// Whether the border-closed outline the frame-wide search's held-card search passed over is taken when no
    /// search found a card (`DocumentFinder.heldAtBorder`). Always on; tests turn it off to show the frames it decides.
    var takesHeldCardsLast = true
    /// The confidence a card found around print inside a border-closed outline needs (as `DocumentFinder.find` asks of
    /// a card lying inside a border-closed winner). Tests lower it to show what it keeps out.
    var minConfidenceInsideBorderClosed = DocumentFinder.reconsideredBelow
    /// Whether an accepted but weak answer turned beyond `maxSkew` gives way to a square-on outline the search at the
    /// detection scale finds clearly more confident (see `locateDocument`). Always on; tests turn it off to show the
    /// frames it decides.
    var reconsidersTurnedWeakAnswers = true
    /// Whether that outline may be turned too when far more confident than the answer, larger and holding its centre
    /// (see `locateDocument`). Always on; tests turn it off to show the frames it decides.
    var takesTurnedCardsAroundWeakAnswers = true
    /// How much more confident than a turned weak answer the square-on outline must be.
    static let turnedWeakAnswerMargin = 0.1
    /// Whether the card found there must have a whole card's shape seen square-on (`IDCard.wholeSeenSquareOn`), unless
    /// it is at least `minConfidenceTurnedBesideBorderClosed`. Always on; tests turn it off to show what it keeps out.
    var requiresSquareOnBesideBorderClosed = true
    /// The confidence from which a card found beside a border-closed outline is taken turned too (session 39): what
    /// `DocumentFinder.find` asks of a card lying inside a border-closed winner. A tilted card beside a desk's or a
    /// keyboard's outline closed by the frame was kept out by the square-on gate (CUT_OFF for TILTED); the tilted part
    /// of a card held too close that the gate was made for scored under it. Tests raise it to show what it decides.
    var minConfidenceTurnedBesideBorderClosed = DocumentFinder.reconsideredBelow
    /// Whether a border-closed answer whose sides stop short of the side that closes them is searched for the card
    /// within them (`OutlineStopsShort`); tests turn it off to see the outline that ran on.
    var cutsBackSidesThatStopShort = true
    /// Whether an answer seen whole whose two sides at one corner carry their edges on past its far corners is taken
    /// for a larger card's part (`OutlineRunsPastCorner`): the card is looked for around the outline the runs imply,
    /// and where it is not found the answer is held back from a capture. Always on; tests turn it off to show the
    /// frames it decides.
    var followsSidesPastCorners = true
    /// Whether that also reads the two sides beside one side running on past it (`OutlineRunsPastCorner`'s
    /// `closedSides`). Always on; tests turn it off to show the frames it decides.
    var followsSidesPastClosingSides = true
    /// How many times the stream's tracking reach (`DocumentFinder.trackingReach`) the bands around a larger card's
    /// implied sides are searched at when the stream's reach does not find it.
    static let largerCardReach = 2.0
    /// Whether a frame decoded above half size (or searched at its own working size) has its print judged on the
    /// noise-matched image (`NoiseMatchedPrintImage`). Always on; tests turn it off to show the frames it decides.
    var readsPrintNoiseMatched = true
    /// Whether an answer on a card's photo (a face filling a small portrait-shaped outline) is judged by the card its
    /// photo implies (`cardFillImpliedByPhoto`). Always on; tests turn it off to show the frames it decides.
    var judgesPhotoAnswersByTheirFace = true
    /// Whether an answer of ordinary size (up to `maxFill`) inside print that runs on past it is judged by its face
    /// too (`printRunsOnPast`, `cardFillImpliedByPhoto`). Always on; tests turn it off to show the frames it decides.
    var readsPhotoAnswersInsidePrint = true
    /// Whether a frame in which no card was found is told MOVE_AWAY when a card's portrait is seen large in it
    /// (`largePortrait`). Always on; tests turn it off to show the frames it decides.
    var readsLargePortraitsWithoutOutline = true
    /// Whether an answer judged smaller than `minFill` is told MOVE_AWAY when a card's portrait is seen large around
    /// it (`largePortrait(around:detection:)`). Always on; tests turn it off to show the frames it decides.
    var readsLargePortraitsAroundSmallAnswers = true
    /// Whether a frame in which no card was found is told CUT_OFF when a card's portrait lies in print that reaches
    /// the frame's edge (`portraitInPrintAtFrameEdge`). Always on; tests turn it off to show the frames it decides.
    var readsPortraitsAtFrameEdge = true
    /// Whether GLARE goes before MOVE_CLOSER when the card's glare patch runs on past the outline
    /// (`glareBeyondOutline`). Always on; tests turn it off to show the frames it decides.
    var leadsWithGlareBeyondSmallOutlines = true
    /// Whether a small outline seen whole inside print that runs out of the frame is judged a part of a card the frame
    /// cuts (`printAtFrameEdge(around:)`). Always on; tests turn it off to show the frames it decides.
    var judgesPartsOfPrintAtFrameEdge = true
    /// Whether a card the frame cuts, found by its photo alone, is told MOVE_AWAY when it would not fit the frame at
    /// the largest size its photo allows (`IDCard.smallestPhotoShareOfHeight`). Always on; tests turn it off to show
    /// the frames it decides.
    var judgesCutPhotoCardsAtTheirLargest = true
    /// Whether a small outline told CUT_OFF (at the frame's edge, or a part inside print running to it) is judged
    /// by the box of the print around it: a card at least that large, MOVE_AWAY past `maxFill`. Always on; tests turn
    /// it off to show the frames it decides.
    var judgesCutPartsByTheirPrint = true
    /// Whether that card is judged at the largest size its print allows (the print over `leastPrintShareOfCutPart`),
    /// not at the print's own box. Always on; tests turn it off to show the frames it decides.
    var judgesCutPartsAtTheLargestTheirPrintAllows = true
    /// How many cells (`PrintedRegions.cell`) past a printed region's box a part's centre may lie and still be held by
    /// it (`printAtFrameEdge(around:)`): the box is read in cells, so it is known to a cell only, and a part whose
    /// print the cell pass left a few pixels short of its centre (a cut card's text beside its guilloche, portrait 92
    /// `cut_off_0007`) lay outside it. Tests set 0 to show what it decides.
    var printedBoxTolerance = 1.0
    /// Whether a window around print whose search found an outline that passed every test but runs out of the window
    /// is searched again, grown to hold it (`findInPrintedRegions`). Always on; tests turn it off to show the frames
    /// it decides.
    var growsWindowsOverClippedCards = true
    /// Whether a window around print whose search settled on an outline closed by the window's own edge, where that
    /// edge lies inside the frame, is searched again, grown past that edge (`findInPrintedRegions`: the print was a
    /// small part of a card the window cut). Always on; tests turn it off to show the frames it decides.
    var growsWindowsCutByTheirEdges = true
    /// The most an outline the window's edge closes may be turned (its corners off square, the window's cut ones
    /// included) to say the window cuts a card: the cut outlines of cards measured 3-34°; framegen's wavy empty desk
    /// gave one at 62°, whose two grown windows cost that frame 64 % more (12.8 → 20.9 ms, the bench's slowest 1080p
    /// frame) for nothing. Tests raise it to show what it keeps out.
    var maxWindowCutSkew = 45.0
    /// Whether an answer seen whole but too small for a card (under `minFill`) inside print well larger than it is
    /// searched for the card holding it in the window around that print (a part of a card: the side of a glare patch,
    /// its photo). Always on; tests turn it off to show the frames it decides.
    var searchesPrintAroundSmallAnswers = true
    /// Whether that search leaves out the frame's-edge window for an answer with a whole card's shape seen square-on (a
    /// small card seen whole, whose print a textured scene joins to the frame's edge: the window found nothing there
    /// and cost the bench's small cards +59-115 %). Always on; tests turn it off to show the windows it saves.
    var sparesSquareOnAnswersTheEdgeWindow = true
    /// Whether one of an outline's runs on to the frame's border may be covered in its middle by the holding hand
    /// (`OutlineRunOn.runOnToBorder`'s `coveredRuns`). Always on; tests turn it off to show the frames it decides.
    var takesCoveredRunOns = true
    /// The share of `maxBrightness` above which a scene whose card reads over `maxBrightness` is over-exposed as a
    /// whole, so that TOO_BRIGHT comes before the card's geometry (see `analyzeDocument`): 0.8 × 225 = 180, about
    /// 1.3 EV over the mid-grey an exposure meter aims for (sRGB luma 118), past the 1 EV auto-exposure errs by in a
    /// scene it can still expose (as `outOfRangeDarkness` reads a scene too dark). Measured on session 33's 39 sets
    /// (docs/capture.md, "Feedback codes"): the over-exposed frames whose geometry led read scenes of 181-225, the
    /// frames right on a clipped white card's geometry up to 170 (portrait 118 `cut_off_0007`, told TOO_BRIGHT first at
    /// 0.75). Tests lower it to show what it keeps out.
    var overexposedSceneShare = 0.8
    /// The share of `minDocumentSharpness` under which a card told MOVE_CLOSER is smeared beyond what its size
    /// explains, so that BLURRY goes before MOVE_CLOSER (see `analyzeDocument`; ADR 13 keeps MOVE_CLOSER first for a
    /// card soft for its size). 0.3 × 0.5 = 0.15: on session 33's 39 sets the cards right to be told MOVE_CLOSER read
    /// 0.285 and up, the BLURRY frames told MOVE_CLOSER on a smeared outline 0.036-0.094 (docs/capture.md, "Feedback
    /// codes"). Tests move it to show what it decides.
    var smearedCardShare = 0.3
    /// The multiple of `maxGlareBlob` from which a glare patch goes before the findings on the card's outline
    /// (CUT_OFF, MOVE_AWAY, TILTED; see `analyzeDocument`): 2 × 0.015 = 3 % of the card in one patch. On session 33's
    /// 39 sets the GLARE frames told their outline's findings first had patches of 3.8-12.8 %, a TILTED card right to
    /// be told so one of 1.9 % (docs/capture.md, "Feedback codes"). Tests move it to show what it decides.
    var glareOverOutlineShare = 2.0
    /// The frame's printed regions and the window searched around one (`FrameAnalyzer+PrintedRegions.swift`).
    let printedRegions = PrintedRegions()
    /// Whether `printedRegions` hold this frame's regions (`readPrintedRegions`; cleared as each frame's search starts).
    var printedRegionsRead = false
    let printGradients = SobelGradients()
    let regionWorking = GrayImage()
    let regionCoarse = GrayImage()
    /// Frame-wide searches `locateDocument` has run with the vote at the detection scale, since this analyzer was
    /// made (read by tests: a frame runs at most one; the window searches around printed regions are not counted).
    private(set) var detectionScaleSearches = 0
    /// Sharpness passes that read the wide step share's rows too (`CardSharpness.measureWithWideRows`), since this
    /// analyzer was made (read by tests: a tracked frame takes one, a frame searched whole none).
    private(set) var sharpnessPassesWithWideRows = 0
    /// Windows around printed regions `findInPrintedRegions` has searched, since this analyzer was made (read by
    /// tests).
    var printedRegionWindows = 0
    /// Face searches `largePortrait` has run over a frame's print, since this analyzer was made (read by tests).
    var largePortraitSearches = 0
    /// Created on the first selfie, the first document answer on a card's photo (`cardFillImpliedByPhoto`) or the
    /// first document frame with print and no card (`largePortrait`), by `loadedFaceSearch`.
    private var faceSearch: FaceSearch?
    private let faceSharpness = FaceSharpness()

    public init(thresholds: AnalysisThresholds = .default, maxPixels: Int = 40_000_000) {
        self.thresholds = thresholds
        self.maxPixels = maxPixels
        documentFinder.noiseMatchedPrint = noiseMatchedPrint
    }

    /// The face search, created on first use (it loads the cascades).
    func loadedFaceSearch() throws(FrameAnalysisError) -> FaceSearch {
        if let faceSearch { return faceSearch }
        let search = try FaceSearch(thresholds: thresholds)
        faceSearch = search
        return search
    }

    /// Analyses one frame. Bad input (empty, corrupt or truncated JPEG, wrong raw size, too many pixels) throws.
    /// `rotation`: the clockwise quarter turn the frame needs to stand upright (a JPEG's own EXIF orientation is
    /// applied first); every size and coordinate in the answer is in the upright frame.
    /// `previous`: in a stream, the region the previous frame found (normalised to 0…1 of that frame,
    /// `CaptureTracker.hint`): a document's four corners, or the one face's box (top-left, bottom-right), around
    /// which the card or face is first looked for; the frame gets the full search only when it is not there (see
    /// `DocumentFinder.track`, `FaceSearch.trackedFace`). `lightSearch`: the card or face is looked for with the
    /// first search alone, without the fallbacks (a stream where nothing was found lately,
    /// `CaptureTracker.searchesLightly`; metric `lightSearch`).
    /// `previousInColour`: the previous frame's card was found in colour (metric `colourEdges`), so it is followed
    /// in the colour contrast image.
    public func analyze(_ input: FrameInput, mode: FrameMode, rotation: FrameRotation = .none,
                        previous: [FramePoint]? = nil, previousInColour: Bool = false,
                        lightSearch: Bool = false) throws(FrameAnalysisError) -> FrameAnalysis {
        // A card followed in colour needs this frame's chroma: decoded with the luma, in one decode. So does a
        // progressive JPEG that may need it: decoding its chroma planes with the luma costs 1-5 % more than the luma
        // alone, decoding them again after a luma search that found no card a whole progressive decode again (the
        // entropy decoding of every scan is most of it), 4-9 ms at 720p-1080p.
        let withColour = mode == .document && searchesChroma
            && (previousInColour && previous != nil || !lightSearch && input.isProgressiveJPEG)
        let (inputSize, detection) = try prepare(input, rotation: rotation, withColour: withColour)
        switch mode {
        case .document:
            return analyzeDocument(inputSize: inputSize, detection: detection, previous: previous,
                                   previousInColour: previousInColour, lightSearch: lightSearch)
        case .selfie:
            return try analyzeSelfie(inputSize: inputSize, detection: detection, previous: previous,
                                     lightSearch: lightSearch)
        }
    }

    /// The document finder's answer on one frame, prepared exactly as `analyze` prepares it: tests compare finder
    /// settings (`documentFinder`) through it without copying the decode and detection-scale steps.
    func findDocument(_ input: FrameInput) throws(FrameAnalysisError) -> DocumentFinder.Found? {
        try locateDocument(detection: prepare(input).detection).found
    }

    /// The upright input's size and the detection and working images of one frame, prepared exactly as `analyze`
    /// prepares them (for `diagnoseDocument`).
    func documentImages(_ input: FrameInput) throws(FrameAnalysisError)
        -> (inputSize: (width: Int, height: Int), detection: GrayImage, working: GrayImage) {
        let (inputSize, detection) = try prepare(input)
        return (inputSize, detection, working)
    }

    /// The face search and the images it searches on one frame, prepared exactly as `analyze` prepares them: tests
    /// run the search's passes one at a time through it.
    func faceSearchInputs(_ input: FrameInput) throws(FrameAnalysisError)
        -> (search: FaceSearch, detection: GrayImage, working: GrayImage) {
        let detection = try prepare(input).detection
        return (try loadedFaceSearch(), detection, working)
    }

    /// Decodes or samples the frame upright into `working` and picks the detection image; returns the upright
    /// input's size.
    /// `withColour`: a JPEG's chroma planes are decoded in the same decode (`FrameColour.decodeWithLuma`).
    private func prepare(_ input: FrameInput, rotation: FrameRotation = .none,
                         withColour: Bool = false) throws(FrameAnalysisError)
        -> (inputSize: (width: Int, height: Int), detection: GrayImage) {
        let storedSize: (width: Int, height: Int)
        let orientation: FrameOrientation
        var planesDecoded = false
        switch input {
        case .jpeg(let bytes):
            orientation = ExifOrientationReader.orientation(ofJPEG: bytes).followed(by: rotation)
            // An upright frame (nearly every camera frame) is decoded straight into the working image.
            let target = orientation == .upright ? working : stored
            if withColour, let size = try colour.decodeWithLuma(bytes, into: target, orientation: orientation,
                                                                 decoder: decoder,
                                                                 longSide: thresholds.workingLongSide,
                                                                 maxPixels: maxPixels) {
                storedSize = size
                planesDecoded = true
            } else {
                storedSize = try decoder.decode(bytes, into: target, longSide: thresholds.workingLongSide,
                                                maxPixels: maxPixels)
            }
        case .raw(let bytes, let width, let height, let stride, let format, let lumaRange):
            orientation = FrameOrientation(rotation)
            try RawFrameSampler.sample(bytes: bytes, width: width, height: height, stride: stride, format: format,
                                       lumaRange: lumaRange, into: orientation == .upright ? working : stored,
                                       longSide: thresholds.workingLongSide, maxPixels: maxPixels)
            storedSize = (width, height)
        }
        colour.begin(input, orientation: orientation, planesDecoded: planesDecoded)
        if orientation != .upright { working.setUpright(from: stored, orientation: orientation) }
        let inputSize = orientation.upright(width: storedSize.width, height: storedSize.height)
        guard working.width >= 16, working.height >= 16 else {
            throw FrameAnalysisError(code: .unsupportedFormat,
                                     message: "frame of \(inputSize.width)×\(inputSize.height) is too small to analyse")
        }
        // Detection runs on a ~320 px image: enough for corners within 1 % of the diagonal, four times less work.
        let detection: GrayImage
        if max(working.width, working.height) >= 560 {
            small.downsample2x(from: working)
            detection = small
        } else {
            detection = working
        }
        // A frame decoded (or sampled) above half size keeps most of the sensor's noise, at least twice as strong at
        // the detection size as a 720p frame's (one searched at its working size keeps all of it): its print is judged
        // on a noise-matched image (`NoiseMatchedPrintImage`), made if a search reads print.
        noiseMatchedPrint.begin(working: working, detection: detection,
                                needed: readsPrintNoiseMatched && noiseMatchedFrom(inputSize))
        return (inputSize, detection)
    }

    /// Whether the frame (`input` pixels) was decoded or sampled to the working image averaging fewer than 2 × 2 of
    /// its pixels into each working pixel (a scale above 1/2: a VGA stream's full-size decode, a 960 × 540 frame's
    /// 6/8, a small frame's at its own size): its sensor noise at the detection size is then above a 720p frame's,
    /// and its print is judged on the noise-matched image (`NoiseMatchedPrintImage`).
    private func noiseMatchedFrom(_ input: (width: Int, height: Int)) -> Bool {
        2 * working.width > input.width
    }

    /// Located on the coarse detection image, corners refined on the working image; around the previous frame's
    /// corners first when they are known (`tracked` says whether the card was found there); in the frame's colour
    /// contrast when the luma search finds none (`inColour`). `largerCard`: the card an answer seen whole is a part
    /// of, when it was not found around the outline its sides' runs imply (`OutlineRunsPastCorner`).
    private func locateDocument(detection: GrayImage, previous: [FramePoint]? = nil, previousInColour: Bool = false,
                                lightSearch: Bool = false)
        -> (found: DocumentFinder.Found?, tracked: Bool, inColour: Bool, inWindow: Bool, repeatingAnswer: Double?,
            largerCard: OutlineRunsPastCorner.LargerCard?) {
        printedRegionsRead = false
        var gradientsComputed = false
        if let previous, previous.count == 4, previous.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) {
            let onDetection = Quadrilateral(corners: previous.map {
                SIMD2($0.x * Double(detection.width), $0.y * Double(detection.height))
            })
            if let found = documentFinder.track(onDetection, coarse: detection, working: working,
                                                acceptance: thresholds.minDocumentConfidence,
                                                gradientsComputed: &gradientsComputed,
                                                readsRepeats: !tracksWithoutRepeatTest) {
                documentFinder.trace?.working("locate.tracked", found)
                return (found, true, false, false, nil, nil)
            }
            // A card found in colour is followed in colour when luma does not follow it (the band search often
            // finds its faint luma sides around the known corners; when not, the frame would pay the full luma
            // search, every fallback and the chroma search).
            if previousInColour && searchesChroma && colourContrast(detection: detection) {
                gradientsComputed = false   // the colour tracking leaves the colour image's gradients
                if let found = documentFinder.trackInChroma(onDetection, chroma: colour.contrastImage, luma: detection,
                                                            acceptance: thresholds.minDocumentConfidence) {
                    documentFinder.trace?.coarse("locate.trackedInColour", found.quad, confidence: found.confidence,
                                                 borderClosed: false)
                    return (onWorking(found, detection: detection), true, true, false, nil, nil)
                }
            }
        }
        var found = documentFinder.find(coarse: detection, working: working,
                                        acceptance: thresholds.minDocumentConfidence,
                                        widerSearchMaxLuma: thresholds.maxBrightness,
                                        gradientsComputed: gradientsComputed, fallbacks: !lightSearch)
        let heldAtBorder = documentFinder.heldAtBorder
        // The vote runs on a quarter of the detection image's pixels, where a fine texture beside a card (a striped
        // or grained desk, a keyboard) aliases into the card's edge and scatters its direction: the card's sides
        // are then no peaks, or too weak ones for the vote's candidates, and an outline of background lines closed
        // by frame borders wins. After such a winner the frame is searched again with the vote on the detection
        // image itself (`DocumentFinder.find(votingAtDetectionScale:)`), and an outline seen whole, apart from it or
        // turned apart from its sides (as the border-closed follow-up in `find` takes one) and more confident
        // replaces it (accepted was not enough: a background outline at 0.60 below a held card took its place); so
        // does a card seen whole and square-on inside it, clearly more confident than it, however near its sides
        // (`DocumentFinder.confidentCardNearTheSides`, as `find`'s follow-up takes one), and any outline seen whole
        // far more confident than it (`DocumentFinder.farMoreConfidentWhole`).
        // After no card at all it runs too, below, after the colour search and with stricter gates (it found cards
        // there, but also outlines in empty textured scenes; docs/capture.md, "Document quad"). Not in a light
        // search, nor in an over-exposed frame (whose wider searches find only false quads).
        // So too after such an outline passed over for its repeating inside (`DocumentFinder.passedOverRepeating`:
        // a striped desk's, a keyboard's) when nothing else was accepted: the texture that made it repeat is what
        // aliases at half size.
        let acceptance = thresholds.minDocumentConfidence
        // Whether an answer is given up for its repeating inside (`InteriorPeriodicity`), the test every answer meets
        // last: see the end of this function.
        func repeatsInside(_ answer: DocumentFinder.Found) -> Bool {
            rejectsRepeatingAnswers && answer.confidence >= acceptance
                && documentFinder.periodicity.repeatsAlongLongSides(answer.quad, in: working)
        }
        var closedOutline: (quad: Quadrilateral, confidence: Double)?
        if let first = found, first.confidence >= acceptance {
            if first.borderClosed { closedOutline = (first.quad, first.confidence) }
        } else if let passed = documentFinder.passedOverRepeating, passed.confidence >= acceptance,
                  passed.borderClosed {
            let scaled = onWorking(DocumentFinder.Found(quad: passed.quad, confidence: passed.confidence),
                                   detection: detection)
            closedOutline = (scaled.quad, scaled.confidence)
        }
        // The search at the detection scale runs at most once a frame: after a passed-over outline with nothing
        // accepted it may be asked for again below, when nothing is found in colour either.
        var searchedAtDetectionScale: DocumentFinder.Found??
        func atDetectionScale() -> DocumentFinder.Found? {
            if let searched = searchedAtDetectionScale { return searched }
            detectionScaleSearches += 1
            let searched = tracing({ $0.prefix = "detectionScale." }) {
                documentFinder.find(coarse: detection, working: working, acceptance: acceptance,
                                    widerSearchMaxLuma: thresholds.maxBrightness, votingAtDetectionScale: true)
            }
            searchedAtDetectionScale = .some(searched)
            return searched
        }
        if searchesAtDetectionScale, !lightSearch, detection.meanLuma <= thresholds.maxBrightness,
           let closed = closedOutline, let whole = atDetectionScale(),
           whole.confidence > closed.confidence, !whole.borderClosed,
           documentFinder.outlineSeenWhole(whole.quad, replaces: closed.quad, width: working.width,
                                           height: working.height)
            || documentFinder.confidentCardNearTheSides(whole.quad, confidence: whole.confidence,
                                                        inside: closed.quad, closedConfidence: closed.confidence,
                                                        width: working.width, height: working.height)
            || documentFinder.farMoreConfidentWhole(whole.quad, confidence: whole.confidence,
                                                    closedConfidence: closed.confidence, width: working.width,
                                                    height: working.height) {
            found = whole
            documentFinder.trace?.working("locate.atDetectionScale", whole)
        }
        // An accepted but weak answer turned far from square-on (beyond `maxSkew`, not closed by a frame border) may
        // be an outline assembled from a part of the card and the background's lines, whose perspective is no card's;
        // the card seen square-on may be there with its sides too short for the half-size vote. The search at the
        // detection scale replaces it with an outline seen whole, square-on and clearly more confident; or turned
        // too, when far more confident (`farMoreConfidentMargin`, as an outline seen whole must be to replace a
        // border-closed winner whatever its shape), larger and holding the answer's centre: the card pitched far, the
        // answer a turned part of it (`takesTurnedCardsAroundWeakAnswers`; camsim small 156 `tilted_0009`, a part
        // at 0.65, MOVE_CLOSER, inside the card found pitched at 0.90).
        if reconsidersTurnedWeakAnswers, let weak = found, weak.confidence >= acceptance,
           weak.confidence < DocumentFinder.reconsideredBelow, !weak.borderClosed,
           weak.quad.skewDegrees > thresholds.maxSkew, searchesAtDetectionScale, !lightSearch,
           detection.meanLuma <= thresholds.maxBrightness, let whole = atDetectionScale(), !whole.borderClosed,
           whole.confidence >= weak.confidence + Self.turnedWeakAnswerMargin,
           whole.quad.skewDegrees <= thresholds.maxSkew
            || takesTurnedCardsAroundWeakAnswers
                && whole.confidence >= weak.confidence + DocumentFinder.farMoreConfidentMargin
                && whole.quad.area > weak.quad.area && whole.quad.contains(weak.quad.centre),
           whole.quad.liesInside(width: working.width, height: working.height) {
            found = whole
            documentFinder.trace?.working("locate.turnedWeakAnswerReplaced", whole)
        }
        // The searches that run when nothing was accepted (`NothingFoundSearch`, in its order), each with its own
        // gates: each runs while no answer is accepted, and what it finds becomes the answer. An answer given up at
        // the end for its repeating inside runs them again (see there).
        func whenNothingFound(_ search: NothingFoundSearch) -> DocumentFinder.Found? {
            switch search {
            case .inColour:
                // Nothing in luma: the card may be there in colour only (its sides at its background's brightness).
                // Not in a light search (its fallbacks are left out), nor in an over-exposed frame (clipped colours
                // carry nothing).
                guard !lightSearch, searchesChroma, detection.meanLuma <= thresholds.maxBrightness else { return nil }
                return findInColour(detection: detection)
            case .atDetectionScale:
                // Nothing in luma or colour: the half-size vote may have lost the card's sides: a small card's short
                // side is a few dozen vote-image pixels, too few votes to be a line (belowMinimum), and a thumb over
                // a side shortens it further. The frame is searched once more with the vote on the detection image
                // (`DocumentFinder.find(votingAtDetectionScale:)`), where every side is twice as long. A second
                // search over more lines has more chances to assemble an outline from a textured scene's edges or
                // from a card's part, so what it finds is taken only as the small card it looks for: more confident
                // than a card needs to be (`detectionScaleAloneMargin` above it: at the bare `minDocumentConfidence`
                // an empty textured scene of framegen's took an outline at 0.62), seen whole (no frame-border side,
                // every corner in the frame: an empty synthetic background took an outline reaching past the
                // frame's top) and held across (its long sides nearer the horizontal: a cut-off card's upright
                // holder photo was taken at 0.73; or square-ish and turned far away, its long side not told apart:
                // `DocumentFinder.heldAcross`). Measurements in docs/capture.md ("Document quad").
                guard searchesAtDetectionScaleWhenNothingFound, !lightSearch,
                      detection.meanLuma <= thresholds.maxBrightness, let whole = atDetectionScale(),
                      whole.confidence >= acceptance + detectionScaleAloneMargin, !whole.borderClosed,
                      documentFinder.heldAcross(whole.quad),
                      whole.quad.liesInside(width: working.width, height: working.height) else { return nil }
                return whole
            case .inPrintedRegions:
                // Still nothing: where the frame is printed as a card's face is (`PrintedRegions`), the window around
                // the print is searched on its own, at the working scale. The frame-wide vote lost the card there to
                // longer lines elsewhere (a striped desk, a keyboard, the wood's grain); in the window the card's
                // sides are among the strongest lines. Only a card seen whole in the window, held across (as the
                // search at the detection scale after nothing takes one: an upright rectangle there is a card's
                // holder photo) and holding a good share of the print (`minPrintedShareInside`) is taken
                // (docs/capture.md, "Printed regions"). (The frame's printed regions are read once, by the first of
                // the searches that needs them.)
                guard searchesPrintedRegions, !lightSearch, detection.meanLuma <= thresholds.maxBrightness else {
                    return nil
                }
                return findInPrintedRegions(detection: detection)
            case .atPrintedFrameEdge:
                // Still nothing: print that reaches the frame's edge is a card the frame cuts (or one larger than the
                // frame). The window around it, clamped by the frame, is searched the same way, and an outline
                // closed only by the frame's own edges (no window edge inside the frame) is taken, as the search at
                // the detection scale after nothing takes one, only `detectionScaleAloneMargin` above the bar (an
                // empty scene's print-like corner gave an outline at 0.62).
                guard searchesPrintAtFrameEdge, searchesPrintedRegions, !lightSearch,
                      detection.meanLuma <= thresholds.maxBrightness,
                      let atEdge = findInPrintedRegions(detection: detection, atFrameEdge: true),
                      atEdge.confidence >= acceptance + detectionScaleAloneMargin else { return nil }
                return atEdge
            case .heldAtBorder:
                // Still nothing: the frame-wide search's held-card search may have passed over an accepted outline
                // closed by a frame border because one seen whole outranked it (`DocumentFinder.heldAtBorder`): a
                // card the frame cuts, held by a thumb, whose part closed on its print scored better. It is taken
                // last, after every search that finds a card seen whole.
                return takesHeldCardsLast ? heldAtBorder : nil
            }
        }
        var inWindow = false
        for search in NothingFoundSearch.allCases where (found?.confidence ?? 0) < acceptance {
            guard let answer = whenNothingFound(search) else { continue }
            documentFinder.trace?.working("locate.nothingFound.\(search)", answer)
            if search == .inColour {
                // (The card found in colour is read for a repeating inside too, as the luma answer is at the end: a
                // dotted wall's corner closed by the frame, found in colour, was CUT_OFF, MOVE_CLOSER in fresh small
                // 201 `no_document_0000`.)
                if repeatsInside(answer) {
                    documentFinder.trace?.working("locate.givenUpRepeating", answer)
                    return (nil, false, false, false, answer.confidence, nil)
                }
                return (answer, false, true, false, nil, nil)
            }
            found = answer
            inWindow = search.isInWindow
        }
        // So too beside an outline closed by a frame border, where print lies apart from it: a card seen whole beside
        // a desk's or a keyboard's edge closed by the frame (print inside the outline is its own: a card the frame
        // cuts). The card found there replaces the outline when seen whole and square-on: a card held too close,
        // larger than the frame, has parts of its print clear of its border-closed outline, and without that gate
        // one such part was taken (MOVE_CLOSER and TILTED for a MOVE_AWAY frame: the opposite instruction). A card
        // found there turned is taken when as confident as a card lying inside a border-closed winner must be
        // (`minConfidenceTurnedBesideBorderClosed`): a tilted card beside the outline, not a part of one.
        if searchesPrintedRegionsBesideBorderClosed, searchesPrintedRegions, !lightSearch,
           detection.meanLuma <= thresholds.maxBrightness, let closed = found, closed.confidence >= acceptance,
           closed.borderClosed || !closed.quad.liesInside(width: working.width, height: working.height),
           let inRegion = findInPrintedRegions(detection: detection, apartFrom: closed.quad),
           !requiresSquareOnBesideBorderClosed || IDCard.wholeSeenSquareOn(inRegion.quad)
            || inRegion.confidence >= minConfidenceTurnedBesideBorderClosed {
            found = inRegion
            inWindow = true
            documentFinder.trace?.working("locate.besideBorderClosed", inRegion)
        }
        // A small outline seen whole inside print well larger than it (`minPrintOverSmallAnswer`) is a part of the
        // card that print is on: a panel beside a glare patch that cut the card's lines, its photo. The window around
        // that print is searched, and a card found there holding the outline, larger than it, replaces it (where the
        // print reaches the frame's edge, a card the frame cuts, as the search at the frame's edge above takes one;
        // not around an outline with a whole card's shape seen square-on: a small card seen whole, whose print a
        // textured scene's joins to the edge, paid a window search for nothing there, ADR 8 "Session 41").
        if searchesPrintAroundSmallAnswers, searchesPrintedRegions, !lightSearch,
           detection.meanLuma <= thresholds.maxBrightness, let answer = found, answer.confidence >= acceptance,
           !answer.borderClosed, answer.quad.liesInside(width: working.width, height: working.height),
           answer.quad.area < thresholds.minFill
            * IDCard.largestArea(width: working.width, height: working.height, longSideHorizontal: true),
           let card = findInPrintedRegions(detection: detection, around: answer.quad)
            ?? (sparesSquareOnAnswersTheEdgeWindow && IDCard.wholeSeenSquareOn(answer.quad) ? nil
                : findInPrintedRegions(detection: detection, atFrameEdge: true, around: answer.quad)
                    .flatMap({ $0.confidence >= acceptance + detectionScaleAloneMargin ? $0 : nil })) {
            found = card
            inWindow = true
            documentFinder.trace?.working("locate.aroundSmallAnswer", card)
        }
        // An outline closed by the frame's border, or running out of the frame, whose two sides beside one side
        // carry their edges only part of the way to it holds a card and the background past the card's end: the
        // card's far side was lost (a card turned away shows it foreshortened and faint) and the sides ran on to a
        // line beyond it or to the frame's border (`OutlineStopsShort`). The card is looked for around the outline
        // cut back to where the edges stop (`DocumentFinder.track`: each side's band searched for lines of its
        // direction; a band whose edge it lacks completed, as `find` completes its winner), and taken when accepted
        // and seen whole. Not on outlines seen whole: along a card's side the edge fades where the card's header
        // band meets a background of its shade, and the band's edge then passed for the card's end.
        // (Outlines guessed on the working image are searched for on the detection image, the blocks below.)
        let toDetection = SIMD2(Double(detection.width) / Double(working.width),
                                Double(detection.height) / Double(working.height))
        if cutsBackSidesThatStopShort, !lightSearch, let answer = found, answer.confidence >= acceptance,
           answer.borderClosed || !answer.quad.liesInside(width: working.width, height: working.height),
           let cut = OutlineStopsShort.cutBack(working, corners: answer.quad.corners) {
            let guess = Quadrilateral(corners: cut.mapValues { $0 * toDetection })
            var gradientsComputed = false
            if let card = documentFinder.track(guess, coarse: detection, working: working, acceptance: acceptance,
                                               gradientsComputed: &gradientsComputed, completingBand: true),
               card.quad.liesInside(width: working.width, height: working.height) {
                found = card
                inWindow = false
                documentFinder.trace?.working("locate.sidesStopShort", card)
            }
        }
        // An outline seen whole whose two sides at one corner carry their edges on past its far corners (past a
        // thumb, on one of them), or whose two sides beside one side run on past it, is a larger card's part: a region
        // of a card held too close, framed by its print and the thumb, a card's part beside its photo or below its
        // header band (`OutlineRunsPastCorner`). The card is looked for around the
        // outline those runs imply (`DocumentFinder.track`, as above) and taken when accepted, seen whole and larger;
        // where it is not found, the answer stays, and the implied card (returned as `largerCard`) holds it back from
        // a capture (see `analyzeDocument`).
        var largerCard: OutlineRunsPastCorner.LargerCard?
        if followsSidesPastCorners, !lightSearch, let answer = found, answer.confidence >= acceptance,
           !answer.borderClosed, answer.quad.liesInside(width: working.width, height: working.height),
           let implied = OutlineRunsPastCorner.impliedCard(working, corners: answer.quad.corners,
                                                           closedSides: followsSidesPastClosingSides) {
            let guess = Quadrilateral(corners: implied.corners.mapValues { $0 * toDetection })
            var gradientsComputed = false
            // (The runs end where an edge fades, short of the card's corners: the bands around the implied sides are
            // searched at the stream's reach first, then at `largerCardReach` times it.)
            func around(reach scale: Double) -> DocumentFinder.Found? {
                guard let card = documentFinder.track(guess, coarse: detection, working: working,
                                                      acceptance: acceptance, gradientsComputed: &gradientsComputed,
                                                      completingBand: true,
                                                      reachShare: DocumentFinder.trackingReach * scale),
                      card.quad.liesInside(width: working.width, height: working.height),
                      card.quad.area > answer.quad.area else { return nil }
                return card
            }
            let card = around(reach: 1) ?? around(reach: Self.largerCardReach)
            if let card {
                found = card
                inWindow = false
                documentFinder.trace?.working("locate.largerCardFound", card)
            } else {
                largerCard = implied
                documentFinder.trace?.working("locate.largerCardImplied", Quadrilateral(corners: implied.corners),
                                              confidence: answer.confidence, borderClosed: false)
            }
        }
        // The quad search passes over outlines whose inside repeats (`InteriorPeriodicity`: keys, bars), but the
        // outline a frame settles on can come after it: the container around its winner, the winner's band
        // completed, the border-closed follow-ups, the searches at the detection scale. A keypad closed by the
        // frame's border was answered CUT_OFF that way (revival 0.43-0.50 along its long sides, while no card's
        // answered outline read more than 0.27 on 960 frames). So the answer meets the long-side test last; the
        // confidence of an answer given up so is returned (metric `repeatingAnswer`), as NO_DOCUMENT's value is 0.
        // An answer given up so may have taken the place of a card elsewhere in the frame: the searches that run when
        // nothing was accepted were skipped, since this outline was. A card cut by the frame's edge beside a keyboard
        // was NO_DOCUMENT that way (the keyboard's outline won, then read as repeating). They run now, in their
        // order, and the first answer they accept is taken when its own inside does not repeat.
        if let answer = found, repeatsInside(answer) {
            documentFinder.trace?.working("locate.givenUpRepeating", answer)
            if searchesAgainAfterRepeatingAnswer, !lightSearch {
                for search in NothingFoundSearch.allCases {
                    guard let again = whenNothingFound(search), again.confidence >= acceptance,
                          !repeatsInside(again) else { continue }
                    documentFinder.trace?.working("locate.againAfterRepeating.\(search)", again)
                    return (again, false, search == .inColour, search.isInWindow, nil, nil)
                }
            }
            return (nil, false, false, false, answer.confidence, nil)
        }
        return (found, false, false, inWindow, nil, largerCard)
    }

    /// The card found in the frame's colour contrast (`ChromaContrast`, `DocumentFinder.findInChroma`), its corners
    /// on the working image; nil for a frame without colour (a grayscale JPEG, a gray8 raw frame, a grey scene).
    private func findInColour(detection: GrayImage) -> DocumentFinder.Found? {
        guard colourContrast(detection: detection),
              // (The colour search refines on the colour contrast image, the detection image's size: its steps map
              // from it.)
              let found = tracing({ $0.prefix = "colour."; $0.workingToInput = $0.coarseToInput }, {
                  documentFinder.findInChroma(colour.contrastImage, luma: detection,
                                              acceptance: thresholds.minDocumentConfidence)
              }) else { return nil }
        return onWorking(found, detection: detection)
    }

    /// `body` run with the search trace's context changed by `change` (a search named apart, its images mapped
    /// otherwise), the context restored after; `body` alone when the search is not traced.
    func tracing<Result>(_ change: (inout SearchTrace.Context) -> Void, _ body: () -> Result) -> Result {
        guard let trace = documentFinder.trace else { return body() }
        let saved = trace.context
        change(&trace.context)
        defer { trace.context = saved }
        return body()
    }

    /// A finding on the detection image (the colour searches refine on the colour contrast image, the detection
    /// image's size) scaled to the working image.
    private func onWorking(_ found: DocumentFinder.Found, detection: GrayImage) -> DocumentFinder.Found {
        DocumentFinder.Found(quad: found.quad.scaled(x: Double(working.width) / Double(detection.width),
                                                     y: Double(working.height) / Double(detection.height)),
                             confidence: found.confidence)
    }

    /// This frame's colour contrast image at the detection size (`FrameColour.contrast`).
    private func colourContrast(detection: GrayImage) -> Bool {
        colour.contrast(width: detection.width, height: detection.height, decoder: decoder,
                        longSide: thresholds.workingLongSide, maxPixels: maxPixels)
    }

    // MARK: Document mode

    /// More than the metrics one document frame reports (29 names seen on the 4,580 tuning frames, at most 15 on one).
    static let documentMetricsCapacity = 24

    private func analyzeDocument(inputSize: (width: Int, height: Int), detection: GrayImage,
                                 previous: [FramePoint]?, previousInColour: Bool = false,
                                 lightSearch: Bool = false) -> FrameAnalysis {
        let t = thresholds
        if let trace = documentFinder.trace {
            let input = SIMD2(Double(inputSize.width), Double(inputSize.height))
            trace.reset(SearchTrace.Context(
                coarseToInput: (input / SIMD2(Double(detection.width), Double(detection.height)), .zero),
                workingToInput: (input / SIMD2(Double(working.width), Double(working.height)), .zero)))
        }
        // Room for every metric a document frame can report, so the dictionary is allocated once, not regrown.
        var metrics = FrameMetrics(values: Dictionary(minimumCapacity: Self.documentMetricsCapacity))
        var feedback: [Feedback] = []
        // Findings go in the canonical order, except an exposure finding that leads (`exposureLeads`: the scene is
        // out of the camera's range), which goes first once the list is complete.
        var exposureFirst: Feedback?
        func report(_ finding: Feedback, sceneBrightness: Double, brightShare: Double = 1) {
            if Self.exposureLeads(finding.code, sceneBrightness: sceneBrightness, thresholds: t,
                                  brightShare: brightShare) {
                exposureFirst = finding
            } else {
                feedback.append(finding)
            }
        }
        // Moves the finding with `code`, when there is one, to the front of the canonical order.
        func leadWith(_ code: FeedbackCode) {
            guard let at = feedback.firstIndex(where: { $0.code == code }) else { return }
            feedback.insert(feedback.remove(at: at), at: 0)
        }
        func completed() -> [Feedback] {
            if let exposureFirst { feedback.insert(exposureFirst, at: 0) }
            return feedback.isEmpty ? [Feedback(code: .good)] : feedback
        }
        let (found, tracked, inColour, inWindow, repeatingAnswer, largerCard) = locateDocument(
            detection: detection, previous: previous, previousInColour: previousInColour, lightSearch: lightSearch)
        if tracked { metrics["tracked"] = 1 }
        if let repeatingAnswer { metrics["repeatingAnswer"] = repeatingAnswer }
        if inColour { metrics["colourEdges"] = 1 }
        if inWindow { metrics["printedRegion"] = 1 }
        if !tracked && lightSearch { metrics["lightSearch"] = 1 }
        let quad = found?.quad
        var region: DocumentRegion?

        // Exposure is measured on the document when there is one; an outline too weak to be one is not, and the
        // frame's exposure is what the user sees (an over-exposed frame must still say TOO_BRIGHT).
        let accepted = (found?.confidence ?? 0) >= t.minDocumentConfidence
        spans.set(for: working, quad: accepted ? quad : nil)
        // Sparse sampling (every other row and column): means and shares over a card's tens of thousands of pixels.
        let exposure = FrameMeasurements.exposure(working, spans: spans, step: 2)
        metrics["brightness"] = exposure.mean
        metrics["contrast"] = exposure.stddev

        guard let found, let quad, found.confidence >= t.minDocumentConfidence, spans.pixelCount > 0 else {
            metrics["documentConfidence"] = found?.confidence ?? 0
            // An over-exposed frame clips the card into its (light) background and erases the edges the finder
            // needs: say TOO_BRIGHT first, it is what the user can fix. A dim frame still has its edges (a dark
            // desk is a normal scene), so there NO_DOCUMENT leads and TOO_DARK follows. Below `outOfRangeDarkness`
            // of the minimum (the selfie rule's bound too) a camera's exposure control has run out: the outline
            // sinks into amplified noise, an empty search proves little, and light is the first fix. (With no
            // card, the exposure measured is the whole frame's: the scene itself.)
            // A card's portrait seen large says a card held too close for its outline to be in view
            // (`largePortrait`). Not in a light search: like the other searches over the frame's print it is a
            // fallback, and a stream where nothing was found pays it on its whole-search frames only (a frame answered
            // on a portrait is not empty to the tracker, so the next is searched whole again).
            if readsLargePortraitsWithoutOutline, !lightSearch, let portrait = largePortrait(in: detection) {
                metrics["portraitSize"] = portrait
                feedback.append(Feedback(code: .moveAway, value: portrait, threshold: Self.minLargePortrait))
            } else if readsPortraitsAtFrameEdge, !lightSearch, (found?.confidence ?? 0) > 0,
                      let portrait = portraitInPrintAtFrameEdge(detection: detection) {
                // (A cut card's portrait, only where the searches scored some outline: a card refused by a gate
                // still scores one, a scene where nothing was outlined is searched no further.)
                metrics["portraitSize"] = portrait
                feedback.append(Feedback(code: .cutOff, value: portrait, threshold: Self.minCutCardPortrait))
            } else {
                feedback.append(Feedback(code: .noDocument, value: found?.confidence ?? 0,
                                         threshold: t.minDocumentConfidence))
            }
            if exposure.mean < t.minBrightness {
                report(Feedback(code: .tooDark, value: exposure.mean, threshold: t.minBrightness),
                       sceneBrightness: exposure.mean)
            }
            if exposure.mean > t.maxBrightness {
                report(Feedback(code: .tooBright, value: exposure.mean, threshold: t.maxBrightness),
                       sceneBrightness: exposure.mean)
            } else if let clipped = clippedShare(ofSceneWithMean: exposure.mean, thresholds: t) {
                metrics["clippedFraction"] = clipped
                // Clipped over much of the frame: the light has erased whatever lies there, and a card is as likely
                // lost in it as absent (ADR 9's rule, judged on the share clipped rather than the mean).
                if clipped > t.overexposedFraction {
                    exposureFirst = Feedback(code: .tooBright, value: clipped, threshold: t.overexposedFraction)
                }
            }
            return FrameAnalysis(width: inputSize.width, height: inputSize.height, mode: .document, region: nil,
                                 faces: [], metrics: metrics, feedback: completed())
        }
        let toInput = (x: Double(inputSize.width) / Double(working.width),
                       y: Double(inputSize.height) / Double(working.height))
        let inputQuad = quad.scaled(x: toInput.x, y: toInput.y)
        region = DocumentRegion(corners: inputQuad.corners.map { FramePoint(x: $0.x, y: $0.y) },
                                confidence: found.confidence)
        metrics["documentConfidence"] = found.confidence

        // Geometry, in input pixels (so raw and JPEG frames of one size agree).
        // Fill is relative to the largest ID-1 card held the same way that fits the frame: a card can never cover a
        // 16:9 (or 4:3) frame, so frame-relative fill would make "close enough" depend on the camera's aspect ratio,
        // and a card held across a portrait frame is as close as it can get when it spans the frame's width. An
        // upright quad in a landscape frame is judged as a card held across: cards are held that way there, and an
        // upright rectangle there is more often a card's portrait photo, which must not pass for a card close enough.
        let largestCard = Self.largestCard(judging: inputQuad, width: inputSize.width, height: inputSize.height)
        var fill = inputQuad.area / largestCard
        let shortSide = Double(min(inputSize.width, inputSize.height))
        var margin = Double.infinity
        for c in inputQuad.corners {
            margin = min(margin, c.x, c.y, Double(inputSize.width - 1) - c.x, Double(inputSize.height - 1) - c.y)
        }
        let edgeDistance = margin / shortSide
        let skew = inputQuad.skewDegrees
        // An ID-1 card seen nearly head-on is 1.586 long: a quad well longer than that is a card part of whose
        // outline is not seen (a band of it matching the background), and its long sides tell its real size.
        let aspect = inputQuad.aspect
        // Seen square-on (foreshortening hardly lengthens it) and still longer than a whole ID-1 card.
        let squareOnTooLong = skew <= IDCard.squareOnSkew && aspect > IDCard.longestSquareOnWholeAspect
        if squareOnTooLong && edgeDistance >= t.edgeMargin {
            fill *= aspect / IDCard.aspect
        }
        // A card the frame cuts is larger than what is seen of it, and its longest edge in view is at most its long
        // side: it covers at least that edge squared over the ID-1 aspect. A card too large to fit the frame must
        // be told to move away (which then replaces CUT_OFF below), not to move within the frame.
        if edgeDistance < t.edgeMargin {
            let seenEdge = inputQuad.longestOutlineSideInside(
                width: Double(inputSize.width), height: Double(inputSize.height), tolerance: t.edgeMargin * shortSide)
            fill = max(fill, IDCard.leastArea(seenEdge: seenEdge) / largestCard)
        }
        // A card tilted away is foreshortened: its quad is smaller than the card at the distance of its nearest edge,
        // which is seen at nearly its own length. Whether it is close enough is judged by that edge too, so a
        // strongly tilted card at a good distance is told TILTED, not MOVE_CLOSER (moving closer would not square
        // it). Only for MOVE_CLOSER: the nearest edge overstates the card's size, so it never says MOVE_AWAY.
        // Nor do a tilted card's side lengths tell how it is held: turned far about the vertical axis, a card held
        // across a portrait frame has its long sides foreshortened below its short ones, and its quad reads as an
        // upright card's, whose largest size in a portrait frame is 2.5 times the across one's. In a portrait frame a
        // tilted card is judged as held across here, as it was held (camsim's cards turned 40-50° that way read fill
        // 0.12-0.13 for a true 0.30-0.33: told MOVE_CLOSER first).
        var closeness = fill
        if skew > t.maxSkew && edgeDistance >= t.edgeMargin {
            let nearest = inputQuad.longestOutlineSideInside(
                width: Double(inputSize.width), height: Double(inputSize.height), tolerance: 0)
            let judgedAcross = judgesTiltedPortraitCardsAcross && inputSize.width < inputSize.height
            let largest = judgedAcross
                ? IDCard.largestArea(width: inputSize.width, height: inputSize.height, longSideHorizontal: true)
                : largestCard
            closeness = max(inputQuad.area / largest, fill, IDCard.leastArea(seenEdge: nearest) / largest)
        }
        // Where the unseen band can be: on either long side (a quad too long for a document), or on either short side
        // (one too square). The card may be called whole only if it fits the frame wherever that part lies; a quad
        // closed by a printed band, or by a line across a card that leaves the frame (the band's edge, a thumb's,
        // standing in for the card's edge beyond the frame), must not pass for a whole card.
        // (A tilted card's quad is also long, from foreshortening; it is TILTED, never GOOD, whatever its extent.)
        let hiddenDistance = skew > t.maxSkew ? Double.infinity
            : Self.hiddenPartMargin(inputQuad, width: inputSize.width, height: inputSize.height) / shortSide
        let outlineDistance = min(edgeDistance, hiddenDistance)
        // A small outline seen whole and shaped as a portrait, with a face filling it, is the card's photo: the card
        // around it was not found, and its size follows from the photo's (`cardFillImpliedByPhoto`). Only a card too
        // large for the frame changes the answer: MOVE_AWAY, never MOVE_CLOSER on its photo. An outline of ordinary
        // size (up to `maxFill`) is read so too when print runs on past it (`printRunsOnPast`): a passport page held
        // too close, answered on its photo and the text beside it, was captured (camsim small 181 `move_away_0006`);
        // without that gate whole passport pages at a good distance, their portraits filling a third of their width,
        // were told MOVE_AWAY.
        var photoImpliedFill: Double?
        if judgesPhotoAnswersByTheirFace, edgeDistance >= t.edgeMargin, aspect <= Self.maxPhotoAnswerAspect,
           closeness < t.minFill
            || readsPhotoAnswersInsidePrint && closeness < t.maxFill && printRunsOnPast(quad, detection: detection),
           let implied = cardFillImpliedByPhoto(quad, inputQuad: inputQuad, inputSize: inputSize) {
            metrics["photoImpliedFill"] = implied
            photoImpliedFill = implied
            if implied > t.maxFill {
                fill = implied
                closeness = implied
            }
        }
        // A small outline seen whole inside print that runs on past it to the frame's edge is a part of a card the
        // frame cuts (its photo, a panel of its face): CUT_OFF, never MOVE_CLOSER on the part (the card's size is not
        // seen, only that the frame cuts it). Not an outline with a whole card's shape seen square-on: that is the
        // card, and the print beside it another thing's (a page, a keyboard) running to the frame's edge; unless its
        // face says it is the card's photo (`photoImpliedFill`), whose card is then as large as the photo implies:
        // the print may cover up to that card's area over the photo's (`IDCard.photoShareOfHeight`), not
        // `maxCutCardPrintOverPart`.
        // (The print around the outline is read once, by the first of the rules below that asks for it.)
        lazy var printAround = printAtFrameEdge(around: quad, detection: detection)
        var printAtEdgeOverPart: (ratio: Double, bar: Double)?
        if judgesPartsOfPrintAtFrameEdge, closeness < t.minFill, edgeDistance >= t.edgeMargin,
           !IDCard.wholeSeenSquareOn(quad) || photoImpliedFill != nil {
            if let ratio = printAround.map({ $0.region / $0.part }) {
                metrics["printAtEdgeOverPart"] = ratio
                let bar = photoImpliedFill.map { $0 * largestCard / max(1, inputQuad.area) }
                    ?? Self.maxCutCardPrintOverPart
                if ratio <= bar { printAtEdgeOverPart = (ratio, bar) }
            }
        }
        // A card the frame cuts, seen by its photo: how large it is depends on the share of its height the photo
        // takes, which documents print from ~0.6 (ID-1 cards) down to ~0.5 (a passport's data page). CUT_OFF asks
        // the user to bring the card into view, which a card too large for the frame can never be, while MOVE_AWAY
        // for a card that would have fitted only makes it a little smaller in the next frame; so the card is judged
        // at the largest size its photo allows, and told MOVE_AWAY when that does not fit (`largestPhotoImpliedFill`).
        // (A photo implying a card past `maxFill` already made it MOVE_AWAY above, and no part rule ran.)
        if judgesCutPhotoCardsAtTheirLargest, printAtEdgeOverPart != nil, let implied = photoImpliedFill {
            let taller = IDCard.photoShareOfHeight / IDCard.smallestPhotoShareOfHeight
            let largest = implied * taller * taller
            metrics["largestPhotoImpliedFill"] = largest
            if largest > t.maxFill {
                fill = largest
                closeness = largest
                printAtEdgeOverPart = nil
            }
        }
        // A small outline told CUT_OFF (at the frame's edge, or a part inside print that runs to it) belongs to a card
        // at least as large as the box of that print: one card's print, reaching the frame's edge. When even that
        // would not fit (past `maxFill`), the card is too close and the frame cuts it for that: MOVE_AWAY.
        if judgesCutPartsByTheirPrint, closeness < t.minFill,
           outlineDistance < t.edgeMargin || printAtEdgeOverPart != nil,
           let print = printAround {
            // (Against the largest card held across, as a photo's card is: a part does not tell how the card is
            // held, and across is how cards are held.)
            let toInput = Double(inputSize.width) / Double(detection.width)
            let printed = print.region * toInput * toInput
                / IDCard.largestArea(width: inputSize.width, height: inputSize.height, longSideHorizontal: true)
            metrics["printAroundCutPartFill"] = printed
            // (At the largest size that print allows, as a cut photo's card is: MOVE_AWAY for a card that would have
            // fitted only makes it smaller in the next frame; CUT_OFF for one too large can never be met.)
            let largest = judgesCutPartsAtTheLargestTheirPrintAllows ? printed / Self.leastPrintShareOfCutPart : printed
            if largest > t.maxFill {
                metrics["largestPrintImpliedFill"] = largest
                fill = largest
                closeness = largest
                printAtEdgeOverPart = nil
            }
        }
        // A face too large for the card the answer's size implies says the answer is a part of a card held too close
        // (`largePortrait(around:)`): MOVE_AWAY, and neither MOVE_CLOSER nor CUT_OFF on the part (moving away also
        // brings a cut card into view). Looked for only around an answer that reads as a part by its shape and print
        // (`answerReadsAsAPart`): the face search costs a few times a small card's whole analysis.
        var portraitAround: Double?
        if readsLargePortraitsAroundSmallAnswers, closeness < t.minFill, answerReadsAsAPart(quad, detection: detection),
           let portrait = largePortrait(around: quad, detection: detection) {
            metrics["portraitSize"] = portrait
            portraitAround = portrait
        }
        metrics["fill"] = fill
        metrics["skew"] = skew
        metrics["edgeDistance"] = outlineDistance
        metrics["aspect"] = aspect

        // Judged on step edges only, so noise, JPEG blocking and sharpening halos cannot make a soft card sharp.
        // A tracked frame is nearly always one with nothing to fix, which reads the wide share below too: half of its
        // rows are read with this pass (`CardSharpness.measureWithWideRows`).
        let sharpness: SharpnessMeasurement
        var wideRows: CardSharpness.StepSums? = nil
        if tracked && readsWideRowsWithSharpness {
            (sharpness, wideRows) = CardSharpness.measureWithWideRows(working, spans: spans)
            sharpnessPassesWithWideRows += 1
        } else {
            sharpness = CardSharpness.measure(working, spans: spans)
        }
        metrics["sharpness"] = sharpness.overall
        metrics["motionAnisotropy"] = sharpness.anisotropy

        let glareResult = glare.measure(working, spans: spans, luma: UInt8(max(1, min(255, t.glareLuma.rounded()))),
                                        step: 2)
        let area = Double(max(glareResult.sampled, 1))
        let glareFraction = Double(glareResult.saturated) / area
        let largestBlob = Double(glareResult.largestBlob) / area
        metrics["glareFraction"] = glareFraction
        metrics["largestGlareBlob"] = largestBlob

        // A document that already covers more than `maxFill` of the largest card the frame can hold and touches the
        // edge is cut off because it is too close: moving away is what fixes it, so MOVE_AWAY replaces CUT_OFF.
        if let portraitAround {
            feedback.append(Feedback(code: .moveAway, value: portraitAround, threshold: Self.minLargePortrait))
        } else {
            if outlineDistance < t.edgeMargin && fill <= t.maxFill {
                feedback.append(Feedback(code: .cutOff, value: outlineDistance, threshold: t.edgeMargin))
            } else if let printAtEdgeOverPart {
                feedback.append(Feedback(code: .cutOff, value: printAtEdgeOverPart.ratio,
                                         threshold: printAtEdgeOverPart.bar))
            }
            if closeness < t.minFill && printAtEdgeOverPart == nil {
                feedback.append(Feedback(code: .moveCloser, value: fill, threshold: t.minFill))
            }
        }
        if fill > t.maxFill { feedback.append(Feedback(code: .moveAway, value: fill, threshold: t.maxFill)) }
        if skew > t.maxSkew { feedback.append(Feedback(code: .tilted, value: skew, threshold: t.maxSkew)) }
        // A card too dark or too bright in a scene of ordinary light is the card's colour or a lamp on it: the
        // geometry comes first. In a scene below `outOfRangeDarkness` of the minimum the camera ran out of light, in
        // one above the maximum it is over-exposed as a whole: as when nothing is found, the exposure is the first fix
        // (and the outline in such a frame may be the noise's or the clipping's, no instruction to follow). So too
        // when the card itself reads over the maximum in a scene over `overexposedSceneShare` of it (`brightShare`):
        // the card is washed out by an exposure that has run past the scene, not white in an ordinary one (its
        // outline, clipped into a light background, is as uncertain: camsim 112 `too_bright_0008` was told
        // MOVE_CLOSER on a part).
        if exposure.mean < t.minBrightness {
            report(Feedback(code: .tooDark, value: exposure.mean, threshold: t.minBrightness),
                   sceneBrightness: detection.meanLuma)
        }
        if exposure.mean > t.maxBrightness {
            report(Feedback(code: .tooBright, value: exposure.mean, threshold: t.maxBrightness),
                   sceneBrightness: detection.meanLuma, brightShare: overexposedSceneShare)
        } else if glareFraction > t.overexposedFraction {
            // Most of the document clipped is exposure, not a reflection the user can tilt away.
            report(Feedback(code: .tooBright, value: glareFraction, threshold: t.overexposedFraction),
                   sceneBrightness: detection.meanLuma)
        }
        // A smeared frame is BLURRY whether the smear is defocus or motion: one frame cannot tell movement between
        // frames, which is the tracker's HOLD_STEADY. `motionAnisotropy` is still reported for operators.
        if sharpness.overall < t.minDocumentSharpness {
            feedback.append(Feedback(code: .blurry, value: sharpness.overall, threshold: t.minDocumentSharpness))
        }
        if glareFraction > t.overexposedFraction {
            // Reported as TOO_BRIGHT above.
        } else if glareFraction > t.maxGlareFraction {
            feedback.append(Feedback(code: .glare, value: glareFraction, threshold: t.maxGlareFraction))
        } else if largestBlob > t.maxGlareBlob {
            feedback.append(Feedback(code: .glare, value: largestBlob, threshold: t.maxGlareBlob))
        }
        // A card seen square-on is at most `longestSquareOnWholeAspect` long: a longer quad lacks a band of the card
        // (a header or MRZ band the colour of the background, whose outer edge the finder did not see). The
        // `hiddenPartMargin` above looks for that band only past the length a tilt's foreshortening can explain
        // (`longestQuadAspect`), which a quad seen square-on does not have. When nothing else is to fix, such a card
        // is called whole only if the band fits the frame on either side: otherwise a card perhaps cut would be
        // captured (camsim seed 20 `cut_off_0014`: a card cut at the top, its header band out of view, was GOOD).
        // The finding is uncertain (the band may lie inside the frame: camsim seed 2 `good_0016`, its band 12 px
        // from the edge, now reads CUT_OFF), so it only holds back a capture and never goes before a finding the
        // frame certainly has (measured in docs/capture.md, "Document quad").
        if feedback.isEmpty && exposureFirst == nil && squareOnTooLong {
            // The narrowest band that can be missing, placed beyond either long side in turn: both must fit,
            // unless the band's print shows on one side and the background's plain on the other; then the band
            // lies on the printed side, and only that placement must fit (`MissingBandPrint`).
            let growth = MissingBandPrint.growth(aspect: aspect)
            let margins = MissingBandPrint.margins(inputQuad.corners, growth: growth, width: inputSize.width,
                                                   height: inputSize.height)
            var bandMargin = min(margins.0, margins.1) / shortSide
            if bandMargin < t.edgeMargin && readsMissingBandPrint,
               let printed = MissingBandPrint.printedSide(working, corners: quad.corners, growth: growth) {
                metrics["missingBandPrint"] = printed.print
                bandMargin = (printed.side == 0 ? margins.0 : margins.1) / shortSide
            }
            if bandMargin < t.edgeMargin {
                feedback.append(Feedback(code: .cutOff, value: bandMargin, threshold: t.edgeMargin))
            }
        }
        // A card about to be captured must lie clear of the frame's edges by more than the outline's own error: two
        // card parts found 0.014 and 0.022 of the short side from an edge, their cards going on out of view, were
        // captured (camsim small 170 `cut_off_0002`, portrait 122 `cut_off_0008`). Only holds back a capture.
        if feedback.isEmpty && exposureFirst == nil && outlineDistance < t.minCaptureMargin {
            feedback.append(Feedback(code: .cutOff, value: outlineDistance, threshold: t.minCaptureMargin))
        }
        // Print that reads sharp on a card whose own outline is smeared: the crisp edges along a motion outweighed
        // the smeared ones across it (see `OutlineSmear`). Judged only when nothing else is to fix, so it only holds
        // back a capture: on frames with other findings the outline is as likely a wrong one (a background's
        // lines closed by the frame, a card's part), and a striped desk beside such an outline reads as a ramp
        // (three sharp frames of the camsim sets, all with other findings, read 5.0-7.0 px; every GOOD one ≤ 2.0).
        // A frame read at its own size (no larger than the working size: a small frame) keeps the camera's own
        // edge spread whole, and its bar is never narrower than that spread (`OutlineSmear.cameraEdgeSpread`).
        if feedback.isEmpty && exposureFirst == nil && t.maxOutlineSmear > 0,
           let smear = outlineSmear.measure(working, corners: quad.corners) {
            let share = smear / Double(max(working.width, working.height))
            let bar = OutlineSmear.bar(maxShare: t.maxOutlineSmear,
                                       inputLongSide: Double(max(inputSize.width, inputSize.height)))
            metrics["outlineSmear"] = share
            if share > bar {
                feedback.append(Feedback(code: .blurry, value: share, threshold: bar))
            }
        }
        // Print whose steps read crisp over 4 px but go on rising past them: staircases of a shake's ghost copies
        // (see `CardSharpness.wideStepShare`). Judged only when nothing else is to fix, so it only holds back a
        // capture and only frames about to be captured pay for the second pass.
        if feedback.isEmpty && exposureFirst == nil && t.minWideStepShare > 0 {
            let share = if let wideRows {
                CardSharpness.wideStepShare(working, spans: spans, completing: wideRows).overall
            } else {
                CardSharpness.wideStepShare(working, spans: spans).overall
            }
            metrics["wideStepShare"] = share
            if share < t.minWideStepShare {
                feedback.append(Feedback(code: .blurry, value: share, threshold: t.minWideStepShare))
            }
        }
        // An outline whose two sides beside one side both run on past it, up to the frame's border, is a card's part
        // closed on a line across the card (a photo's edge, a band's), the card going on out of view (see
        // `OutlineRunOn`). Judged only when nothing else is to fix, so it only holds back a capture.
        if feedback.isEmpty && exposureFirst == nil && t.minOutlineRunOn > 0,
           let runOn = OutlineRunOn.runOnToBorder(working, corners: quad.corners, minCarried: t.minOutlineRunOn,
                                                  coveredRuns: takesCoveredRunOns) {
            metrics["outlineRunOn"] = runOn
            feedback.append(Feedback(code: .cutOff, value: runOn, threshold: t.minOutlineRunOn))
        }
        // An answer whose sides run on past its far corners is a larger card's part that was not found around it
        // (`locateDocument`). Judged only when nothing else is to fix, so it only holds back a capture: MOVE_AWAY when
        // the card the runs imply is already too large for the frame (`largerCardFill` over `maxFill`: the runs end
        // at the frame's border or where the edge fades, so it is the least the card can be), CUT_OFF otherwise, with
        // the lesser share of their sides the runs carry (`largerCardRunOn`, from `OutlineRunsPastCorner.minRunShare`).
        if feedback.isEmpty && exposureFirst == nil, let larger = largerCard {
            let card = Quadrilateral(corners: larger.corners).scaled(x: toInput.x, y: toInput.y)
            let largerFill = card.area / Self.largestCard(judging: card, width: inputSize.width,
                                                          height: inputSize.height)
            metrics["largerCardFill"] = largerFill
            metrics["largerCardRunOn"] = larger.runShare
            if largerFill > t.maxFill {
                feedback.append(Feedback(code: .moveAway, value: largerFill, threshold: t.maxFill))
            } else {
                feedback.append(Feedback(code: .cutOff, value: larger.runShare,
                                         threshold: OutlineRunsPastCorner.minRunShare))
            }
        }
        // MOVE_CLOSER keeps its place before BLURRY (a small card reads soft partly for its size: ADR 13), but not for
        // a card smeared far past that (under `smearedCardShare` of the bar): no card at the optics' limit reads so
        // soft, and the small outline in such a frame is as likely a part of a card the blur hid (camsim 106
        // `blurry_0000`: a card told MOVE_CLOSER on its photo at 0.059). Not with an exposure or glare finding:
        // clipped cards read near 0 whatever the focus.
        if exposureFirst == nil, feedback.first?.code == .moveCloser,
           sharpness.overall < t.minDocumentSharpness * smearedCardShare,
           !Self.hasExposureFinding(feedback), !feedback.contains(where: { $0.code == .glare }) {
            leadWith(.blurry)
        }
        // A glare patch is a mirror image of a lamp: where it lies, the card's print and edge are gone, and the outline
        // read around it is uncertain (on the measured sets every GLARE frame told CUT_OFF, MOVE_AWAY or TILTED first
        // held its card whole; the outline had run past the card, or been closed on the patch). From a patch of
        // `glareOverOutlineShare` × `maxGlareBlob` of the card, GLARE goes before those findings: tilting the card
        // away from the lamp is the first fix, and it changes what the outline shows. Not with an exposure finding (a
        // clipped card's own rule). Before MOVE_CLOSER only when the patch runs on past the outline
        // (`glareBeyondOutline`, read only then): a small card's size is read whatever lies on it, but an outline the
        // patch runs past was closed on the patch, a part of the card beside it, no guide to the card's size.
        if exposureFirst == nil, let first = feedback.first?.code,
           largestBlob >= t.maxGlareBlob * glareOverOutlineShare, !Self.hasExposureFinding(feedback) {
            var glareFirst = [.cutOff, .moveAway, .tilted].contains(first)
            if first == .moveCloser, leadsWithGlareBeyondSmallOutlines {
                let beyond = Self.glareBeyondOutline(quad, on: working, luma: t.glareLuma)
                metrics["glareBeyondOutline"] = beyond
                glareFirst = beyond >= Self.minGlareBeyondOutline
            }
            if glareFirst { leadWith(.glare) }
        }
        if exposureFirst == nil, let scene = blurredSceneSharpness(feedback, thresholds: t) {
            metrics["sceneSharpness"] = scene
            if scene < t.maxBlurredSceneSharpness { leadWith(.blurry) }
        }
        return FrameAnalysis(width: inputSize.width, height: inputSize.height, mode: .document, region: region,
                             faces: [], metrics: metrics, feedback: completed())
    }

    /// The area of the largest ID-1 card held as `quad` is judged held that fits a `width` × `height` frame, which
    /// `fill` is relative to (see `analyzeDocument`): held across when its longer sides are nearer the horizontal,
    /// and always in a landscape frame (an upright rectangle there is more often a card's portrait photo).
    static func largestCard(judging quad: Quadrilateral, width: Int, height: Int) -> Double {
        IDCard.largestArea(width: width, height: height,
                           longSideHorizontal: quad.longSideHorizontal || width >= height)
    }

    /// The whole frame's sharpness when a soft card's BLURRY follows a finding on its outline (CUT_OFF, MOVE_AWAY,
    /// TILTED) in a frame without an exposure finding; nil otherwise (then it is not measured). Below
    /// `maxBlurredSceneSharpness` the scene is smeared as a whole (the camera shaken, or focused nowhere near the
    /// card), and the outline those findings were judged on is as likely the blur's: a wrong one (a background
    /// object, a card's part) on every such frame of the camsim sets. Steadying the camera is the first fix
    /// (ADR 13). Not MOVE_CLOSER: a small card reads soft partly for its size (its print at the optics' limit), and
    /// moving closer both enlarges it and lets its sharpness be judged; held before a far background, which depth of
    /// field leaves soft, such a card stood behind a BLURRY the user could not fix. A sharp card before a soft
    /// background is not BLURRY, and a sharp scene around a soft quad keeps the order; clipped and under-exposed
    /// frames read near 0 whatever the focus, so an exposure finding rules it out.
    private func blurredSceneSharpness(_ feedback: [Feedback], thresholds t: AnalysisThresholds) -> Double? {
        let outlineFirst: Bool
        switch feedback.first?.code {
        case .cutOff, .moveAway, .tilted: outlineFirst = true
        default: outlineFirst = false
        }
        guard t.maxBlurredSceneSharpness > 0, outlineFirst, feedback.contains(where: { $0.code == .blurry }),
              !Self.hasExposureFinding(feedback) else { return nil }
        spans.set(for: working, quad: nil)
        return CardSharpness.measure(working, spans: spans).overall
    }

    /// The share of a frame without a document that is clipped (luma ≥ `glareLuma`, on `spans`, which then cover the
    /// whole frame), or nil when the scene's mean already rules out a share above `overexposedFraction` (each clipped
    /// pixel adds at least `glareLuma` × its share to the mean), so that most empty frames pay nothing for it.
    private func clippedShare(ofSceneWithMean mean: Double, thresholds t: AnalysisThresholds) -> Double? {
        guard mean >= t.overexposedFraction * t.glareLuma else { return nil }
        let clipped = glare.measure(working, spans: spans, luma: UInt8(max(1, min(255, t.glareLuma.rounded()))),
                                    step: 2)
        return Double(clipped.saturated) / Double(max(clipped.sampled, 1))
    }

    /// The share of `minBrightness` below which a scene's mean luma says the camera ran out of light: 0.7 × 80 = 56,
    /// about 2.2 EV below the mid-grey an exposure meter aims for (sRGB luma 118; 80 is about 1.1 EV below it).
    /// Auto-exposure errs by about 1 EV in a scene it can still expose, so a scene that dark means its exposure time
    /// and gain have run out: a dark desk or a dark card is brought up to mid-grey, not left there. Until 2026-12-05
    /// the bound was half `minBrightness` (40, about 3 EV below): camsim's dim scenes (gain 8-24, still 2.4-3.6 EV
    /// under) at scene luma 40-44 whose card no search found were told NO_DOCUMENT first (docs/capture.md). framegen's
    /// darkest empty scene, at luma 62, stays NO_DOCUMENT.
    static let outOfRangeDarkness = 0.7

    /// Whether an exposure finding (TOO_DARK or TOO_BRIGHT) goes before every other, judged on the whole scene's mean
    /// luma: below `outOfRangeDarkness` of the minimum brightness the camera ran out of light (its exposure control
    /// brings even a dark desk above that), above the maximum the frame is over-exposed as a whole. Then whatever
    /// else the frame shows (an empty search, an outline, a face not found) proves little, and the exposure is what
    /// the user can fix.
    /// `brightShare` lowers the bright bound to that share of the maximum where the card itself reads over it
    /// (`overexposedSceneShare`, ADR 9): a washed-out card shows the exposure ran past the scene sooner than the
    /// scene's mean does.
    static func exposureLeads(_ code: FeedbackCode, sceneBrightness: Double, thresholds t: AnalysisThresholds,
                              brightShare: Double = 1) -> Bool {
        switch code {
        case .tooDark: sceneBrightness < t.minBrightness * outOfRangeDarkness
        case .tooBright: sceneBrightness > t.maxBrightness * brightShare
        default: false
        }
    }

    /// Whether the findings listed so far hold an exposure finding (TOO_DARK or TOO_BRIGHT, one that did not lead):
    /// the reorderings for blur and glare leave such frames alone, since a clipped or under-exposed card reads near 0
    /// sharpness whatever its focus, and its clipping is no reflection.
    static func hasExposureFinding(_ feedback: [Feedback]) -> Bool {
        feedback.contains { $0.code == .tooDark || $0.code == .tooBright }
    }

    /// The smallest distance (input pixels) from the frame's edge of a document whose quad is not a document's
    /// shape, with its unseen part placed beyond either side in turn; `.infinity` for a quad of a document's shape.
    /// A quad too long for any identity document lacks a band along a long side: ID-1 is the longest shape, so it
    /// gives the narrowest band that can be missing. One too square lacks a part along its long axis, beyond a short
    /// side: ID-2 / ID-3 are the squarest shape, so they give the shortest part that can be missing. (Both the
    /// least that can be hidden: the card may be called whole only if even that fits the frame on either side.)
    /// Too long: beyond the longest a tilted card's quad can measure, `IDCard.longestQuadAspect` (the square-on band
    /// rule, which uses a shorter bound, places the band with `MissingBandPrint.margins` itself). 0 for a quad past
    /// `IDCard.longestWithHiddenBandAspect` or `squarestWithHiddenPartAspect`: a card's part, never whole.
    static func hiddenPartMargin(_ quad: Quadrilateral, width: Int, height: Int) -> Double {
        let c = quad.corners
        let (even, odd) = Quadrilateral.meanOppositeSides(c)
        let long = max(even, odd), short = max(min(even, odd), 1)
        let aspect = long / short
        // Beyond either bound the quad is a card's part, not a card with a part at its background's shade: never
        // whole, wherever the rest lies (camsim's fresh portrait seed 86: a card cut by the frame's bottom, closed
        // on its photo's edge at aspect 2.49, and a tilted card's right part at 1.21, were both GOOD, auto-captured).
        if aspect > IDCard.longestWithHiddenBandAspect || aspect < IDCard.squarestWithHiddenPartAspect { return 0 }
        if aspect > IDCard.longestQuadAspect {
            // A band beyond a long side: the short sides grow.
            let margins = MissingBandPrint.margins(c, growth: MissingBandPrint.growth(aspect: aspect), width: width,
                                                   height: height)
            return min(margins.0, margins.1)
        }
        guard aspect < IDCard.squarestQuadAspect else { return .infinity }
        // A part beyond a short side: the long sides grow. Sides 0 and 2 join corners 0-1 and 2-3, sides 1 and 3
        // corners 1-2 and 3-0. Each (corner, opposite) moves a corner away from its neighbour across the hidden part,
        // by `growth` times the side between them (the same share of each side, so perspective is followed).
        let growth = IDCard.squarestAspect / aspect - 1
        let pairs = even >= odd ? [(1, 0), (2, 3), (3, 2), (0, 1)] : [(0, 3), (1, 2), (2, 1), (3, 0)]
        var margin = Double.infinity
        for (corner, opposite) in pairs {
            let p = c[corner] + (c[corner] - c[opposite]) * growth
            margin = min(margin, p.x, p.y, Double(width - 1) - p.x, Double(height - 1) - p.y)
        }
        return margin
    }

    // MARK: Selfie mode

    /// Relative distance from a face threshold (`minFaceSize`, `maxFaceSize`, `maxFaceOffset`) within which a
    /// tracked face's box does not decide the verdict (measured: tracked boxes within 1 % of the first pass's).
    static let trackedVerdictMargin = 0.03

    /// Whether `face` (on `detection`) measures within `trackedVerdictMargin` of a face-size or centring threshold.
    private static func nearAFaceThreshold(_ face: kyc_face, in detection: GrayImage,
                                           thresholds t: AnalysisThresholds) -> Bool {
        let (size, offset) = FaceRegion(x: Double(face.x), y: Double(face.y), width: Double(face.width),
                                        height: Double(face.height), eyes: Int(face.eyes))
            .sizeAndOffset(frameWidth: detection.width, frameHeight: detection.height)
        func near(_ value: Double, _ threshold: Double) -> Bool {
            abs(value - threshold) <= trackedVerdictMargin * threshold
        }
        return near(size, t.minFaceSize) || near(size, t.maxFaceSize) || near(offset, t.maxFaceOffset)
    }

    private func analyzeSelfie(inputSize: (width: Int, height: Int), detection: GrayImage,
                               previous: [FramePoint]?, lightSearch: Bool) throws(FrameAnalysisError) -> FrameAnalysis {
        let t = thresholds
        let search = try loadedFaceSearch()
        let sceneBrightness = detection.meanLuma
        var tracked: kyc_face?
        if let previous, previous.count == 2 {
            let w = Double(detection.width), h = Double(detection.height)
            tracked = search.trackedFace(previous: (previous[0].x * w, previous[0].y * h, previous[1].x * w,
                                                    previous[1].y * h), detection: detection, working: working)
            // A tracked box can differ from the first pass's by a few pixels: where that decides the verdict (its
            // size or centring within `trackedVerdictMargin` of a threshold), the frame is searched whole.
            // A tracked face near the frame's edge is measured again beyond it, as the whole search measures its
            // main face (`FaceSearch.measuredBeyondTheEdge`): the tracked box is the one the frame cut.
            if let face = tracked {
                tracked = search.measuredBeyondTheEdge(FaceSearch.found([face], searched: detection),
                                                       detection: detection).faces.first
            }
            if let face = tracked, Self.nearAFaceThreshold(face, in: detection, thresholds: t) { tracked = nil }
        }
        let main = tracked.map { FaceSearch.found([$0], searched: detection) }
            ?? search.mainFaces(detection: detection, working: working, sceneBrightness: sceneBrightness,
                                firstPassOnly: lightSearch)
        let found = main.faces, searched = main.searched
        let sx = Double(inputSize.width) / Double(searched.width), sy = Double(inputSize.height) / Double(searched.height)
        func region(_ face: kyc_face) -> FaceRegion {
            FaceRegion(x: Double(face.x) * sx, y: Double(face.y) * sy, width: Double(face.width) * sx,
                       height: Double(face.height) * sy, eyes: Int(face.eyes))
        }
        var faces = found.map(region)
        var metrics = FrameMetrics()
        var feedback: [Feedback] = []

        // Exposure and sharpness on the face when there is one (the background does not matter), else the frame.
        let wx = Double(working.width) / Double(inputSize.width), wy = Double(working.height) / Double(inputSize.height)
        let faceQuad: Quadrilateral? = faces.first.map { f in
            let x0 = f.x * wx, y0 = f.y * wy, x1 = (f.x + f.width) * wx, y1 = (f.y + f.height) * wy
            return Quadrilateral(corners: QuadCorners(SIMD2(x0, y0), SIMD2(x1, y0), SIMD2(x1, y1), SIMD2(x0, y1)))
        }
        spans.set(for: working, quad: faceQuad)
        let exposure = FrameMeasurements.exposure(working, spans: spans)
        let sharpness: SharpnessMeasurement
        if let f = faces.first {
            // At a fixed face scale: a close face is not blurrier than a far one (see FaceSharpness).
            sharpness = faceSharpness.measure(working, x0: Int(f.x * wx), y0: Int(f.y * wy),
                                              x1: Int(((f.x + f.width) * wx).rounded(.up)),
                                              y1: Int(((f.y + f.height) * wy).rounded(.up)))
        } else {
            sharpness = FrameMeasurements.sharpness(working, spans: spans)
        }
        metrics["brightness"] = exposure.mean
        metrics["contrast"] = exposure.stddev
        metrics["sharpness"] = sharpness.overall
        if tracked != nil { metrics["tracked"] = 1 }
        if tracked == nil && lightSearch { metrics["lightSearch"] = 1 }
        if tracked == nil && !found.isEmpty && searched !== working {
            faces += search.secondPersons(besides: found, boxes: main.boxes, detection: detection, working: working,
                                          acceptingEyeless: sharpness.overall >= t.minSharpness
                                              && exposure.mean >= t.minBrightness).map(region)
        }
        metrics["faceCount"] = Double(faces.count)

        // Too dark for the camera (`exposureLeads`): with no face found, TOO_DARK goes before NO_FACE.
        let darkScene = Self.exposureLeads(.tooDark, sceneBrightness: sceneBrightness, thresholds: t)
        if let face = faces.first {
            // A second face at least 40 % of the main one's width is a second person; smaller hits are usually
            // background texture the cascade mistook for a face.
            let others = faces.dropFirst().filter { $0.width >= 0.4 * face.width }.count
            let (size, offset) = face.sizeAndOffset(frameWidth: inputSize.width, frameHeight: inputSize.height)
            metrics["faceSize"] = size
            metrics["faceOffset"] = offset
            metrics["eyes"] = Double(face.eyes)
            metrics["faceScore"] = found[0].score
            if others > 0 {
                feedback.append(Feedback(code: .multipleFaces, value: Double(others + 1), threshold: 1))
            }
            if size < t.minFaceSize { feedback.append(Feedback(code: .faceTooSmall, value: size, threshold: t.minFaceSize)) }
            if size > t.maxFaceSize { feedback.append(Feedback(code: .faceTooLarge, value: size, threshold: t.maxFaceSize)) }
            if offset > t.maxFaceOffset {
                feedback.append(Feedback(code: .faceNotCentered, value: offset, threshold: t.maxFaceOffset))
            }
        } else if !darkScene {
            feedback.append(Feedback(code: .noFace, value: 0, threshold: 1))
        }
        if exposure.mean < t.minBrightness {
            feedback.append(Feedback(code: .tooDark, value: exposure.mean, threshold: t.minBrightness))
        }
        if faces.isEmpty && darkScene {
            // Below `outOfRangeDarkness` of the minimum the camera ran out of light, even a face lit better than the
            // scene would be too dark, and an empty search proves little: light is the first fix, then the face.
            feedback.append(Feedback(code: .noFace, value: 0, threshold: 1))
        }
        if !faces.isEmpty, sharpness.overall < t.minSharpness {
            feedback.append(Feedback(code: .blurry, value: sharpness.overall, threshold: t.minSharpness))
        }
        // About to be judged GOOD, and perhaps captured: a frame searched whole is searched once more for a second
        // person near the user's own face size, with another cascade (`unseenPersons`).
        if feedback.isEmpty && tracked == nil && !found.isEmpty && searched !== working {
            let unseen = search.unseenPersons(besides: found, boxes: main.boxes, detection: detection, working: working)
            if !unseen.isEmpty, let face = faces.first {
                faces += unseen.map(region)
                metrics["faceCount"] = Double(faces.count)
                // Counted as the second-person rule counts (unseen faces are all 0.6 × the main one or more).
                let others = faces.dropFirst().filter { $0.width >= 0.4 * face.width }.count
                feedback.append(Feedback(code: .multipleFaces, value: Double(others + 1), threshold: 1))
            }
        }
        if feedback.isEmpty { feedback.append(Feedback(code: .good)) }
        return FrameAnalysis(width: inputSize.width, height: inputSize.height, mode: .selfie, region: nil,
                             faces: faces, metrics: metrics, feedback: feedback)
    }
}
