@testable import GatewayKit
import KYCMessages
import Testing

@Suite("API errors")
struct APIErrorTests {
    @Test(arguments: [
        (StatusCode.invalidArgument, "", 422), (.notFound, "", 404), (.alreadyExists, "", 409),
        (.failedPrecondition, "", 409), (.permissionDenied, "", 403), (.unauthenticated, "", 401),
        (.resourceExhausted, "", 429), (.resourceExhausted, "payload_too_large", 413), (.deadlineExceeded, "", 504),
        (.unavailable, "", 503), (.internalError, "", 500), (.unimplemented, "", 501),
    ])
    func statusesMapToHTTP(status: StatusCode, code: String, http: Int) {
        #expect(APIError.httpStatus(for: status, errorCode: code) == http)
    }

    @Test func errorBodyHasTheDocumentedShape() {
        let error = APIError(status: 422, code: "invalid_handler", message: "handler must be KYC or KYB",
                             field: "handler")
        #expect(String(decoding: error.json(requestID: "req_1").encoded(), as: UTF8.self)
            == #"{"error":{"code":"invalid_handler","message":"handler must be KYC or KYB","field":"handler"},"requestId":"req_1"}"#)
    }

    @Test func missingFieldIsNull() {
        let body = String(decoding: APIError(status: 500, code: "internal", message: "internal error")
            .json(requestID: "r").encoded(), as: UTF8.self)
        #expect(body.contains(#""field":null"#))
    }

    @Test func serviceFailureKeepsCodeFieldAndEveryViolation() {
        let reply = ReplyEnvelope.failure(
            requestID: "r", status: .invalidArgument, reason: "2 invalid fields", errorCode: "validation_failed",
            violations: [FieldViolation(field: "phone", code: "invalid_phone", message: "not E.164"),
                         FieldViolation(field: "email", code: "invalid_email", message: "bad")])
        let error = APIError(reply: reply)
        #expect(error.status == 422)
        #expect(error.code == "validation_failed")
        #expect(error.field == "phone")
        #expect(error.violations.count == 2)
    }

    @Test(arguments: [("abc-123", true), ("a:b.c_d", true), ("", false), ("has space", false),
                      (String(repeating: "x", count: 129), false), ("ünicode", false), ("quote\"", false)])
    func requestIDsFromClientsAreAcceptedOnlyWhenSane(header: String, accepted: Bool) {
        let id = RequestID.accept(header)
        #expect((id == header) == accepted)
        #expect(!id.isEmpty)
    }
}
