// The engine's answer for one frame.

/// Everything the engine found in one frame: geometry, measurements and ordered feedback.
public struct FrameAnalysis: Sendable, Codable, Equatable {
    /// Input frame size in pixels.
    public var width: Int
    public var height: Int
    public var mode: FrameMode
    /// The document quadrilateral (document mode), nil when none was found.
    public var region: DocumentRegion?
    /// Faces found (selfie mode), largest first.
    public var faces: [FaceRegion]
    public var metrics: FrameMetrics
    /// Ordered: what to fix first is first; `[GOOD]` when nothing is wrong.
    public var feedback: [Feedback]

    /// The one thing to tell the user now.
    public var primary: FeedbackCode { feedback.first?.code ?? .good }

    public init(width: Int, height: Int, mode: FrameMode, region: DocumentRegion?, faces: [FaceRegion],
                metrics: FrameMetrics, feedback: [Feedback]) {
        self.width = width
        self.height = height
        self.mode = mode
        self.region = region
        self.faces = faces
        self.metrics = metrics
        self.feedback = feedback
    }
}
