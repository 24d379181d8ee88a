// The engine's FrameAnalysis as the AnalyzeFrameReply wire value.
import FrameAnalysis
import KYCMessages

extension AnalyzeFrameReply {
    /// The reply for `analysis` with the feedback actually sent (the tracker may turn GOOD into HOLD_STEADY).
    /// Metrics are sorted by name so equal analyses give equal bytes.
    init(analysis: FrameAnalysis, feedback: [Feedback], capture: Bool, trackerState: [UInt8], streamID: String,
         instance: String) {
        self.init(
            width: Int32(clamping: analysis.width), height: Int32(clamping: analysis.height),
            region: analysis.region.map { region in
                CaptureDocumentRegion(corners: region.corners.map { CapturePoint(x: $0.x, y: $0.y) },
                                      confidence: region.confidence)
            },
            faces: analysis.faces.map {
                CaptureFaceRegion(x: $0.x, y: $0.y, width: $0.width, height: $0.height, eyes: Int32(clamping: $0.eyes))
            },
            metrics: analysis.metrics.values.sorted { $0.key < $1.key }.map { CaptureMetric(name: $0.key, value: $0.value) },
            feedback: feedback.map { CaptureFeedback(code: $0.code.rawValue, value: $0.value, threshold: $0.threshold) },
            capture: capture, trackerState: trackerState, streamID: streamID, instance: instance)
    }
}
