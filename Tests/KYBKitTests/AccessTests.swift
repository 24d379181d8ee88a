import Foundation
@testable import KYBKit
import KYCMessages
import Messaging
import Testing

@Suite("KYB tenant isolation and mobile access")
struct AccessTests {
    @Test func anotherTenantSeesNoneOfABusiness() throws {
        let kyb = try KYBFixture()
        let uid = try kyb.createBusiness()
        let upload = try UploadBusinessDocumentsReply(serialized: kyb.call("kyb.UploadDocuments",
            UploadBusinessDocumentsRequest(businessUID: uid, category: "tax_plate",
                                           documents: [SampleFile.upload(SampleFile.pdf)])).payload)
        let documentUID = try #require(upload.documents.first?.documentUID)
        let requests: [(String, any WireMessage)] = [
            ("kyb.GetBusiness", GetBusinessRequest(businessUID: uid)),
            ("kyb.UpdateBusiness", UpdateBusinessRequest(businessUID: uid, isInProgress: false)),
            ("kyb.AddStaff", StaffTests.member(uid)),
            ("kyb.CheckStaff", CheckBusinessStaffRequest(businessUID: uid, identityNo: KYBFixture.tckn)),
            ("kyb.ListStaff", ListBusinessStaffRequest(businessUID: uid)),
            ("kyb.UploadDocuments", UploadBusinessDocumentsRequest(businessUID: uid, category: "tax_plate",
                                                                   documents: [SampleFile.upload(SampleFile.png, "png")])),
            ("kyb.ListDocuments", ListBusinessDocumentsRequest(businessUID: uid)),
            ("kyb.GetDocumentContent", GetBusinessDocumentContentRequest(businessUID: uid, documentUID: documentUID)),
        ]
        for (method, message) in requests {
            #expect(kyb.call(method, message, tenant: "globex").status == .notFound, "\(method)")
        }
        let check = kyb.call("kyb.CheckBusiness", CheckBusinessRequest(taxNumber: KYBFixture.vkn), tenant: "globex")
        #expect(try CheckBusinessReply(serialized: check.payload).exists == false)
        // Nothing changed for the owner.
        let business = try kyb.business(uid)
        #expect(business.isInProgress && business.staff.isEmpty && business.documents.count == 1)
    }

    @Test func aSessionBoundToABusinessWorksOnItAndNoOther() throws {
        let kyb = try KYBFixture()
        let mine = try kyb.createBusiness()
        let other = try kyb.createBusiness(taxNumber: KYBFixture.otherVKN)
        let session = KYBFixture.session(boundTo: mine)

        let added = kyb.call("kyb.AddStaff", StaffTests.member(mine), principal: session)
        #expect(added.status == .ok)
        // The session's own id is recorded, whatever the app sent.
        #expect(try AddBusinessStaffReply(serialized: added.payload).staff.sessionUID == "ses_mobile")
        #expect(kyb.call("kyb.GetBusiness", GetBusinessRequest(businessUID: mine), principal: session).status == .ok)
        #expect(kyb.call("kyb.UploadDocuments", UploadBusinessDocumentsRequest(
            businessUID: mine, category: "tax_plate", documents: [SampleFile.upload(SampleFile.pdf)]),
                         principal: session).status == .ok)
        #expect(kyb.call("kyb.ListDocumentCategories", ListKYBDocumentCategoriesRequest(), principal: session)
            .status == .ok)

        #expect(kyb.call("kyb.GetBusiness", GetBusinessRequest(businessUID: other), principal: session).status
            == .notFound)
        #expect(kyb.call("kyb.AddStaff", StaffTests.member(other), principal: session).status == .notFound)
        #expect(kyb.call("kyb.ListDocuments", ListBusinessDocumentsRequest(businessUID: other), principal: session)
            .status == .notFound)
        #expect(try kyb.business(other).staff.isEmpty)

        let unbound = KYBFixture.session(boundTo: "")
        #expect(kyb.call("kyb.GetBusiness", GetBusinessRequest(businessUID: mine), principal: unbound).status
            == .notFound)
    }

    @Test func sessionsCannotReadContentOrChangeTheBusiness() throws {
        let kyb = try KYBFixture()
        let uid = try kyb.createBusiness()
        let session = KYBFixture.session(boundTo: uid)
        let content = kyb.call("kyb.GetDocumentContent",
                               GetBusinessDocumentContentRequest(businessUID: uid, documentUID: "doc_x"),
                               principal: session)
        #expect(content.status == .permissionDenied)
        #expect(content.errorCode == "api_key_required")
        #expect(kyb.call("kyb.UpdateBusiness", UpdateBusinessRequest(businessUID: uid, isInProgress: false),
                         principal: session).status == .permissionDenied)
        #expect(kyb.call("kyb.CreateBusiness", CreateBusinessRequest(taxNumber: KYBFixture.otherVKN, name: "X",
                                                                     type: "limited"),
                         principal: session).status == .permissionDenied)
        let noScope = KYBFixture.session(boundTo: uid, scopes: ["appointments"])
        #expect(kyb.call("kyb.GetBusiness", GetBusinessRequest(businessUID: uid), principal: noScope).status
            == .permissionDenied)
        #expect(kyb.call("kyb.GetBusiness", GetBusinessRequest(businessUID: uid), principal: Principal()).status
            == .permissionDenied)
    }
}

@Suite("KYB document categories")
struct CategoryTests {
    static func list(_ kyb: KYBFixture, tenant: String = "acme") throws -> [KYBDocumentCategory] {
        try ListKYBDocumentCategoriesReply(serialized: kyb.call("kyb.ListDocumentCategories",
                                                                ListKYBDocumentCategoriesRequest(),
                                                                tenant: tenant).payload).categories
    }

    @Test func theTurkishKYBListIsSeededInOrder() throws {
        let categories = try Self.list(try KYBFixture())
        #expect(categories.prefix(6).map(\.category) == ["trade_registry_gazette", "tax_plate", "signature_circular",
                                                          "activity_certificate", "shareholder_structure",
                                                          "representative_id_copy"])
        #expect(categories.first { $0.category == "tax_plate" }
            == KYBDocumentCategory(category: "tax_plate", name: "Vergi Levhası", nameEn: "Tax plate", isRequired: true,
                                   sequence: 20, secondPhase: false))
        #expect(categories.contains { $0.secondPhase && $0.isRequired })
        #expect(categories.contains { !$0.isRequired })
        #expect(categories.map(\.sequence) == categories.map(\.sequence).sorted())
    }

    @Test func anAdminChangesItsOwnTenantsListOnly() throws {
        let kyb = try KYBFixture()
        let admin = KYBFixture.apiKey("key_admin", admin: true)
        let put = kyb.call("kyb.PutDocumentCategory", PutKYBDocumentCategoryRequest(category: KYBDocumentCategory(
            category: "kep_address", name: "KEP Adresi", nameEn: "Registered e-mail address", isRequired: true,
            sequence: 5, secondPhase: false)), principal: admin)
        #expect(put.status == .ok)
        #expect(try PutKYBDocumentCategoryReply(serialized: put.payload).created)
        let deleted = kyb.call("kyb.DeleteDocumentCategory", DeleteKYBDocumentCategoryRequest(category: "tax_plate"),
                               principal: admin)
        #expect(deleted.status == .ok)
        let replaced = kyb.call("kyb.PutDocumentCategory", PutKYBDocumentCategoryRequest(category: KYBDocumentCategory(
            category: "kep_address", name: "KEP", nameEn: "KEP", isRequired: false, sequence: 6)), principal: admin)
        #expect(try PutKYBDocumentCategoryReply(serialized: replaced.payload).created == false)

        let mine = try Self.list(kyb)
        #expect(mine.first?.category == "kep_address")
        #expect(mine.first?.isRequired == false)
        #expect(!mine.contains { $0.category == "tax_plate" })
        let theirs = try Self.list(kyb, tenant: "globex")
        #expect(theirs.contains { $0.category == "tax_plate" })
        #expect(!theirs.contains { $0.category == "kep_address" })

        // The business's missing list follows the tenant's list.
        let uid = try kyb.createBusiness()
        #expect(!(try kyb.business(uid).missingFirstPhase.contains("tax_plate")))
        #expect(kyb.call("kyb.DeleteDocumentCategory", DeleteKYBDocumentCategoryRequest(category: "tax_plate"),
                         principal: admin).status == .notFound)
    }

    @Test func onlyAdminKeysChangeTheList() throws {
        let kyb = try KYBFixture()
        let category = PutKYBDocumentCategoryRequest(category: KYBDocumentCategory(category: "x", name: "X", nameEn: "X"))
        #expect(kyb.call("kyb.PutDocumentCategory", category).status == .permissionDenied)
        #expect(kyb.call("kyb.DeleteDocumentCategory", DeleteKYBDocumentCategoryRequest(category: "tax_plate"))
            .status == .permissionDenied)
        #expect(try Self.list(kyb).contains { $0.category == "tax_plate" })
    }

    @Test func badCategoriesAreRefused() throws {
        let kyb = try KYBFixture()
        let admin = KYBFixture.apiKey("key_admin", admin: true)
        let reply = kyb.call("kyb.PutDocumentCategory", PutKYBDocumentCategoryRequest(category: KYBDocumentCategory(
            category: "Bad Code!", name: "", nameEn: "ok")), principal: admin)
        #expect(reply.status == .invalidArgument)
        #expect(Set(reply.violations.map(\.field)) == ["category", "name"])
    }
}
