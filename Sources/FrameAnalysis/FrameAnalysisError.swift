// Bad input is a value, never a crash.

/// Why a frame could not be analysed.
public struct FrameAnalysisError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case emptyInput = "empty_input", corruptImage = "corrupt_image", tooManyPixels = "too_many_pixels",
             wrongRawSize = "wrong_raw_size", unsupportedFormat = "unsupported_format"
    }

    public var code: Code
    /// A human-readable reason (safe to show an operator; carries no memory addresses or internal state).
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
