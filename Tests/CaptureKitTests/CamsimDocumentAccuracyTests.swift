import Testing

/// The accuracy bar on the camsim document sets, none of them tuned on: landscape frames (`CamsimAccuracy`,
/// seed 1), portrait frames (`CamsimPortraitAccuracy`, seed 6) and small frames (`CamsimSmallFrameAccuracy`, seed 8).
/// Each set's file holds its data (the classes known below the bar, the recorded corner error) with the history
/// behind the numbers; the checks are the same for every set, run once per set here.
@Suite("Frame analysis accuracy on camsim document frames (not tuned on)")
struct CamsimDocumentAccuracyTests {
    static let sets = [CamsimAccuracy.bar, CamsimPortraitAccuracy.bar, CamsimSmallFrameAccuracy.bar]

    @Test(arguments: sets) func documentFeedbackAccuracyPerClass(_ set: AccuracyBar) async throws {
        try await set.expectEveryClassAtTheBar()
    }

    @Test(arguments: sets) func meanCornerErrorOnSharpDetectedFrames(_ set: AccuracyBar) async throws {
        try await set.expectMeanCornerErrorAtTheBar()
    }

    @Test(arguments: sets) func noFrameWithSomethingToFixIsJudgedGood(_ set: AccuracyBar) async throws {
        try await set.expectNoFalseGood()
    }
}
