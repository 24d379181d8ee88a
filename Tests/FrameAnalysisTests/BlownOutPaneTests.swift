// An outline whose inside is nearly all clipped, in a scene over-exposed as a whole, is bare: what is left unclipped
// (a blown-out window pane's rim and bars) is too little to judge a print on (`DocumentFinder.minUnclippedShare`,
// `interiorTexture`; docs/capture.md, "Document quad").
import Testing
@testable import FrameAnalysis

@Suite struct BlownOutPaneTests {
    /// Fixtures/README.md: a small card held below a blown-out window pane in a portrait frame. The pane, closed by
    /// the frame's top, read printed at 1.0 on its few unclipped samples and was taken for a cut card: CUT_OFF for a
    /// MOVE_CLOSER frame. Judged bare, it gives way to the card. (The card's bottom-right corner, under the thumb, is
    /// found 0.046 of the diagonal off; the others within 0.005.) Since session 34 the rule for sides under glare
    /// (`forgivesSidesUnderGlare`) alone finds the card too, with the pane read printed: both are turned off to show
    /// this rule.
    @Test func aBlownOutPaneIsNoCard() throws {
        try expectRuleDecides("small-card-beside-a-blown-out-pane-camsim-portrait-seed109.jpg", primary: .moveCloser,
                              corners: [(539.78, 484.5), (834.28, 496.06), (822.15, 683.62), (529.72, 670.32)],
                              within: 0.05, before: .cutOff) {
            $0.documentFinder.minUnclippedShare = 0
            $0.documentFinder.forgivesSidesUnderGlare = false
        }
    }
}
