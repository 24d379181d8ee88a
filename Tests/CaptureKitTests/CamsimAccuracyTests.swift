import Testing

/// The issue's accuracy bar on frames from tools/camsim, a generator built independently of tools/framegen (which
/// the engine is tuned on): the issue says the engine will be judged on frames from a generator it has never seen.
/// Never tune on this seed (1); tune on others (`python3 tools/camsim/camsim.py --seed 2 …`) and check here.
@Suite("Frame analysis accuracy on camsim frames (not tuned on)")
struct CamsimAccuracyTests {
    static let evaluation: Result<AccuracyEvaluation, GenerationError> = GeneratedFrames.camsimSet.map {
        AccuracyEvaluation(setName: "camsim", set: $0)
    }

    /// Classes still below the bar on camsim (issue #5 stays open until this is empty). The list can only shrink:
    /// a class that meets the bar while listed fails the test.
    static let knownBelowBar: Set<String> = [
        "document GOOD", "document NO_DOCUMENT", "document CUT_OFF", "document MOVE_CLOSER", "document MOVE_AWAY",
        "document TILTED", "document TOO_DARK", "document TOO_BRIGHT", "document BLURRY", "document GLARE",
    ]
    /// Whether the mean corner error is still above the bar on camsim (same rule: true fails once it is met).
    static let cornerErrorKnownAboveBar = true

    @Test func documentFeedbackAccuracyPerClass() throws {
        try Self.evaluation.get().expectEveryClassAtTheBar(mode: "document", classCount: 10,
                                                           knownBelowBar: Self.knownBelowBar)
    }

    @Test func meanCornerErrorOnSharpDetectedFrames() throws {
        let (mean, measured, eligible) = try Self.evaluation.get().meanCornerError()
        #expect(measured >= eligible / 2, "the engine found too few documents to judge corners")
        if Self.cornerErrorKnownAboveBar {
            withKnownIssue("issue #5: camsim mean corner error is above the bar") {
                #expect(mean <= AccuracyEvaluation.maxMeanCornerError)
            }
        } else {
            #expect(mean <= AccuracyEvaluation.maxMeanCornerError)
        }
    }
}
