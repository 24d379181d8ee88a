import Foundation
import KYCMessages
import Testing

/// KYB messages against golden bytes written by Google's protoc from Fixtures/kyb_*.txtpb: decode exactly what an
/// independent encoder wrote, and re-encode to the same bytes.
@Suite("KYB golden bytes from protoc")
struct KYBGoldenBytesTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(name).bin")
        return Array(try Data(contentsOf: url))
    }

    @Test func createBusinessRequest() throws {
        let bytes = try Self.fixture("kyb_create_business_request")
        let request = try CreateBusinessRequest(serialized: bytes)
        #expect(request == CreateBusinessRequest(taxNumber: "1234567890", name: "Acme Ticaret Ltd. Şti.",
                                                 shortName: "Acme", dataJSON: #"{"sector":"retail"}"#,
                                                 type: "limited", reference: "crm-42"))
        #expect(request.serialized() == bytes)
    }

    @Test func createBusinessReplyCarriesTheOutcome() throws {
        let bytes = try Self.fixture("kyb_create_business_reply_exists")
        let reply = try CreateBusinessReply(serialized: bytes)
        #expect(reply == CreateBusinessReply(businessUID: "biz_00112233445566778899aabb", outcome: .alreadyExists))
        #expect(reply.serialized() == bytes)
    }

    /// The regression this guards: a present-but-false wrapper must decode as `false`, not as "not given".
    @Test func updateRequestKeepsPresenceOfAFalseFlag() throws {
        let bytes = try Self.fixture("kyb_update_business_request")
        let request = try UpdateBusinessRequest(serialized: bytes)
        #expect(request == UpdateBusinessRequest(businessUID: "biz_00112233445566778899aabb", reference: nil,
                                                 isInProgress: false, type: nil))
        #expect(request.serialized() == bytes)
        #expect(UpdateBusinessRequest(businessUID: "b").serialized() != UpdateBusinessRequest(
            businessUID: "b", isInProgress: false).serialized())
    }

    @Test func businessReplyWithEveryNestedPart() throws {
        let bytes = try Self.fixture("kyb_business_reply")
        let business = try BusinessReply(serialized: bytes).business
        #expect(business.businessUID == "biz_00112233445566778899aabb")
        #expect(business.isInProgress)
        #expect(business.staff == [KYBStaffMember(staffUID: "stf_0123456789abcdef01234567",
                                                  sessionUID: "ses_0123456789abcdef01234567", name: "Ayşe",
                                                  surname: "Yılmaz", identityNo: "10000000146",
                                                  birthDate: "1985-04-23", phone: "+905321234567",
                                                  createdAtUnixMs: 1_795_000_030_000)])
        #expect(business.documents.map(\.contentType) == ["application/pdf"])
        #expect(business.documents.first?.sizeBytes == 34)
        #expect(business.statusHistory.first?.changedFields == ["reference", "isInProgress", "type"])
        #expect(business.missingFirstPhase == ["trade_registry_gazette", "signature_circular"])
        #expect(business.missingSecondPhase == ["beneficial_owner_declaration"])
        #expect(BusinessReply(business: business).serialized() == bytes)
    }

    @Test func uploadRequestCarriesRawBytes() throws {
        let bytes = try Self.fixture("kyb_upload_documents_request")
        let request = try UploadBusinessDocumentsRequest(serialized: bytes)
        #expect(request.documents.map(\.fileExtension) == ["pdf", "png"])
        #expect(request.documents[0].content == Array("%PDF-1.4 test".utf8))
        #expect(request.documents[1].content == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00])
        #expect(request.serialized() == bytes)
    }

    @Test func documentCategoriesAndContent() throws {
        let categoryBytes = try Self.fixture("kyb_document_categories_reply")
        let categories = try ListKYBDocumentCategoriesReply(serialized: categoryBytes)
        #expect(categories.categories.map(\.category) == ["tax_plate", "address_proof"])
        #expect(categories.categories.map(\.secondPhase) == [false, true])
        #expect(categories.categories.first?.name == "Vergi Levhası")
        #expect(categories.serialized() == categoryBytes)

        let contentBytes = try Self.fixture("kyb_document_content_reply")
        let content = try BusinessDocumentContentReply(serialized: contentBytes)
        #expect(content.content == [0xFF, 0xD8, 0xFF, 0xD9])
        #expect(content.document.contentType == "image/jpeg")
        #expect(content.serialized() == contentBytes)
    }

    @Test func truncatedKYBMessagesAreDecodingErrors() throws {
        let bytes = try Self.fixture("kyb_business_reply")
        #expect(throws: MessageDecodingError.self) { try BusinessReply(serialized: Array(bytes.dropLast(7))) }
        #expect(throws: MessageDecodingError.self) {
            try UploadBusinessDocumentsRequest(serialized: [0x22, 0x10, 0x0A])
        }
    }
}
