import KYCMessages

/// A domain failure a handler throws; `ServiceRouter` turns it into a failed `ReplyEnvelope` with these fields.
/// Everything here goes on the wire, so never put internal details (SQL, paths, stack traces) into `message`.
public struct ServiceError: Error, Sendable, Equatable {
    public var status: StatusCode
    /// Machine-readable code, e.g. `"slot_taken"`.
    public var code: String
    /// Human-readable reason.
    public var message: String
    public var violations: [FieldViolation]

    public init(status: StatusCode, code: String = "", message: String, violations: [FieldViolation] = []) {
        self.status = status
        self.code = code.isEmpty ? status.defaultErrorCode : code
        self.message = message
        self.violations = violations
    }

    /// A request field is invalid.
    public static func invalidArgument(field: String, code: String, message: String) -> ServiceError {
        ServiceError(status: .invalidArgument, code: code, message: message,
                     violations: [FieldViolation(field: field, code: code, message: message)])
    }

    /// The named resource does not exist.
    public static func notFound(_ message: String) -> ServiceError {
        ServiceError(status: .notFound, message: message)
    }

    /// The request conflicts with current state: `.alreadyExists` when `resourceExists` (creating a duplicate),
    /// otherwise `.failedPrecondition` (e.g. the slot is taken, the appointment was cancelled).
    public static func conflict(code: String, message: String, resourceExists: Bool = false) -> ServiceError {
        ServiceError(status: resourceExists ? .alreadyExists : .failedPrecondition, code: code, message: message)
    }

    /// An internal failure the handler chose to report; `message` goes on the wire.
    public static func `internal`(_ message: String) -> ServiceError {
        ServiceError(status: .internalError, message: message)
    }
}
