// A capture needs the card clear of the frame's edges by more than the outline's own error
// (`AnalysisThresholds.minCaptureMargin`; docs/capture.md, "Feedback codes").
import Testing
@testable import FrameAnalysis

@Suite struct CaptureMarginTests {
    /// Fixtures/README.md: a card cut by the top and right of the frame; a part of it was found 0.014 of the short
    /// side from the top edge and captured. With nothing else to fix, it is CUT_OFF with that distance as its value;
    /// without the capture margin, GOOD.
    @Test func aCardPartNearTheEdgeIsNotCaptured() throws {
        let input = FrameInput.jpeg(try fixtureBytes("card-part-near-the-edge-captured-camsim-small-seed170.jpg"))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.feedback.map(\.code) == [.cutOff], "\(analysis.feedback)")
        let distance = try #require(analysis.metrics["edgeDistance"])
        #expect(distance >= AnalysisThresholds.default.edgeMargin, "\(distance)")
        #expect(analysis.feedback.first?.value == distance)
        #expect(analysis.feedback.first?.threshold == AnalysisThresholds.default.minCaptureMargin)
        // Judged before the passes over the image that only hold back a capture: none of them ran.
        #expect(analysis.metrics["outlineSmear"] == nil && analysis.metrics["wideStepShare"] == nil,
                "\(analysis.metrics)")

        var off = AnalysisThresholds.default
        off.minCaptureMargin = 0
        #expect(try FrameAnalyzer(thresholds: off).analyze(input, mode: .document).primary == .good)
    }

    @Test func theMarginIsReadFromJSONAndRangeChecked() throws {
        let t = try AnalysisThresholds(json: Array(#"{"minCaptureMargin": 0.05}"#.utf8))
        #expect(t.minCaptureMargin == 0.05)
        #expect(throws: AnalysisThresholdsError.self) {
            try AnalysisThresholds(json: Array(#"{"minCaptureMargin": 0.5}"#.utf8))
        }
    }
}
