// Hand-written conveniences for the generated StatusCode (Generated/envelope.pb.swift).

extension StatusCode {
    /// The machine-readable code used when a reply names none of its own.
    public var defaultErrorCode: String {
        switch self {
        case .ok: "ok"
        case .invalidArgument: "invalid_argument"
        case .notFound: "not_found"
        case .alreadyExists: "already_exists"
        case .failedPrecondition: "failed_precondition"
        case .permissionDenied: "permission_denied"
        case .unauthenticated: "unauthenticated"
        case .resourceExhausted: "resource_exhausted"
        case .deadlineExceeded: "deadline_exceeded"
        case .unavailable: "unavailable"
        case .internalError: "internal"
        case .unimplemented: "unimplemented"
        }
    }
}
