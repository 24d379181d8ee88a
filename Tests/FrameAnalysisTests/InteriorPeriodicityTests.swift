// A quad whose inside repeats — keys, bars, stripes — is not a card (`InteriorPeriodicity`, and `bestQuad`, which
// passes over such quads).
import Testing
@testable import FrameAnalysis

@Suite struct InteriorPeriodicityTests {
    /// The quad every synthetic inside below fills: 240 × 150 (long sides along x) in a 320 × 220 image.
    static let corners = (SIMD2<Double>(40, 40), SIMD2<Double>(280, 40), SIMD2<Double>(280, 190), SIMD2<Double>(40, 190))

    static func image(_ paint: (Int, Int) -> Double) -> GrayImage {
        SyntheticFrame.grayImage(width: 320, height: 220, seed: 5, paint)
    }

    /// A keypad: 6 × 4 light keys, 36 × 33 px apart, with dark gaps between them.
    static func keypad() -> GrayImage { image { x, y in
        let inX = (x - 40) % 40 >= 4, inY = (y - 40) % 37 >= 4
        return inX && inY ? 170 : 45
    } }

    /// A striped desk closed into an outline: stripes along x (the long sides), 12 px pitch.
    static func stripes() -> GrayImage { image { _, y in y % 12 < 6 ? 160 : 70 } }

    /// A card: a dark photo at the left, six text lines of words of uneven length at uneven pitch beside it, a
    /// light card stock elsewhere.
    static func card() -> GrayImage { image { x, y in
        if (55..<115).contains(x) && (60..<140).contains(y) { return 80 }
        let lines = [(58, 8), (74, 5), (92, 7), (104, 5), (124, 9), (150, 6)]   // top, height
        for (index, (top, height)) in lines.enumerated() where (top..<(top + height)).contains(y) {
            // Words: dark runs whose lengths follow the line and the word's place.
            var start = 130
            var word = 0
            while start < 270 - index * 12 {
                let length = 9 + (word * 7 + index * 5) % 23
                if (start..<min(start + length, 270)).contains(x) { return 60 }
                start += length + 5 + (word + index) % 4
                word += 1
            }
        }
        return (40..<280).contains(x) && (40..<190).contains(y) ? 215 : 90
    } }

    @Test func aKeypadRepeatsAlongItsLongSides() {
        let finder = InteriorPeriodicity()
        let revivals = finder.revivals(Self.corners, in: Self.keypad())
        #expect(revivals.alongLong >= InteriorPeriodicity.maxAlongLong, "\(revivals)")
        #expect(finder.repeats(Self.corners, in: Self.keypad()))
    }

    @Test func stripesAcrossTheLongSidesRepeatAcrossThem() {
        let stripes = Self.stripes()
        let finder = InteriorPeriodicity()
        let revivals = finder.revivals(Self.corners, in: stripes)
        #expect(revivals.alongShort >= InteriorPeriodicity.maxAlongShort, "\(revivals)")
        #expect(revivals.alongLong < InteriorPeriodicity.maxAlongLong, "\(revivals)")
        #expect(finder.repeats(Self.corners, in: stripes))
    }

    @Test func aCardsPhotoAndTextLinesDoNotRepeat() {
        let finder = InteriorPeriodicity()
        let revivals = finder.revivals(Self.corners, in: Self.card())
        #expect(revivals.alongLong < InteriorPeriodicity.maxAlongLong, "\(revivals)")
        #expect(revivals.alongShort < InteriorPeriodicity.maxAlongShort, "\(revivals)")
        #expect(!finder.repeats(Self.corners, in: Self.card()))
    }

    /// The answer's test reads the long sides only: a keypad repeats there, a striped desk's outline and a card's
    /// text lines (which across the long sides can read 0.78 on a cut-off card) do not.
    @Test func theAnswersTestReadsTheLongSidesOnly() {
        let quad = Quadrilateral(corners: [Self.corners.0, Self.corners.1, Self.corners.2, Self.corners.3])
        let finder = InteriorPeriodicity()
        #expect(finder.repeatsAlongLongSides(quad, in: Self.keypad()))
        #expect(!finder.repeatsAlongLongSides(quad, in: Self.stripes()))
        #expect(!finder.repeatsAlongLongSides(quad, in: Self.card()))
    }

    @Test func theSidesAreReadWhicheverComesFirst() {
        // The same keypad with the quad's corners starting on a short side.
        let turned = (Self.corners.1, Self.corners.2, Self.corners.3, Self.corners.0)
        let finder = InteriorPeriodicity()
        let keypad = Self.keypad()
        let a = finder.revivals(Self.corners, in: keypad), b = finder.revivals(turned, in: keypad)
        #expect(abs(a.alongLong - b.alongLong) < 0.05 && abs(a.alongShort - b.alongShort) < 0.05, "\(a) \(b)")
    }

    @Test func aQuadMostlyOutsideTheImageReadsNothing() {
        let outside = (SIMD2<Double>(300, 200), SIMD2<Double>(600, 200), SIMD2<Double>(600, 400), SIMD2<Double>(300, 400))
        let revivals = InteriorPeriodicity().revivals(outside, in: Self.keypad())
        #expect(revivals.alongLong == 0 && revivals.alongShort == 0)
    }

    /// Fixtures/README.md: a small passport on a green mat beside a pink keyboard, labelled MOVE_CLOSER. The
    /// keyboard's outline, its inside printed all over by its keys, won at 0.84 and was GOOD — a capture of a
    /// keyboard. Its keys repeat along its long sides: it is passed over and the passport is found, MOVE_CLOSER.
    @Test func aKeyboardIsNotCapturedAsACard() throws {
        let input = FrameInput.jpeg(try fixtureBytes("keyboard-beside-small-passport-camsim-portrait-seed31.jpg"))
        let passport: [(Double, Double)] = [(224.39, 1026.77), (459.92, 1068.19), (428.02, 1238.41), (183.96, 1196.98)]
        try analyzeExpectingCard(input, primary: .moveCloser, corners: passport, within: 0.02)

        let before = try analyzeDocument(input) {
            $0.documentFinder.rejectsRepeatingInsides = false
            $0.rejectsRepeatingAnswers = false
        }
        // The keyboard's outline wins; it was GOOD until its shape (longer than any card with one band unseen,
        // `IDCard.longestWithHiddenBandAspect`) made it a card's part, never whole: CUT_OFF, no capture either.
        #expect(before.primary == .cutOff, "\(before.feedback)")
        let keyboardAspect = try #require(before.metrics["aspect"])
        #expect(keyboardAspect > IDCard.longestWithHiddenBandAspect, "\(before.metrics)")
        // The answer's own test alone keeps the keyboard from capture too, but finds no passport: the quad search's
        // passing over is what lets the passport win.
        let answerTestOnly = try analyzeDocument(input) { $0.documentFinder.rejectsRepeatingInsides = false }
        #expect(answerTestOnly.primary == .noDocument, "\(answerTestOnly.feedback)")
    }

    /// Fixtures/README.md: a passport on a striped wood desk, labelled GOOD. The half-size vote misses its sides
    /// (the stripes alias into them), and the outlines it does find are the desk's stripes closed by the frame's
    /// borders. Those repeat across their long sides and are passed over, so nothing is accepted. The search at the
    /// detection scale still runs after the best of them (`DocumentFinder.passedOverRepeating`), as it ran after it
    /// when it won, and finds the passport: GOOD.
    @Test func aStripedDeskPassedOverStillHasTheCardSearchedAtTheDetectionScale() throws {
        let input = FrameInput.jpeg(try fixtureBytes("card-on-striped-desk-outline-passed-over-camsim-portrait-seed33.jpg"))
        let passport: [(Double, Double)] = [(131.88, 189.62), (529.21, 244.84), (499.22, 512.86), (71.59, 451.86)]
        try analyzeExpectingCard(input, primary: .good, corners: passport, within: 0.02)

        // Without that search, nothing is found, and what the first search passed over is a border-closed outline
        // confident enough to have won. (The search at the detection scale after nothing was found, turned off here
        // too, finds the passport as well: the two searches are the same search, run after different first results.)
        let noDetectionScale = FrameAnalyzer()
        noDetectionScale.searchesAtDetectionScale = false
        noDetectionScale.searchesAtDetectionScaleWhenNothingFound = false
        // (With the stripe fields discounted, the stripes' outlines no longer reach the frame's border at all.)
        noDetectionScale.documentFinder.discountsStripeFields = false
        #expect(try noDetectionScale.analyze(input, mode: .document).primary == .noDocument)
        let passed = try #require(noDetectionScale.documentFinder.passedOverRepeating, "a desk outline passed over")
        #expect(passed.borderClosed && passed.confidence >= AnalysisThresholds.default.minDocumentConfidence,
                "\(passed)")
    }

    /// Fixtures/README.md: an empty grey desk with a keypad cut off by the frame's right edge. The quad search
    /// passes over the keypad's outlines, but the outline the frame settled on after it (a block of keys closed by
    /// the frame's border, revival 0.50 along its long sides) was answered CUT_OFF. The answer's own inside is read
    /// last: NO_DOCUMENT.
    @Test func aKeypadClosedByTheFrameIsNoDocument() throws {
        let input = FrameInput.jpeg(try fixtureBytes("keypad-closed-by-the-frame-camsim-portrait-seed82.jpg"))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.primary == .noDocument, "\(analysis.feedback)")
        #expect(analysis.region == nil)

        let before = try analyzeDocument(input) { $0.rejectsRepeatingAnswers = false }
        #expect(before.primary == .cutOff, "\(before.feedback)")
        // The outline given up is reported with the confidence it had (NO_DOCUMENT's own value is 0).
        let givenUp = try #require(analysis.metrics["repeatingAnswer"], "\(analysis.metrics)")
        #expect(abs(givenUp - (before.metrics["documentConfidence"] ?? -1)) < 1e-9, "\(before.metrics)")
        #expect(before.metrics["repeatingAnswer"] == nil)
    }

    /// Fixtures/README.md: a pale card cut by the frame's left edge above a keyboard. The keyboard's outline was the
    /// answer and was given up last for its repeating keys; the searches for a frame where nothing was accepted had
    /// not run (the keyboard's outline had been). Run after the answer is given up, they find the card (in colour):
    /// CUT_OFF, on the card's visible part.
    @Test func aCardBesideAGivenUpKeyboardAnswerIsStillFound() throws {
        let (analysis, before) = try expectSettingDecides(
            "card-cut-off-beside-a-keyboard-answer-camsim-small-seed154.jpg", primary: .cutOff,
            otherwise: .noDocument) { $0.searchesAgainAfterRepeatingAnswer = false }
        #expect(before.region == nil && before.metrics["repeatingAnswer"] != nil, "\(before.metrics)")
        #expect(analysis.metrics["repeatingAnswer"] == nil, "\(analysis.metrics)")
        // The card's two corners in the frame (camsim's label: (188.79, 100.05), (145.14, 264.83)); the other two
        // lie beyond its left edge, where the outline is closed by the frame.
        let corners = try #require(analysis.region?.corners, "an outline")
        let inFrame = corners.filter { $0.x > 2 }
        #expect(inFrame.count == 2, "\(corners)")
        for (x, y) in [(188.79, 100.05), (145.14, 264.83)] {
            #expect(inFrame.contains { abs($0.x - x) < 3 && abs($0.y - y) < 3 }, "\(corners)")
        }
    }

    /// Fixtures/README.md: an empty dotted wall; the colour search closed a small outline at the frame's corner
    /// (0.71) whose inside is the wall's dot grid. A colour answer is read for a repeating inside as a luma one is:
    /// NO_DOCUMENT (it was BLURRY, CUT_OFF, MOVE_CLOSER).
    @Test func aDottedWallFoundInColourIsNoDocument() throws {
        let (analysis, before) = try expectSettingDecides(
            "dotted-wall-corner-found-in-colour-camsim-small-seed201.jpg", primary: .noDocument,
            otherwise: .blurry) { $0.rejectsRepeatingAnswers = false }
        #expect(analysis.region == nil && analysis.metrics["repeatingAnswer"] != nil, "\(analysis.metrics)")
        #expect(before.metrics["colourEdges"] == 1, "\(before.metrics)")
        #expect(before.feedback.contains { $0.code == .cutOff }, "\(before.feedback)")
    }

    /// Fixtures/README.md: an empty desk with a keyboard the frame's bottom right cuts; the answer, the keyboard's
    /// outline closed by the frame's right edge, runs out of its bottom. Its cells beyond the frame, read as copies of the frame's edge, made a
    /// band whose contrast outweighed the keys' repeat (0.27 along its long sides, under `maxAlongLong`): MOVE_AWAY.
    /// Read inside the frame only, the keys repeat (0.36): NO_DOCUMENT.
    @Test func aKeyboardRunningOutOfTheFrameIsReadInsideTheFrame() throws {
        try expectSettingDecides("keyboard-cut-by-the-frame-camsim-portrait-seed82.jpg", primary: .noDocument,
                                 otherwise: .moveAway) { $0.documentFinder.periodicity.readsOnlyTheFrame = false }
    }

    /// Fixtures/README.md: a card cut by the frame's bottom edge. Its outline runs out of the frame, and the edge of
    /// its print, copied along the frame's edge, read as a repeat (0.37): the answer (0.82) was given up,
    /// NO_DOCUMENT. Read inside the frame only, nothing repeats: CUT_OFF. (Given up, the frame is now searched again,
    /// `searchesAgainAfterRepeatingAnswer`, and that finds the card too, CUT_OFF and TILTED: turned off here to show
    /// what reading inside the frame decides alone.)
    @Test func aCutCardIsNotGivenUpForItsPrintCopiedAlongTheEdge() throws {
        let (_, readBeyond) = try expectSettingDecides("cut-card-read-as-repeating-camsim-seed121.jpg", primary: .cutOff,
                                                       otherwise: .noDocument) {
            $0.documentFinder.periodicity.readsOnlyTheFrame = false
            $0.searchesAgainAfterRepeatingAnswer = false
        }
        #expect(readBeyond.metrics["repeatingAnswer"] != nil, "\(readBeyond.metrics)")
        let searchedAgain = try analyzeDocument(.jpeg(try fixtureBytes("cut-card-read-as-repeating-camsim-seed121.jpg"))) {
            $0.documentFinder.periodicity.readsOnlyTheFrame = false
        }
        #expect(searchedAgain.primary == .cutOff && searchedAgain.metrics["repeatingAnswer"] == nil,
                "\(searchedAgain.feedback) \(searchedAgain.metrics)")
    }
}
