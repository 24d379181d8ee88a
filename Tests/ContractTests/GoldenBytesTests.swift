import Foundation
import KYCMessages
import Testing

/// Golden bytes written by Google's protoc (scripts/generate-fixtures) from the .txtpb files beside them: the
/// project must decode exactly what an independent encoder wrote, and re-encode it to the same bytes.
@Suite("Golden bytes from protoc")
struct GoldenBytesTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(name).bin")
        return Array(try Data(contentsOf: url))
    }

    @Test func requestEnvelopeWithSessionPrincipal() throws {
        let bytes = try Self.fixture("request_envelope")
        let envelope = try RequestEnvelope(serialized: bytes)
        #expect(envelope.requestID == "req-0001")
        #expect(envelope.traceID == "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        #expect(envelope.tenant == "acme")
        #expect(envelope.principal.kind == .session)
        #expect(envelope.principal.id == "ses_0123456789abcdef01234567")
        #expect(envelope.principal.scopes == ["appointments", "capture"])
        #expect(envelope.principal.identity == Identity(identityType: "T.C. Kimlik Kartı", identityNo: "10000000146",
                                                       name: "Ayşe", surname: "Yılmaz", isPriorityCustomer: true))
        #expect(envelope.principal.businessUID == "biz_00112233445566778899aabb")
        #expect(envelope.deadlineUnixMs == 1_795_000_000_123)
        #expect(envelope.method == "appointment.ListCallTypes")
        #expect(try ListCallTypesRequest(serialized: envelope.payload).handler == "KYB")
        #expect(envelope.serialized() == bytes)
    }

    @Test func requestEnvelopeWithAPIKeyPrincipal() throws {
        let bytes = try Self.fixture("request_envelope_api_key")
        let envelope = try RequestEnvelope(serialized: bytes)
        #expect(envelope.principal.kind == .apiKey)
        #expect(envelope.principal.identity == nil)
        #expect(envelope.principal.scopes == ["backend", "admin"])
        #expect(envelope.payload.isEmpty)
        #expect(envelope.serialized() == bytes)
    }

    @Test func replyEnvelopeCarryingAPayload() throws {
        let bytes = try Self.fixture("reply_envelope_ok")
        let reply = try ReplyEnvelope(serialized: bytes)
        #expect(reply.status == .ok)
        let callTypes = try ListCallTypesReply(serialized: reply.payload)
        #expect(callTypes.callTypes == [CallType(code: "onboarding", name: "Remote onboarding video call",
                                                 handler: "KYC")])
        #expect(reply.serialized() == bytes)
    }

    @Test func replyEnvelopeWithViolations() throws {
        let bytes = try Self.fixture("reply_envelope_violations")
        let reply = try ReplyEnvelope(serialized: bytes)
        #expect(reply.status == .invalidArgument)
        #expect(reply.errorCode == "validation_failed")
        #expect(reply.reason == "2 fields are invalid")
        #expect(reply.violations.map(\.field) == ["identityNo", "email"])
        #expect(reply.violations.map(\.code) == ["invalid_checksum", "invalid_format"])
        #expect(reply.serialized() == bytes)
    }

    @Test func callTypeMessages() throws {
        let requestBytes = try Self.fixture("list_call_types_request")
        #expect(try ListCallTypesRequest(serialized: requestBytes) == ListCallTypesRequest(handler: "KYB"))
        #expect(ListCallTypesRequest(handler: "KYB").serialized() == requestBytes)

        let replyBytes = try Self.fixture("list_call_types_reply")
        let reply = try ListCallTypesReply(serialized: replyBytes)
        #expect(reply.callTypes.map(\.code) == ["onboarding", "limit_increase"])
        #expect(reply.serialized() == replyBytes)
    }

    @Test func describeReply() throws {
        let bytes = try Self.fixture("describe_reply")
        let reply = try DescribeReply(serialized: bytes)
        #expect(reply == DescribeReply(service: "appointment", version: "0.1.0", instance: "host-a:4242/0",
                                       methods: ["appointment.Describe", "appointment.ListCallTypes"],
                                       startedUnixMs: 1_795_000_000_000))
        #expect(reply.serialized() == bytes)
    }

    @Test func everyTruncationOfAGoldenMessageIsRefusedOrDecodesAPrefixWithoutCrashing() throws {
        let bytes = try Self.fixture("request_envelope")
        var refused = 0
        for length in 0..<bytes.count {
            do { _ = try RequestEnvelope(serialized: Array(bytes[0..<length])) } catch { refused += 1 }
        }
        // Cuts inside a field must be refused; cuts on a field boundary are valid shorter messages.
        #expect(refused > bytes.count / 2)
    }
}
