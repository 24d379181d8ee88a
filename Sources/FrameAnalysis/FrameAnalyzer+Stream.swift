// One frame of a capture stream: the engine and the stream's tracker together, as every caller plays a stream.

/// The answer for one frame of a stream: the analysis, the feedback to send (the engine's, or HOLD_STEADY for a GOOD
/// document that moved since the previous frame) and whether to capture it.
public struct StreamFrame: Sendable {
    public let analysis: FrameAnalysis
    public let feedback: [Feedback]
    public let capture: Bool
}

extension FrameAnalyzer {
    /// Analyses the next frame of the stream `tracker` follows: searched around the region the tracker hands out
    /// first (`CaptureTracker.hint`), then fed to the tracker. CaptureService, `kycctl analyze --sequence` and the
    /// benchmark all play streams through this, so they answer alike.
    public func analyze(_ input: FrameInput, mode: FrameMode, rotation: FrameRotation = .none,
                        stream tracker: inout CaptureTracker) throws(FrameAnalysisError) -> StreamFrame {
        let analysis = try analyze(input, mode: mode, rotation: rotation,
                                   previous: tracker.hint(thresholds: thresholds),
                                   previousInColour: tracker.previousInColour,
                                   lightSearch: tracker.searchesLightly(thresholds: thresholds))
        let capture = tracker.update(with: analysis, thresholds: thresholds)
        return StreamFrame(analysis: analysis,
                           feedback: tracker.feedback(for: analysis, captured: capture, thresholds: thresholds),
                           capture: capture)
    }
}
