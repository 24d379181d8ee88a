// A photo-like winner seen whole around which no whole card is found may be a part of a card the frame cuts: its
// outline closed by a frame border is looked for around it (`DocumentFinder.cutCardAround`, `takesCutCardsAroundPhotos`;
// docs/capture.md, "A cut card around its photo").
import Testing
@testable import FrameAnalysis

@Suite struct CutCardAroundPhotoTests {
    /// Fixtures/README.md: a card held by a thumb, cut by the frame's left edge; the winner was a small part of it
    /// between its photo, the thumb and its bottom side (0.63): MOVE_CLOSER for a CUT_OFF frame. The card's outline
    /// closed by the frame's left edge, printed beside that part as a card's face is, is more confident (0.70). (Its
    /// corners on the frame's edge lie 0.05 of the diagonal from the card's, which are out of view.)
    @Test func aCutCardWhosePartWonIsCutOff() throws {
        try expectRuleDecides("cut-card-its-part-beside-the-thumb-won-camsim-portrait-seed94.jpg", primary: .cutOff,
                              corners: [(-73.01, 347.04), (419.6, 323.31), (452.22, 614.93), (-59.93, 660.42)],
                              within: 0.06, before: .moveCloser) { $0.documentFinder.takesCutCardsAroundPhotos = false }
    }

    /// Fixtures/README.md: a passport page held in a portrait frame, cut by its right edge; the page's part left of
    /// its photo, closed on the photo's edge (0.60), was GOOD: an auto-capture of a cut page. Around it, the page's
    /// outline closed by the frame's edges (0.76) is CUT_OFF.
    /// (A square-ish part of the page closed by one border, kept with less print since session 36,
    /// `DocumentFinder.admitsLessPrintedSquarePartsAtOneBorder`, now tells it CUT_OFF as well, and so, since session
    /// 37, does the capture margin (`minCaptureMargin`: the part lies within 0.03 of the short side of an edge):
    /// both are turned off with the rule, to show this rule's frame.)
    @Test func aCutPassportPageIsNotCapturedAsGood() throws {
        let input = FrameInput.jpeg(try fixtureBytes("cut-passport-page-its-part-won-as-good-camsim-portrait-seed111.jpg"))
        #expect(try FrameAnalyzer().analyze(input, mode: .document).primary == .cutOff)
        var noMargin = AnalysisThresholds.default
        noMargin.minCaptureMargin = 0
        func without(rule: Bool) throws -> FeedbackCode {
            let analyzer = FrameAnalyzer(thresholds: noMargin)
            analyzer.documentFinder.takesCutCardsAroundPhotos = rule
            analyzer.documentFinder.admitsLessPrintedSquarePartsAtOneBorder = false
            return try analyzer.analyze(input, mode: .document).primary
        }
        #expect(try without(rule: true) == .cutOff)
        #expect(try without(rule: false) == .good)
    }

    /// Fixtures/README.md: a card held too close, larger than the frame both ways (cut by its top, right and bottom
    /// edges); its photo won (0.73), MOVE_CLOSER for a MOVE_AWAY frame. Around it, the card's outline closed by the
    /// frame's right and bottom edges (0.79) shows 1.77 × the height in view, beyond `maxCutContainerLength`; that
    /// bound holds only for a height between two of the card's own sides, and a frame border cuts this one.
    /// (The photo's face alone now tells this card too close as well, `FrameAnalyzer.judgesPhotoAnswersByTheirFace`:
    /// it is turned off with the rule, to show this rule's frame.)
    @Test func aCardLargerThanTheFrameBothWaysIsFoundAroundItsPhoto() throws {
        try expectRuleDecides("card-too-close-around-its-photo-cut-both-ways-camsim-seed121.jpg", primary: .moveAway,
                              corners: [(129.12, -48.85), (1957.93, 76.17), (1830.11, 1185.6), (101.78, 1073.94)],
                              within: 0.07, before: .moveCloser) {
            $0.documentFinder.takesCutCardsAroundPhotos = false
            $0.judgesPhotoAnswersByTheirFace = false
        }
    }

    /// `printedBesidePhoto`: the part of a card beside its photo is printed (edges every way); a plain surface around a
    /// "photo", or one striped one way, is not.
    @Test func printBesideThePhotoIsReadOutsideThePhoto() {
        let finder = DocumentFinder()
        let image = GrayImage()
        image.resize(width: 160, height: 120)
        let photo: DocumentFinder.RankedQuad = ((SIMD2(20, 30), SIMD2(60, 30), SIMD2(60, 90), SIMD2(20, 90)), 0.7, 0.7,
                                                SIMD4(0, 1, 2, 3))
        let card: DocumentFinder.RankedQuad = ((SIMD2(10, 20), SIMD2(150, 20), SIMD2(150, 100), SIMD2(10, 100)), 0.8,
                                               0.8, SIMD4(0, 1, 2, 3))
        func paint(_ shade: (Int, Int) -> UInt8) {
            for y in 0..<120 { for x in 0..<160 { image.base[y * 160 + x] = shade(x, y) } }
            finder.coarseGradients.compute(image)
        }
        // The photo itself busy, the rest plain: nothing printed beside it.
        paint { x, y in (20..<60).contains(x) && (30..<90).contains(y) && (x / 3 + y / 3) % 2 == 0 ? 40 : 200 }
        #expect(!finder.printedBesidePhoto(photo, in: card, image: image))
        // Dots beside it (edges every way): printed.
        paint { x, y in x % 6 < 2 && y % 6 < 2 ? 40 : 200 }
        #expect(finder.printedBesidePhoto(photo, in: card, image: image))
        // Stripes beside it (edges one way): not print.
        paint { x, _ in (x / 3) % 2 == 0 ? 60 : 190 }
        #expect(!finder.printedBesidePhoto(photo, in: card, image: image))
    }

    /// Fixtures/README.md: a card held too close, larger than the frame, its photo the winner (0.72): MOVE_CLOSER for
    /// a MOVE_AWAY frame. The card's outline closed by the frame's bottom edge (0.97) is printed as sparsely as a
    /// card's face seen this close is: 0.16 beside its photo, 0.29 inside, under session 30's 0.2 and 0.3. Each of
    /// the two bounds alone refuses it. (Its corners on the frame's edge lie 0.06 of the diagonal from the card's,
    /// which are out of view. The photo's face alone now tells this card too close as well,
    /// `FrameAnalyzer.judgesPhotoAnswersByTheirFace`, and the face around a small answer,
    /// `readsLargePortraitsAroundSmallAnswers`: both are turned off with the bounds, to show theirs.)
    @Test func aCardTooCloseIsTakenPrintedSparsely() throws {
        try expectRuleDecides("card-too-close-sparse-beside-its-photo-camsim-seed108.jpg", primary: .moveAway,
                              corners: [(46.94, 56.81), (1208.8, -78.65), (1297.3, 632.74), (152.05, 805.57)],
                              within: 0.065, before: .moveCloser) {
            $0.documentFinder.minPrintBesidePhoto = 0.2
            $0.documentFinder.minCutCardTexture = 0.3
            $0.judgesPhotoAnswersByTheirFace = false
            $0.readsLargePortraitsAroundSmallAnswers = false
        }
        try expectSettingDecides("card-too-close-sparse-beside-its-photo-camsim-seed108.jpg", primary: .moveAway,
                                 otherwise: .moveCloser) {
            $0.documentFinder.minPrintBesidePhoto = 0.2
            $0.judgesPhotoAnswersByTheirFace = false
            $0.readsLargePortraitsAroundSmallAnswers = false
        }
        try expectSettingDecides("card-too-close-sparse-beside-its-photo-camsim-seed108.jpg", primary: .moveAway,
                                 otherwise: .moveCloser) {
            $0.documentFinder.minCutCardTexture = 0.3
            $0.judgesPhotoAnswersByTheirFace = false
            $0.readsLargePortraitsAroundSmallAnswers = false
        }
    }
}
