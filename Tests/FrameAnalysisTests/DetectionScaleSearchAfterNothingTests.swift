// A frame where neither the luma nor the colour search found a card is searched once more with the vote on the
// detection image (`FrameAnalyzer.locateDocument`, `searchesAtDetectionScaleWhenNothingFound`): the half-size vote
// gives a small card's short sides too few votes to be lines. What that search finds must clear the acceptance bar by
// `detectionScaleAloneMargin` (tested here), be seen whole (every corner in the frame:
// `DocumentAnalysisTests.backgroundOnlyIsNoDocument` fails without it) and be held across
// (`ColourEdgeTests.theHoldersPhotoIsNotTakenForTheCard` fails without it).
import Testing
@testable import FrameAnalysis

@Suite struct DetectionScaleSearchAfterNothingTests {
    /// Fixtures/README.md: a small card (7 % fill) held by a thumb, its true corners as camsim drew them. On the
    /// half-size vote image its short sides drew 64 and 41 votes (the left one below a line's minimum) and no
    /// outline reached 0.6: NO_DOCUMENT. The vote on the detection image finds the card whole at about 0.8:
    /// MOVE_CLOSER, as labelled, every corner within 1 % of the diagonal.
    @Test func aSmallHeldCardIsFoundWhenTheHalfSizeVoteLosesItsSides() throws {
        let input = FrameInput.jpeg(try fixtureBytes("small-held-card-half-size-vote-camsim-portrait-seed48.jpg"))
        let corners: [(Double, Double)] = [(303.25, 1207.26), (578.07, 1215.28), (574.15, 1401.61), (287.88, 1395.42)]
        let found = try analyzeExpectingCard(input, primary: .moveCloser, corners: corners, within: 0.01)
        #expect((found.metrics["documentConfidence"] ?? 0) >= 0.7, "\(found.metrics)")

        // (The search in the window around the card's print finds it too: both off, nothing does.)
        let before = try analyzeDocument(input) {
            $0.searchesAtDetectionScaleWhenNothingFound = false
            $0.searchesPrintedRegions = false
        }
        #expect(before.primary == .noDocument, "\(before.feedback)")
        let windowOnly = try analyzeDocument(input) { $0.searchesAtDetectionScaleWhenNothingFound = false }
        #expect(windowOnly.primary == .moveCloser, "\(windowOnly.feedback)")
    }

    /// Fixtures/README.md: an empty textured scene (framegen's accuracy set). The search at the detection scale
    /// assembles an outline from its edges at about 0.62, above `minDocumentConfidence` but below it plus the margin:
    /// NO_DOCUMENT with the margin, a card without it.
    @Test func anEmptyTexturedSceneKeepsNoDocumentThanksToTheMargin() throws {
        let input = FrameInput.jpeg(try fixtureBytes("empty-textured-scene-framegen-seed20250501.jpg"))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.primary == .noDocument, "\(analysis.feedback)")

        let withoutMargin = try analyzeDocument(input) { $0.detectionScaleAloneMargin = 0 }
        #expect(withoutMargin.primary != .noDocument, "\(withoutMargin.feedback)")
        #expect(withoutMargin.region != nil)
    }

    /// Fixtures/README.md: an empty scene whose best outline is passed over for its repeating inside, with nothing
    /// found in colour: the search after a passed-over outline and the search after nothing both want the search at
    /// the detection scale, which runs once for both (it ran twice, a third of the frame's time), and the answer is
    /// NO_DOCUMENT.
    @Test func oneFrameRunsTheSearchAtTheDetectionScaleOnce() throws {
        let input = FrameInput.jpeg(try fixtureBytes("empty-striped-scene-passed-over-camsim-portrait-seed60.jpg"))
        let analyzer = FrameAnalyzer()
        let analysis = try analyzer.analyze(input, mode: .document)
        #expect(analysis.primary == .noDocument, "\(analysis.feedback)")
        #expect(analyzer.detectionScaleSearches == 1)
        // Either search alone asks for it once too.
        let afterNothingOnly = FrameAnalyzer()
        afterNothingOnly.searchesAtDetectionScale = false
        _ = try afterNothingOnly.analyze(input, mode: .document)
        #expect(afterNothingOnly.detectionScaleSearches == 1)
    }
}
