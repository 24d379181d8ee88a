// An over-exposed card short of clipping: its print is washed out just under white, and in a scene bright as a whole
// it is judged on the samples not washed out (`DocumentFinder.takesWashedOutCards`, `interiorTexture`;
// docs/capture.md, "Document quad").
import Testing
@testable import FrameAnalysis

@Suite struct WashedOutCardTests {
    /// Fixtures/README.md: an over-exposed card (luma 239) on fabric in a bright scene. Its sides are strong, but its
    /// print read 0.11 over its whole inside, and the card was bare: NO_DOCUMENT. Judged on its samples not washed
    /// out, it is the card, and the answer is the exposure: TOO_BRIGHT.
    @Test func aWashedOutCardInABrightSceneIsTooBright() throws {
        let analysis = try expectRuleDecides(
            "washed-out-card-in-a-bright-scene-camsim-small-seed170.jpg", primary: .tooBright,
            corners: [(222.53, 147.21), (569.03, 205.69), (532.74, 431.27), (181.3, 360.6)], within: 0.02,
            before: .noDocument) { $0.documentFinder.takesWashedOutCards = false }
        #expect(analysis.region == nil)
    }

    /// Fixtures/README.md: an empty scene (luma 152) with a cyan eraser, mostly near white, on a striped desk. In a
    /// scene exposed for its mid-tones the eraser's inside is judged whole, and it is bare: NO_DOCUMENT. With the
    /// scene bound at 150, its few samples not washed out (the stripes at its rim) read printed, and it was taken for
    /// a card the frame cuts.
    @Test func aNearWhiteObjectInAMidToneSceneIsNoCard() throws {
        let input = FrameInput.jpeg(try fixtureBytes("near-white-eraser-in-a-mid-tone-scene-camsim-small-seed152.jpg"))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.primary == .noDocument, "\(analysis.feedback)")
        let lowered = try analyzeDocument(input) { $0.documentFinder.washedOutSceneLuma = 150 }
        #expect(lowered.primary == .cutOff, "\(lowered.feedback)")
    }
}
