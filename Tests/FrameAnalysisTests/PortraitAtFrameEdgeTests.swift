// A frame in which no card was found is told CUT_OFF when a card's portrait lies in print reaching the frame's edge
// (`FrameAnalyzer.readsPortraitsAtFrameEdge`, `portraitInPrintAtFrameEdge(detection:)`; docs/capture.md, "A portrait
// in print at the frame's edge").
import Testing
@testable import FrameAnalysis

@Suite struct PortraitAtFrameEdgeTests {
    /// Fixtures/README.md: a card cut by the frame's top edge, held by a thumb over its right end; no outline passes
    /// (0.49). Without the rule NO_DOCUMENT; with it CUT_OFF, the face's share as its value, and no region (no outline
    /// was found: the answer rests on the portrait alone).
    @Test func aHeldCutCardsPortraitSaysCutOff() throws {
        try expectPortraitDecides("held-cut-card-no-outline-its-portrait-in-print-at-the-edge-camsim-seed121.jpg",
                                  primary: .cutOff, threshold: FrameAnalyzer.minCutCardPortrait,
                                  shares: FrameAnalyzer.minCutCardPortrait..<FrameAnalyzer.minLargePortrait) {
            $0.readsPortraitsAtFrameEdge = false
        }
    }

    /// A small frame (360 × 480, searched at its own size): the portrait at the frame's left edge is 0.08 of its
    /// short side, near the rule's bar; found only at the finer scale step (1.1).
    @Test func aSmallFramesCutCardIsFoundByItsPortrait() throws {
        try expectPortraitDecides("held-cut-card-no-outline-its-portrait-small-frame-camsim-small-seed156.jpg",
                                  primary: .cutOff, threshold: FrameAnalyzer.minCutCardPortrait,
                                  shares: FrameAnalyzer.minCutCardPortrait..<0.1) {
            $0.readsPortraitsAtFrameEdge = false
        }
    }

    /// A light search (a stream where nothing was found lately) leaves the search out: NO_DOCUMENT, no face search
    /// run. Searched whole, the frame says CUT_OFF (two searches: the too-close one first, then this one), and the
    /// stream searches its next frame whole: a frame answered on a portrait is not empty to the tracker.
    @Test func aLightSearchLeavesTheCutCardsPortraitOut() throws {
        try expectLightSearchLeavesPortraitOut(
            "held-cut-card-no-outline-its-portrait-in-print-at-the-edge-camsim-seed121.jpg", primary: .cutOff,
            searches: 2)
    }

    /// An empty scene whose print reaches the frame's edge, with an outline that scored under the bar (0.57): the
    /// search runs there and finds no face, NO_DOCUMENT stays.
    @Test func printAtTheEdgeWithoutAFaceStaysNoDocument() throws {
        try expectSearched("empty-scene-outline-near-miss-print-at-the-edge-no-face-camsim-small-seed153.jpg",
                           searches: 1)
    }

    /// An empty scene whose print reaches the frame's edge but where the searches outlined nothing (confidence 0, as
    /// on the bench's textured empty scene, where the search cost 18 ms): not searched.
    @Test func aSceneWithNothingOutlinedIsNotSearched() throws {
        try expectSearched("empty-scene-nothing-outlined-print-at-the-edge-camsim-portrait-seed113.jpg", searches: 0)
    }

    /// Expects `fixture` answered NO_DOCUMENT alone, the rule having run `searches` face searches (against the same
    /// analysis with the rule off).
    private func expectSearched(_ fixture: String, searches: Int,
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        let input = FrameInput.jpeg(try fixtureBytes(fixture))
        let analyzer = FrameAnalyzer()
        let analysis = try analyzer.analyze(input, mode: .document)
        #expect(analysis.feedback.map(\.code) == [.noDocument], "\(analysis.feedback)", sourceLocation: sourceLocation)
        let without = FrameAnalyzer()
        without.readsPortraitsAtFrameEdge = false
        _ = try without.analyze(input, mode: .document)
        #expect(analyzer.largePortraitSearches == without.largePortraitSearches + searches,
                sourceLocation: sourceLocation)
    }

    /// A portrait of `minLargePortrait` or more is a card too close (MOVE_AWAY, `largePortrait(in:)`), never a cut
    /// card's: with that rule off, the frame of a card covering the frame (its face 0.19 of the short side, in print
    /// reaching every edge) is searched by this rule and left NO_DOCUMENT, not CUT_OFF.
    @Test func aPortraitLargeEnoughForACardTooCloseIsNotACutCards() throws {
        let input = FrameInput.jpeg(try fixtureBytes("card-too-close-no-outline-its-portrait-large-camsim-seed112.jpg"))
        let analyzer = FrameAnalyzer()
        analyzer.readsLargePortraitsWithoutOutline = false
        let analysis = try analyzer.analyze(input, mode: .document)
        #expect(analysis.primary == .noDocument, "\(analysis.feedback)")
        #expect(analysis.metrics["portraitSize"] == nil)
        #expect(analyzer.largePortraitSearches == 1)
    }
}
