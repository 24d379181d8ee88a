import KYCMessages
import Messaging

/// The domain failures of the appointment service, as the `ServiceError`s that go on the wire (codes are part of
/// the API: clients branch on them).
enum AppointmentFailure {
    static func violations(_ found: [FieldViolation]) -> ServiceError {
        if found.count == 1, let only = found.first {
            return ServiceError(status: .invalidArgument, code: only.code, message: only.message, violations: found)
        }
        return ServiceError(status: .invalidArgument, code: "validation_failed",
                            message: "\(found.count) fields are invalid", violations: found)
    }

    static func malformed(_ message: String) -> ServiceError {
        .invalidArgument(field: "payload", code: "malformed_payload", message: "the \(message) payload is malformed")
    }

    static func unknownCallType(_ code: String, field: String = "callType") -> ServiceError {
        .invalidArgument(field: field, code: "unknown_call_type", message: "no active call type '\(code)'")
    }

    static func callTypeNotFound(_ code: String) -> ServiceError {
        ServiceError(status: .notFound, code: "call_type_not_found", message: "no active call type '\(code)'")
    }

    static let slotFull = ServiceError.conflict(code: "slot_full", message: "this slot has no free place left")

    static func alreadyBooked(_ uid: String) -> ServiceError {
        .conflict(code: "already_booked",
                  message: "this identity already has an active appointment of this call type (uId \(uid))")
    }

    static let idempotencyConflict = ServiceError.conflict(
        code: "idempotency_conflict", message: "this uId was already used for a different booking", resourceExists: true)

    static let cancellationWindowClosed = ServiceError.conflict(
        code: "cancellation_window_closed", message: "the appointment can no longer be cancelled")

    static let appointmentNotFound = ServiceError(status: .notFound, code: "appointment_not_found",
                                                  message: "no appointment with this uId")

    static let identityMismatch = ServiceError(
        status: .permissionDenied, code: "identity_mismatch",
        message: "a mobile session may only act for the identity it was opened for")

    static let sessionWithoutIdentity = ServiceError(
        status: .permissionDenied, code: "session_without_identity",
        message: "this session was opened without an identity; the backend must open it with one")

    static let callerNotAllowed = ServiceError(status: .permissionDenied, code: "permission_denied",
                                               message: "an API key or a mobile session is required")
}
