import KYCCrypto
import Foundation
@testable import KYBKit
import KYCMessages
import Messaging
import Storage
import Testing

@Suite("KYB documents")
struct DocumentTests {
    @Test func uploadedDocumentsAreListedAndReadBackByteForByte() throws {
        let kyb = try KYBFixture()
        let uid = try kyb.createBusiness()
        let reply = kyb.call("kyb.UploadDocuments", UploadBusinessDocumentsRequest(
            businessUID: uid, category: "signature_circular", reference: "ref-9",
            documents: [SampleFile.upload(SampleFile.pdf), SampleFile.upload(SampleFile.jpeg, "JPG")]))
        #expect(reply.status == .ok)
        let upload = try UploadBusinessDocumentsReply(serialized: reply.payload)
        #expect(upload.uploadUID.hasPrefix("upl_"))
        #expect(upload.documents.map(\.contentType) == ["application/pdf", "image/jpeg"])
        #expect(upload.documents.map(\.fileExtension) == ["pdf", "jpg"])
        #expect(upload.documents.map(\.sizeBytes) == [Int64(SampleFile.pdf.count), Int64(SampleFile.jpeg.count)])
        #expect(upload.documents.allSatisfy { $0.category == "signature_circular" && $0.reference == "ref-9" })

        let listed = try ListBusinessDocumentsReply(
            serialized: kyb.call("kyb.ListDocuments", ListBusinessDocumentsRequest(businessUID: uid)).payload)
        #expect(listed.documents == upload.documents)

        let content = kyb.call("kyb.GetDocumentContent", GetBusinessDocumentContentRequest(
            businessUID: uid, documentUID: upload.documents[1].documentUID))
        #expect(content.status == .ok)
        let document = try BusinessDocumentContentReply(serialized: content.payload)
        #expect(document.content == SampleFile.jpeg)
        #expect(document.document.contentType == "image/jpeg")
        #expect(document.document.sha256 == SHA256.hex(SampleFile.jpeg))
    }

    @Test func identicalContentIsStoredOnce() throws {
        let kyb = try KYBFixture()
        let first = try kyb.createBusiness()
        let second = try kyb.createBusiness(taxNumber: KYBFixture.otherVKN)
        for uid in [first, second, first] {
            let reply = kyb.call("kyb.UploadDocuments", UploadBusinessDocumentsRequest(
                businessUID: uid, category: "tax_plate", documents: [SampleFile.upload(SampleFile.pdf)]))
            #expect(reply.status == .ok)
        }
        #expect(try kyb.store.documents.blobCount(tenant: "acme") == 1)
        #expect(try kyb.business(first).documents.count == 2)
        _ = try kyb.createBusiness(tenant: "globex")
        #expect(try kyb.store.documents.blobCount(tenant: "globex") == 0)
    }

    @Test func aRetriedUploadStoresNothingTwice() throws {
        let kyb = try KYBFixture()
        let uid = try kyb.createBusiness()
        let request = UploadBusinessDocumentsRequest(businessUID: uid, category: "tax_plate",
                                                     documents: [SampleFile.upload(SampleFile.pdf)])
        let first = try UploadBusinessDocumentsReply(
            serialized: kyb.call("kyb.UploadDocuments", request, requestID: "upload-1").payload)
        let retry = try UploadBusinessDocumentsReply(
            serialized: kyb.call("kyb.UploadDocuments", request, requestID: "upload-1").payload)
        #expect(retry == first)
        #expect(try kyb.business(uid).documents.count == 1)
    }

    @Test func aWrongHashIsRefusedAndNothingOfTheRequestIsStored() throws {
        let kyb = try KYBFixture()
        let uid = try kyb.createBusiness()
        let reply = kyb.call("kyb.UploadDocuments", UploadBusinessDocumentsRequest(
            businessUID: uid, category: "tax_plate",
            documents: [SampleFile.upload(SampleFile.pdf),
                        SampleFile.upload(SampleFile.otherPDF, hash: SHA256.hex(SampleFile.pdf))]))
        #expect(reply.status == .invalidArgument)
        #expect(reply.errorCode == "hash_mismatch")
        #expect(reply.violations.map(\.field) == ["document[1].contentHash"])
        #expect(try kyb.business(uid).documents.isEmpty)
        #expect(try kyb.store.documents.blobCount(tenant: "acme") == 0)
    }

    @Test(arguments: [
        (SampleFile.html, "pdf", "document[0].content", "content_type_mismatch"),
        (SampleFile.png, "jpg", "document[0].content", "content_type_mismatch"),
        (SampleFile.pdf, "png", "document[0].content", "content_type_mismatch"),
        (SampleFile.pdf, "exe", "document[0].extension", "unsupported_extension"),
        (SampleFile.pdf, "", "document[0].extension", "unsupported_extension"),
        ([UInt8](), "pdf", "document[0].content", "empty_content"),
    ])
    func contentMustBeWhatItsExtensionSays(bytes: [UInt8], fileExtension: String, field: String, code: String) throws {
        let kyb = try KYBFixture()
        let uid = try kyb.createBusiness()
        let reply = kyb.call("kyb.UploadDocuments", UploadBusinessDocumentsRequest(
            businessUID: uid, category: "tax_plate", documents: [SampleFile.upload(bytes, fileExtension)]))
        #expect(reply.status == .invalidArgument)
        #expect(reply.errorCode == code)
        #expect(reply.violations.map(\.field) == [field])
        #expect(try kyb.business(uid).documents.isEmpty)
    }

    @Test func aHashThatIsNotHexIsInvalid() throws {
        let kyb = try KYBFixture()
        let uid = try kyb.createBusiness()
        let reply = kyb.call("kyb.UploadDocuments", UploadBusinessDocumentsRequest(
            businessUID: uid, category: "tax_plate", documents: [SampleFile.upload(SampleFile.pdf, hash: "abc")]))
        #expect(reply.errorCode == "invalid_hash")
    }

    @Test func sizeLimitsAreResourceExhaustedWithTheField() throws {
        var limits = KYBLimits()
        limits.maxDocumentBytes = 2048
        limits.maxUploadBytes = 3000
        limits.maxDocumentsPerUpload = 3
        let kyb = try KYBFixture(limits: limits)
        let uid = try kyb.createBusiness()
        let big = SampleFile.pdf + [UInt8](repeating: 0x20, count: 2100)
        let one = kyb.call("kyb.UploadDocuments", UploadBusinessDocumentsRequest(
            businessUID: uid, category: "tax_plate", documents: [SampleFile.upload(SampleFile.pdf), SampleFile.upload(big)]))
        #expect(one.status == .resourceExhausted)
        #expect(one.errorCode == "payload_too_large")
        #expect(one.violations.map(\.field) == ["document[1].content"])

        let half = SampleFile.pdf + [UInt8](repeating: 0x20, count: 1600)
        let total = kyb.call("kyb.UploadDocuments", UploadBusinessDocumentsRequest(
            businessUID: uid, category: "tax_plate", documents: [SampleFile.upload(half), SampleFile.upload(half)]))
        #expect(total.status == .resourceExhausted)
        #expect(total.violations.map(\.field) == ["document"])

        let many = kyb.call("kyb.UploadDocuments", UploadBusinessDocumentsRequest(
            businessUID: uid, category: "tax_plate", documents: Array(repeating: SampleFile.upload(SampleFile.pdf),
                                                                      count: 4)))
        #expect(many.errorCode == "too_many_documents")
        let none = kyb.call("kyb.UploadDocuments", UploadBusinessDocumentsRequest(businessUID: uid,
                                                                                  category: "tax_plate"))
        #expect(none.errorCode == "required")
        #expect(try kyb.business(uid).documents.isEmpty)
    }

    @Test func theCategoryMustBeOneOfTheTenants() throws {
        let kyb = try KYBFixture()
        let uid = try kyb.createBusiness()
        let reply = kyb.call("kyb.UploadDocuments", UploadBusinessDocumentsRequest(
            businessUID: uid, category: "holiday_photos", documents: [SampleFile.upload(SampleFile.pdf)]))
        #expect(reply.errorCode == "unknown_category")
        #expect(reply.violations.map(\.field) == ["category"])
    }

    @Test func aFailureInTheMiddleOfAnUploadRollsTheWholeUploadBack() throws {
        struct Interrupted: Error {}
        let kyb = try KYBFixture(midUploadHook: { index in if index == 1 { throw Interrupted() } })
        let uid = try kyb.createBusiness()
        let reply = kyb.call("kyb.UploadDocuments", UploadBusinessDocumentsRequest(
            businessUID: uid, category: "tax_plate",
            documents: [SampleFile.upload(SampleFile.pdf), SampleFile.upload(SampleFile.png, "png"),
                        SampleFile.upload(SampleFile.jpeg, "jpeg")]))
        #expect(reply.status == .internalError)
        #expect(try kyb.business(uid).documents.isEmpty)
        #expect(try kyb.store.documents.blobCount(tenant: "acme") == 0)
        #expect(try kyb.store.database.queryOne("SELECT COUNT(*) AS n FROM document_uploads")?.int("n") == 0)
    }

    @Test func unknownDocumentsAreNotFound() throws {
        let kyb = try KYBFixture()
        let uid = try kyb.createBusiness()
        let reply = kyb.call("kyb.GetDocumentContent", GetBusinessDocumentContentRequest(businessUID: uid,
                                                                                          documentUID: "doc_x"))
        #expect(reply.status == .notFound)
        #expect(reply.errorCode == "document_not_found")
    }
}
