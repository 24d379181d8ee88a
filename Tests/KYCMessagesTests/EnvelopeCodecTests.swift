import KYCMessages
import Testing

@Suite("Envelope codec")
struct EnvelopeCodecTests {
    static let sampleRequest = RequestEnvelope(
        requestID: "req-1", traceID: "trace-1", tenant: "acme",
        principal: Principal(kind: .session, id: "ses_1", scopes: ["appointments", "capture"],
                             identity: Identity(identityType: "TCKN", identityNo: "10000000146", name: "Ayşe",
                                                surname: "Yılmaz")),
        deadlineUnixMs: 1_790_000_000_123, method: "appointment.ListCallTypes", payload: [0, 1, 2, 255])

    @Test func requestRoundTripKeepsEveryField() throws {
        let decoded = try RequestEnvelope(serialized: Self.sampleRequest.serialized())
        #expect(decoded == Self.sampleRequest)
    }

    @Test func principalWithoutIdentityStaysWithoutIdentity() throws {
        var request = Self.sampleRequest
        request.principal = Principal(kind: .apiKey, id: "key_1", scopes: ["backend"])
        let decoded = try RequestEnvelope(serialized: request.serialized())
        #expect(decoded.principal.identity == nil)
        #expect(decoded.principal.kind == .apiKey)
    }

    @Test func replyRoundTripKeepsViolationsInOrder() throws {
        let reply = ReplyEnvelope.failure(
            requestID: "req-9", status: .invalidArgument, reason: "invalid fields", errorCode: "validation_failed",
            violations: [FieldViolation(field: "identityNo", code: "invalid_checksum", message: "bad checksum"),
                         FieldViolation(field: "email", code: "invalid_format", message: "not an e-mail")])
        let decoded = try ReplyEnvelope(serialized: reply.serialized())
        #expect(decoded == reply)
        #expect(decoded.violations.map(\.field) == ["identityNo", "email"])
    }

    @Test func failureWithoutCodeUsesTheStatusDefault() {
        let reply = ReplyEnvelope.failure(requestID: "r", status: .unavailable, reason: "no worker")
        #expect(reply.effectiveErrorCode == "unavailable")
    }

    @Test func emptyMessagesEncodeToZeroBytesAndDecode() throws {
        #expect(RequestEnvelope().serialized().isEmpty)
        #expect(try RequestEnvelope(serialized: []) == RequestEnvelope())
        #expect(try ReplyEnvelope(serialized: []) == ReplyEnvelope())
    }

    @Test(arguments: [
        [0x0A, 0x05, 0x61],               // string field claims 5 bytes, has 1
        [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], // endless varint tag
        [0x22, 0x03, 0x08],               // nested principal truncated
        [0x0F],                           // wire type 7 does not exist
    ] as [[UInt8]])
    func malformedBytesThrowInsteadOfCrashing(bytes: [UInt8]) {
        #expect(throws: MessageDecodingError.self) { try RequestEnvelope(serialized: bytes) }
    }

    @Test func unknownStatusFromANewerPeerIsNotTrusted() throws {
        // field 2 (status), varint 99
        let decoded = try ReplyEnvelope(serialized: [0x10, 99])
        #expect(decoded.status == .internalError)
    }

    @Test func callTypesRoundTrip() throws {
        let reply = ListCallTypesReply(callTypes: [CallType(code: "kyc_video", name: "Video KYC", handler: "KYC"),
                                                   CallType(code: "kyb_rep", name: "Company representative",
                                                            handler: "KYB")])
        #expect(try ListCallTypesReply(serialized: reply.serialized()) == reply)
        #expect(try ListCallTypesRequest(serialized: ListCallTypesRequest(handler: "KYB").serialized()).handler == "KYB")
    }

    @Test func describeRoundTrip() throws {
        let reply = DescribeReply(service: "appointment", version: "0.1.0", instance: "host:42/0",
                                  methods: ["appointment.Describe", "appointment.ListCallTypes"], startedUnixMs: 7)
        #expect(try DescribeReply(serialized: reply.serialized()) == reply)
    }
}
