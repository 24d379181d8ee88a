// An answer found on the card's photo (a face filling a small portrait-shaped outline) is judged by the card the photo
// implies (`FrameAnalyzer.cardFillImpliedByPhoto`): a card too close is told MOVE_AWAY, not MOVE_CLOSER on its photo.
import Testing
@testable import FrameAnalysis

@Suite struct PhotoAnswerTests {
    /// Fixtures/README.md: a card over most of a 1920×1080 frame, its photo found and told MOVE_CLOSER.
    static let cardTooClose = "card-too-close-answered-on-its-photo-camsim-seed2.jpg"

    /// (The face around a small answer, `FrameAnalyzer.readsLargePortraitsAroundSmallAnswers`, tells this card too
    /// close as well: it is turned off with the photo rule to show the photo rule's frame, and the face alone is
    /// shown deciding it too.)
    @Test func aCardTooCloseFoundByItsPhotoIsToldToMoveAway() throws {
        let (analysis, without) = try expectSettingDecides(Self.cardTooClose, primary: .moveAway,
                                                           otherwise: .moveCloser) {
            $0.judgesPhotoAnswersByTheirFace = false
            $0.readsLargePortraitsAroundSmallAnswers = false
        }
        let byTheFaceAlone = try analyzeDocument(.jpeg(try fixtureBytes(Self.cardTooClose))) {
            $0.judgesPhotoAnswersByTheirFace = false
        }
        #expect(byTheFaceAlone.primary == .moveAway, "\(byTheFaceAlone.feedback)")
        #expect(byTheFaceAlone.metrics["portraitSize"] != nil)
        // The card the photo implies: 0.86 of the largest card the frame holds, past `maxFill` (0.75).
        let implied = try #require(analysis.metrics["photoImpliedFill"])
        #expect(implied > AnalysisThresholds.default.maxFill)
        #expect(analysis.feedback.first?.value == implied)
        #expect(without.metrics["photoImpliedFill"] == nil)
    }

    /// A small card found whole is no photo: its outline is card-shaped (1.586 long), and no face fills it.
    @Test func aSmallCardFoundWholeIsStillToldToMoveCloser() throws {
        let analysis = try analyzeDocument(.jpeg(try fixtureBytes("small-card-soft-for-its-size-camsim-portrait-seed120.jpg"))) { _ in }
        #expect(analysis.primary == .moveCloser, "\(analysis.feedback)")
        #expect(analysis.metrics["photoImpliedFill"] == nil)
    }

    /// Fixtures/README.md: a passport page held too close (1.03 of the largest the frame holds), answered on its photo
    /// and the text beside it at fill 0.20, over `minFill`: GOOD, an unsafe capture, without the rule for answers of
    /// ordinary size inside print that runs on past them; with it, the face filling the answer implies a page past
    /// `maxFill`: MOVE_AWAY.
    @Test func aPassportTooCloseAnsweredOnItsPhotoAndTextIsNotCaptured() throws {
        let (analysis, without) = try expectSettingDecides(
            "passport-too-close-its-photo-and-text-captured-camsim-small-seed181.jpg", primary: .moveAway,
            otherwise: .good) { $0.readsPhotoAnswersInsidePrint = false }
        let implied = try #require(analysis.metrics["photoImpliedFill"])
        #expect(implied > AnalysisThresholds.default.maxFill)
        #expect(analysis.feedback.first?.value == implied)
        #expect(without.metrics["photoImpliedFill"] == nil)
    }

    /// Fixtures/README.md, not a failure: a whole passport page at a good distance, its portrait's face a third of the
    /// page's width, photo-shaped (1.40) and of ordinary size. Its print lies inside it, so it is not read as a photo:
    /// GOOD. (Read without the print gate, the page was taken for its own photo and told MOVE_AWAY.)
    @Test func aWholePassportPageIsNotReadAsItsPhoto() throws {
        let analysis = try FrameAnalyzer().analyze(
            .jpeg(try fixtureBytes("whole-passport-page-its-portrait-a-third-of-its-width-camsim-portrait-seed94.jpg")),
            mode: .document)
        #expect(analysis.primary == .good, "\(analysis.feedback)")
        #expect(analysis.metrics["photoImpliedFill"] == nil)
    }
}
