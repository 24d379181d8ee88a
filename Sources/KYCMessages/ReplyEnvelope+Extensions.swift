// Hand-written conveniences for the generated ReplyEnvelope (Generated/envelope.pb.swift).

extension ReplyEnvelope {
    /// An OK reply carrying `payload`, the operation's reply message.
    public static func success(requestID: String, payload: [UInt8]) -> ReplyEnvelope {
        ReplyEnvelope(requestID: requestID, status: .ok, payload: payload)
    }

    /// A failed reply with no payload; an empty `errorCode` becomes the status's default code.
    public static func failure(requestID: String, status: StatusCode, reason: String, errorCode: String = "",
                               violations: [FieldViolation] = []) -> ReplyEnvelope {
        ReplyEnvelope(requestID: requestID, status: status, reason: reason,
                      errorCode: errorCode.isEmpty ? status.defaultErrorCode : errorCode, violations: violations)
    }

    /// The machine-readable error code: the reply's own, or the status's default.
    public var effectiveErrorCode: String { errorCode.isEmpty ? status.defaultErrorCode : errorCode }
}
