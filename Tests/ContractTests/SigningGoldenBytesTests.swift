import Foundation
import KYCMessages
import Testing

/// Signing messages: golden bytes from protoc (scripts/generate-fixtures) decoded and re-encoded identically.
@Suite("Signing golden bytes")
struct SigningGoldenBytesTests {
    @Test func signDocumentRequestWithData() throws {
        let bytes = try GoldenBytesTests.fixture("signing_sign_document_request")
        let request = try SignDocumentRequest(serialized: bytes)
        #expect(request.reference == "order-42")
        #expect(request.documentID == "doc_0011")
        #expect(request.keyID == "key_aabb")
        #expect(request.signature == [0x30, 0x45, 0x02, 0x20, 0x01, 0x02, 0x03])
        #expect(request.data == Array("Loan agreement #42\n".utf8))
        #expect(request.serialized() == bytes)
    }

    @Test func signDocumentReplyReplayed() throws {
        let bytes = try GoldenBytesTests.fixture("signing_sign_document_reply")
        let reply = try SignDocumentReply(serialized: bytes)
        #expect(reply.replayed)
        #expect(reply.signedAtMs == 1_795_000_000_456)
        #expect(reply.unsignedDocumentIDs == ["doc_0012"])
        #expect(reply.serialized() == bytes)
    }

    @Test func createSigningRequest() throws {
        let bytes = try GoldenBytesTests.fixture("signing_create_request")
        let request = try CreateSigningRequest(serialized: bytes)
        #expect(request.sessionID == "ses_0123456789abcdef01234567")
        #expect(request.documents.count == 1)
        #expect(request.documents.first?.name == "contract.txt")
        #expect(request.documents.first?.content == Array("Loan agreement #42\n".utf8))
        #expect(request.callbackURL == "https://bank.example/hooks/signing")
        #expect(request.ttlSeconds == 3600)
        #expect(request.serialized() == bytes)
    }
}
