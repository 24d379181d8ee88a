// The canonical feedback list (docs/capture.md documents each code, its metric, threshold and order).

/// What the user should do about a frame. Declaration order is the priority order: what to fix first comes first.
public enum FeedbackCode: String, Sendable, Codable, CaseIterable {
    case noDocument = "NO_DOCUMENT", cutOff = "CUT_OFF", moveCloser = "MOVE_CLOSER", moveAway = "MOVE_AWAY",
         tilted = "TILTED", tooDark = "TOO_DARK", tooBright = "TOO_BRIGHT", blurry = "BLURRY", glare = "GLARE",
         holdSteady = "HOLD_STEADY", good = "GOOD", noFace = "NO_FACE", multipleFaces = "MULTIPLE_FACES",
         faceTooSmall = "FACE_TOO_SMALL", faceTooLarge = "FACE_TOO_LARGE", faceNotCentered = "FACE_NOT_CENTERED"
}

/// One finding, with the measured value and the threshold it was judged against.
public struct Feedback: Sendable, Codable, Equatable {
    public var code: FeedbackCode
    /// The measured value (nil when the finding is an absence, e.g. NO_DOCUMENT without any candidate).
    public var value: Double?
    /// The threshold the value was judged against.
    public var threshold: Double?

    public init(code: FeedbackCode, value: Double? = nil, threshold: Double? = nil) {
        self.code = code
        self.value = value
        self.threshold = threshold
    }
}

/// Named measurements ("brightness", "contrast", "sharpness", "glareFraction", "largestGlareBlob", "fill", "skew",
/// "faceSize", "faceOffset", …), documented in docs/capture.md.
public struct FrameMetrics: Sendable, Codable, Equatable {
    public var values: [String: Double]

    public init(values: [String: Double] = [:]) {
        self.values = values
    }

    public subscript(name: String) -> Double? {
        get { values[name] }
        set { values[name] = newValue }
    }
}
