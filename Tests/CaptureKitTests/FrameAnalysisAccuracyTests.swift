import Testing

/// The accuracy criteria (`AccuracyEvaluation`) on tools/framegen's labelled synthetic frames, the set the
/// engine is tuned on (fixed seed, every class, 720p and 1080p). `CamsimAccuracyTests` applies the same bar to a
/// generator the engine was not tuned on.
@Suite("Frame analysis accuracy on generated frames")
struct FrameAnalysisAccuracyTests {
    static let evaluation: Result<AccuracyEvaluation, GenerationError> = GeneratedFrames.accuracySet.map {
        AccuracyEvaluation(setName: "framegen", set: $0)
    }

    /// Classes the engine does not yet get right often enough (issue #5 stays open until this set is empty). For
    /// these the shortfall is recorded as a known issue; once a class meets the bar, its known issue is no longer
    /// recorded and the test fails until the class is removed from this set, so the bar can only move up.
    static let knownBelowBar: Set<String> = [
        "document MOVE_CLOSER",
    ]

    @Test func documentFeedbackAccuracyPerClass() throws {
        try Self.evaluation.get().expectEveryClassAtTheBar(mode: "document", classCount: 10,
                                                           knownBelowBar: Self.knownBelowBar)
    }

    @Test func selfieFeedbackAccuracyPerClass() throws {
        try Self.evaluation.get().expectEveryClassAtTheBar(mode: "selfie", classCount: 8,
                                                           knownBelowBar: Self.knownBelowBar)
    }

    @Test func meanCornerErrorOnSharpDetectedFrames() throws {
        let (mean, measured, eligible) = try Self.evaluation.get().meanCornerError()
        #expect(measured >= eligible / 2, "the engine found too few documents to judge corners")
        #expect(mean <= AccuracyEvaluation.maxMeanCornerError)
    }
}
