import Testing

/// The accuracy criteria (`AccuracyEvaluation`) on tools/framegen's labelled synthetic frames, the set the
/// engine is tuned on (fixed seed, every class, 720p and 1080p). `CamsimDocumentAccuracyTests` applies the same bar
/// to a generator the engine was not tuned on.
@Suite("Frame analysis accuracy on generated frames")
struct FrameAnalysisAccuracyTests {
    static let evaluation: Result<AccuracyEvaluation, GenerationError> = GeneratedFrames.accuracySet.map {
        AccuracyEvaluation(setName: "framegen", set: $0)
    }
    /// The evaluation, computed off the cooperative pool the first time (see `onOwnThread`).
    static func evaluated() async throws -> AccuracyEvaluation { try await onOwnThread { try evaluation.get() } }

    /// Classes the engine does not yet get right often enough (issue #5 stays open until this is empty), with the
    /// accuracy they must not fall below (see `AccuracyEvaluation.expectEveryClassAtTheBar`).
    static let knownBelowBar: [String: Double] = [:]

    @Test func documentFeedbackAccuracyPerClass() async throws {
        try await Self.evaluated().expectEveryClassAtTheBar(mode: "document", classCount: 10,
                                                           knownBelowBar: Self.knownBelowBar)
    }

    @Test func selfieFeedbackAccuracyPerClass() async throws {
        try await Self.evaluated().expectEveryClassAtTheBar(mode: "selfie", classCount: 8,
                                                           knownBelowBar: Self.knownBelowBar)
    }

    /// The mean corner error this set has reached, below the bar: 0.0151 until a band missing from a quad seen
    /// square-on was looked for (2026-12-01: 22 of its cards had been outlined without their MRZ band), 0.0095
    /// then, 0.0068 since the band's edge is also searched for where the vote has no line (dark headers on
    /// backgrounds of their shade; 0.0074 with the searched edge held to the vote's 0.6 support instead of half, so
    /// this lock also holds `minSearchedBandSupport`). A rise past this is a regression even under the bar.
    static let recordedCornerError = 0.007

    @Test func meanCornerErrorOnSharpDetectedFrames() async throws {
        try await Self.evaluated().expectMeanCornerErrorAtTheBar(recorded: Self.recordedCornerError)
    }

    @Test func noFrameWithSomethingToFixIsJudgedGood() async throws {
        try await Self.evaluated().expectNoFalseGood()
    }
}
