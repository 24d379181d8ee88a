import Foundation
@testable import KYBKit
import KYCMessages
import Messaging
import Testing
import TestSupport

@Suite("KYB businesses")
struct BusinessTests {
    @Test func createThenCheckFindsTheBusinessWithItsType() throws {
        let kyb = try KYBFixture()
        let uid = try kyb.createBusiness()
        #expect(uid.hasPrefix("biz_") && uid.count == 28)
        let check = kyb.call("kyb.CheckBusiness", CheckBusinessRequest(taxNumber: KYBFixture.vkn))
        #expect(check.status == .ok)
        #expect(try CheckBusinessReply(serialized: check.payload)
            == CheckBusinessReply(exists: true, businessUID: uid, type: "limited"))
        let unknown = kyb.call("kyb.CheckBusiness", CheckBusinessRequest(taxNumber: KYBFixture.otherVKN))
        #expect(try CheckBusinessReply(serialized: unknown.payload) == CheckBusinessReply(exists: false))
    }

    @Test func theSameTaxNumberTwiceAnswersTheExistingId() throws {
        let kyb = try KYBFixture()
        let uid = try kyb.createBusiness()
        let again = kyb.call("kyb.CreateBusiness", CreateBusinessRequest(taxNumber: KYBFixture.vkn, name: "Other",
                                                                         type: "anonymous"))
        #expect(again.status == .ok)
        #expect(try CreateBusinessReply(serialized: again.payload)
            == CreateBusinessReply(businessUID: uid, outcome: .alreadyExists))
        // Another tenant may register the same company on its own.
        let other = try kyb.createBusiness(tenant: "globex")
        #expect(other != uid)
    }

    @Test func aRetriedCreateRequestAnswersCreatedWithTheSameId() throws {
        let kyb = try KYBFixture()
        let request = CreateBusinessRequest(taxNumber: KYBFixture.vkn, name: "Acme", type: "limited")
        let first = kyb.call("kyb.CreateBusiness", request, requestID: "req-create-1")
        let retry = kyb.call("kyb.CreateBusiness", request, requestID: "req-create-1")
        let firstReply = try CreateBusinessReply(serialized: first.payload)
        #expect(firstReply.outcome == .created)
        #expect(try CreateBusinessReply(serialized: retry.payload) == firstReply)
        // A client reusing its request id for a different body does not get the first answer by mistake.
        let reused = kyb.call("kyb.CreateBusiness",
                              CreateBusinessRequest(taxNumber: KYBFixture.vkn, name: "Acme 2", type: "limited"),
                              requestID: "req-create-1")
        #expect(try CreateBusinessReply(serialized: reused.payload).outcome == .alreadyExists)
    }

    @Test(arguments: [
        ("1234567891", "limited", "invalid_tax_number"),            // wrong VKN check digit
        ("123456789", "limited", "invalid_tax_number"),             // too short
        ("12345678a0", "limited", "invalid_tax_number"),            // not digits
        (KYBFixture.tckn, "limited", "invalid_tax_number"),         // TCKN only for sole proprietorships
        (KYBFixture.tckn, "anonymous", "invalid_tax_number"),
        ("10000000145", "sole_proprietorship", "invalid_tax_number"), // wrong TCKN check digits
        ("", "limited", "required"),
    ])
    func badTaxNumbersAreRefused(taxNumber: String, type: String, code: String) throws {
        let kyb = try KYBFixture()
        let reply = kyb.call("kyb.CreateBusiness", CreateBusinessRequest(taxNumber: taxNumber, name: "X", type: type))
        #expect(reply.status == .invalidArgument)
        #expect(reply.errorCode == code)
        #expect(reply.violations.map(\.field) == ["taxNumber"])
    }

    @Test func soleProprietorshipsMayUseAnIdentityNumberOrAVKN() throws {
        let kyb = try KYBFixture()
        #expect(try kyb.createBusiness(taxNumber: KYBFixture.tckn, type: "sole_proprietorship").hasPrefix("biz_"))
        #expect(try kyb.createBusiness(taxNumber: KYBFixture.otherVKN, type: "sole_proprietorship").hasPrefix("biz_"))
    }

    @Test func everyBadFieldIsReportedAtOnce() throws {
        let kyb = try KYBFixture()
        let reply = kyb.call("kyb.CreateBusiness", CreateBusinessRequest(taxNumber: "1", name: "", type: "gmbh"))
        #expect(reply.status == .invalidArgument)
        #expect(reply.errorCode == "validation_failed")
        #expect(Set(reply.violations.map(\.field)) == ["type", "taxNumber", "name"])
        #expect(reply.violations.first { $0.field == "type" }?.code == "invalid_business_type")
    }

    @Test func updatesAreKeptInTheStatusHistory() throws {
        let kyb = try KYBFixture()
        let uid = try kyb.createBusiness()
        let update = kyb.call("kyb.UpdateBusiness", UpdateBusinessRequest(businessUID: uid, reference: "crm-2",
                                                                          isInProgress: false),
                              principal: KYBFixture.apiKey("key_reviewer"), requestID: "req-patch-1")
        #expect(update.status == .ok)
        let business = try BusinessReply(serialized: update.payload).business
        #expect(business.reference == "crm-2")
        #expect(business.isInProgress == false)
        #expect(business.statusHistory.map(\.event) == ["created", "updated"])
        let change = try #require(business.statusHistory.last)
        #expect(change.changedFields == ["reference", "isInProgress"])
        #expect(change.changedBy == "key_reviewer")
        #expect(change.requestID == "req-patch-1")
        #expect(change.type == "limited" && change.reference == "crm-2" && !change.isInProgress)
        #expect(business.statusHistory.first?.isInProgress == true)

        // The same values again change nothing and add no entry; a type change adds one.
        _ = kyb.call("kyb.UpdateBusiness", UpdateBusinessRequest(businessUID: uid, reference: "crm-2"))
        let typed = kyb.call("kyb.UpdateBusiness", UpdateBusinessRequest(businessUID: uid, type: "anonymous"))
        let history = try BusinessReply(serialized: typed.payload).business.statusHistory
        #expect(history.count == 3)
        #expect(history.last?.changedFields == ["type"])
        #expect(history.last?.type == "anonymous")
    }

    @Test func aBusinessRegisteredWithAnIdentityNumberStaysASoleProprietorship() throws {
        let kyb = try KYBFixture()
        let uid = try kyb.createBusiness(taxNumber: KYBFixture.tckn, type: "sole_proprietorship")
        let reply = kyb.call("kyb.UpdateBusiness", UpdateBusinessRequest(businessUID: uid, type: "limited"))
        #expect(reply.status == .invalidArgument)
        #expect(reply.errorCode == "type_conflicts_with_tax_number")
        let bad = kyb.call("kyb.UpdateBusiness", UpdateBusinessRequest(businessUID: uid, type: "cooperative"))
        #expect(bad.errorCode == "invalid_business_type")
    }

    @Test func unknownBusinessesAreNotFound() throws {
        let kyb = try KYBFixture()
        #expect(kyb.call("kyb.GetBusiness", GetBusinessRequest(businessUID: "biz_nope")).status == .notFound)
        #expect(kyb.call("kyb.UpdateBusiness", UpdateBusinessRequest(businessUID: "biz_nope", reference: "x"))
            .status == .notFound)
    }

    @Test func theBusinessListsWhatIsStillMissingByPhase() throws {
        let kyb = try KYBFixture()
        let uid = try kyb.createBusiness()
        var business = try kyb.business(uid)
        #expect(business.missingFirstPhase == ["trade_registry_gazette", "tax_plate", "signature_circular",
                                               "activity_certificate", "shareholder_structure",
                                               "representative_id_copy"])
        #expect(business.missingSecondPhase == ["beneficial_owner_declaration", "address_proof"])
        let upload = kyb.call("kyb.UploadDocuments", UploadBusinessDocumentsRequest(
            businessUID: uid, category: "tax_plate", documents: [SampleFile.upload(SampleFile.pdf)]))
        #expect(upload.status == .ok)
        _ = kyb.call("kyb.UploadDocuments", UploadBusinessDocumentsRequest(
            businessUID: uid, category: "address_proof", documents: [SampleFile.upload(SampleFile.png, "png")]))
        business = try kyb.business(uid)
        #expect(!business.missingFirstPhase.contains("tax_plate"))
        #expect(business.missingFirstPhase.count == 5)
        #expect(business.missingSecondPhase == ["beneficial_owner_declaration"])
        #expect(business.documents.map(\.category) == ["tax_plate", "address_proof"])
        #expect(business.dataJSON == #"{"sector":"retail"}"#)
    }

    @Test func recordsSurviveReopeningTheDatabase() throws {
        let directory = try TemporaryDirectory("kyb-reopen")
        var uid = ""
        do {
            let kyb = try KYBFixture(directory: directory)
            uid = try kyb.createBusiness()
            _ = kyb.call("kyb.UploadDocuments", UploadBusinessDocumentsRequest(
                businessUID: uid, category: "tax_plate", documents: [SampleFile.upload(SampleFile.pdf)]))
            kyb.store.database.close()
        }
        let reopened = try KYBFixture(directory: directory)
        let business = try reopened.business(uid)
        #expect(business.taxNumber == KYBFixture.vkn)
        #expect(business.documents.count == 1)
    }

    @Test func malformedPayloadsAreInvalidArguments() throws {
        let kyb = try KYBFixture()
        let reply = kyb.router.handle(RequestEnvelope(requestID: "r", tenant: "acme", principal: KYBFixture.apiKey(),
                                                      method: "kyb.CreateBusiness", payload: [0xFF, 0xFF, 0xFF]),
                                      now: KYBFixture.now)
        #expect(reply.status == .invalidArgument)
        #expect(reply.errorCode == "malformed_payload")
    }
}
