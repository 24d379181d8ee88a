// An answer judged smaller than `minFill` is told MOVE_AWAY when a card's portrait is seen large around it
// (`FrameAnalyzer.readsLargePortraitsAroundSmallAnswers`, `largePortrait(around:detection:)`; docs/capture.md,
// "A card's portrait around a small answer").
import COpenCVBridge
import Testing
@testable import FrameAnalysis

@Suite struct PortraitAroundSmallAnswerTests {
    /// Fixtures/README.md: a card held too close, answered on its photo at the frame's left edge. Without the rule
    /// CUT_OFF and MOVE_CLOSER on the photo; with it MOVE_AWAY alone, the face's share as its value.
    @Test func aPhotoAtTheEdgeOfACardTooCloseIsToldToMoveAway() throws {
        let (analysis, before) = try expectSettingDecides(
            "card-too-close-its-photo-answered-cut-off-camsim-seed93.jpg", primary: .moveAway,
            otherwise: .cutOff) { $0.readsLargePortraitsAroundSmallAnswers = false }
        #expect(analysis.feedback.map(\.code) == [.moveAway], "\(analysis.feedback)")
        let portrait = try #require(analysis.metrics["portraitSize"])
        #expect(portrait >= FrameAnalyzer.minLargePortrait && portrait <= FrameAnalyzer.maxLargePortrait)
        #expect(analysis.feedback.first?.value == portrait)
        #expect(analysis.feedback.first?.threshold == FrameAnalyzer.minLargePortrait)
        #expect(before.feedback.map(\.code) == [.cutOff, .moveCloser], "\(before.feedback)")
        #expect(before.metrics["portraitSize"] == nil)
        // The same outline either way: only the judgement of its size changed.
        #expect(analysis.region == before.region)
    }

    /// A card held too close answered on an outline inside its photo: MOVE_CLOSER without the rule (the opposite of
    /// what the user must do), MOVE_AWAY with it; the findings after the size (TOO_DARK) stay.
    @Test func anOutlineInsideAPhotoIsNotTakenForAFarCard() throws {
        let (analysis, before) = try expectSettingDecides(
            "card-too-close-its-photo-answered-small-camsim-seed112.jpg", primary: .moveAway,
            otherwise: .moveCloser) { $0.readsLargePortraitsAroundSmallAnswers = false }
        #expect(analysis.feedback.map(\.code) == [.moveAway, .tooDark], "\(analysis.feedback)")
        #expect(before.feedback.map(\.code) == [.moveCloser, .tooDark], "\(before.feedback)")
        #expect((before.metrics["fill"] ?? 1) < FrameAnalyzer().thresholds.minFill)
    }

    /// The face search runs only around an answer that reads as a card's part (`answerReadsAsAPart`), each gate shown
    /// by a frame it alone spares: a small card seen whole and square-on inside a textured desk's print (the shape
    /// gate), and a small card found without its band, alone on a plain grid (the print gate), stay MOVE_CLOSER
    /// without searching; the part inside its card's print does search.
    @Test func onlyAnAnswerThatReadsAsAPartIsSearched() throws {
        for fixture in ["small-card-whole-in-a-printed-scene-framegen-seed7.jpg",
                        "small-card-its-band-unseen-not-a-part-framegen-seed7.jpg"] {
            let analyzer = FrameAnalyzer()
            let analysis = try analyzer.analyze(.jpeg(try fixtureBytes(fixture)), mode: .document)
            #expect(analysis.primary == .moveCloser, "\(fixture): \(analysis.feedback)")
            #expect(analyzer.largePortraitSearches == 0, "\(fixture)")
        }
        let analyzer = FrameAnalyzer()
        let part = try analyzer.analyze(
            .jpeg(try fixtureBytes("card-too-close-its-photo-answered-small-camsim-seed112.jpg")), mode: .document)
        #expect(part.primary == .moveAway)
        #expect(analyzer.largePortraitSearches == 1)
    }

    /// A glare patch passes the face cascade (a bright disc in a darker ring) at 0.26 of the short side beside a small
    /// answer on a card of ordinary size: half its box is clipped, so it is no portrait, and the frame keeps its
    /// answer (GLARE, then CUT_OFF on the part the patch left). Counted as a search that ran.
    @Test func aGlarePatchIsNotTakenForAPortrait() throws {
        let input = FrameInput.jpeg(try fixtureBytes("glare-patch-passes-for-a-face-camsim-portrait-seed7.jpg"))
        let analyzer = FrameAnalyzer()
        let analysis = try analyzer.analyze(input, mode: .document)
        #expect(analysis.feedback.map(\.code) == [.glare, .cutOff, .moveCloser], "\(analysis.feedback)")
        #expect(analysis.metrics["portraitSize"] == nil)
        #expect(analyzer.largePortraitSearches == 1)
    }

    /// The glare test itself: a face box over a clipped patch is glare, one over a portrait's mid-greys is not.
    @Test func aClippedFaceBoxIsGlare() {
        let image = GrayImage()
        image.resize(width: 64, height: 64)
        for y in 0..<64 { for x in 0..<64 { image.base[y * 64 + x] = 120 } }
        for y in 20..<40 { for x in 20..<40 { image.base[y * 64 + x] = 255 } }
        let patch = kyc_face(x: 16, y: 16, width: 28, height: 28, eyes: 0, score: 3)
        let portrait = kyc_face(x: 0, y: 0, width: 16, height: 16, eyes: 0, score: 3)
        #expect(FrameAnalyzer.isGlare(patch, on: image, luma: 250))
        #expect(!FrameAnalyzer.isGlare(portrait, on: image, luma: 250))
    }
}
