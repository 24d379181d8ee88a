// Where the exposure has run past the scene (`FrameAnalyzer.overexposedSceneShare`): a card reading over
// `maxBrightness` in a scene over 0.8 × `maxBrightness` is washed out by the exposure, and TOO_BRIGHT goes first; a
// white card clipped in a scene of ordinary light keeps its geometry first.
import Testing
@testable import FrameAnalysis

@Suite struct OverexposedSceneTests {
    /// Expects `Fixtures/<fixture>` answered `first` first with `second` after it, and with `setting` applied the two
    /// the other way round: the bound decides their order, not whether either is found. Both analyses are returned.
    @discardableResult
    static func expectOrderDecided(_ fixture: String, first: FeedbackCode, second: FeedbackCode,
                                   sourceLocation: SourceLocation = #_sourceLocation,
                                   setting: (FrameAnalyzer) -> Void) throws -> (FrameAnalysis, FrameAnalysis) {
        let (analysis, changed) = try expectSettingDecides(fixture, primary: first, otherwise: second,
                                                           sourceLocation: sourceLocation, setting: setting)
        #expect(analysis.feedback.map(\.code).contains(second), "\(analysis.feedback)", sourceLocation: sourceLocation)
        #expect(changed.feedback.map(\.code).contains(first), "\(changed.feedback)", sourceLocation: sourceLocation)
        return (analysis, changed)
    }

    /// Fixtures/README.md: an over-exposed frame (labelled TOO_BRIGHT) whose card reads 241 in a scene over 180: it
    /// was told CUT_OFF first on its outline, clipped into the light background, with TOO_BRIGHT after it.
    @Test func aWashedOutCardInAnOverexposedSceneSaysTooBrightFirst() throws {
        let (analysis, _) = try Self.expectOrderDecided(
            "washed-out-card-in-an-overexposed-scene-camsim-portrait-seed111.jpg", first: .tooBright,
            second: .cutOff) { $0.overexposedSceneShare = 2 }
        let card = try #require(analysis.metrics["brightness"])
        #expect(card > AnalysisThresholds.default.maxBrightness, "card \(card)")
    }

    /// Fixtures/README.md: a white card cut by the frame, clipped (253) under a lamp in a scene of about 170: CUT_OFF
    /// first, TOO_BRIGHT after. At 0.75 × `maxBrightness` (169) the scene would pass for over-exposed and TOO_BRIGHT
    /// would lead: the bound sits between this scene and the over-exposed ones (181 and up on the measured sets).
    @Test func aClippedWhiteCardInALitSceneKeepsItsGeometryFirst() throws {
        try Self.expectOrderDecided("clipped-white-card-in-a-lit-scene-camsim-portrait-seed118.jpg", first: .cutOff,
                                    second: .tooBright) { $0.overexposedSceneShare = 0.75 }
    }
}
