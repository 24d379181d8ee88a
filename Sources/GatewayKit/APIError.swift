import KYCMessages

/// An error answered to an HTTP client as `{"error":{"code","message","field"},"requestId"}`.
public struct APIError: Error, Sendable, Equatable {
    public let status: Int
    public let code: String
    public let message: String
    public let field: String?
    /// Further offending fields when a service reported several.
    public let violations: [FieldViolation]

    public init(status: Int, code: String, message: String, field: String? = nil, violations: [FieldViolation] = []) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.violations = violations
    }

    public static func badRequest(_ code: String, _ message: String, field: String? = nil) -> APIError {
        APIError(status: 400, code: code, message: message, field: field)
    }

    public static func invalidField(_ field: String, _ code: String, _ message: String) -> APIError {
        APIError(status: 422, code: code, message: message, field: field)
    }

    public static let missingCredentials = APIError(
        status: 401, code: "unauthenticated",
        message: "send 'Authorization: Bearer <api key or session token>'", field: "Authorization")
    public static let invalidCredentials = APIError(
        status: 401, code: "invalid_credentials", message: "the credential is unknown, revoked or expired",
        field: "Authorization")

    /// The body of the error response.
    public func json(requestID: String) -> JSONValue {
        var error: [(String, JSONValue)] = [("code", .string(code)), ("message", .string(message))]
        error.append(("field", field.map(JSONValue.string) ?? .null))
        if !violations.isEmpty {
            error.append(("violations", .array(violations.map { v in
                .object([("field", .string(v.field)), ("code", .string(v.code)), ("message", .string(v.message))])
            })))
        }
        return .object([("error", .object(error)), ("requestId", .string(requestID))])
    }

    /// The HTTP form of a service's failure reply.
    public init(reply: ReplyEnvelope) {
        let first = reply.violations.first
        self.init(status: Self.httpStatus(for: reply.status, errorCode: reply.effectiveErrorCode),
                  code: reply.effectiveErrorCode,
                  message: reply.reason.isEmpty ? reply.effectiveErrorCode.replacingOccurrences(of: "_", with: " ")
                      : reply.reason,
                  field: first?.field, violations: reply.violations.count > 1 ? reply.violations : [])
    }

    /// How each status maps to HTTP (documented in docs/protocol.md).
    public static func httpStatus(for status: StatusCode, errorCode: String) -> Int {
        switch status {
        case .ok: 200
        case .invalidArgument: 422
        case .notFound: 404
        case .alreadyExists, .failedPrecondition: 409
        case .permissionDenied: 403
        case .unauthenticated: 401
        case .resourceExhausted: errorCode == "payload_too_large" ? 413 : 429
        case .deadlineExceeded: 504
        case .unavailable: 503
        case .internalError: 500
        case .unimplemented: 501
        }
    }
}
