import Foundation
import KYCCore
import KYCMessages
import Messaging
import Validation

/// KYBService's operations, as functions from a request envelope to a reply payload, registered on a
/// `ServiceRouter`. They decode the request, check who may call (`KYBAccess`), check the input rules (`KYBRules`,
/// `DocumentInspector`) and hand the clean values to the stores, which scope everything by the envelope's tenant.
public struct KYBHandlers: Sendable {
    public static let service = "kyb"

    let store: KYBStore
    let inspector: DocumentInspector
    let now: @Sendable () -> Int64

    /// `now` is the wall clock in Unix milliseconds (tests pass a fixed one).
    public init(store: KYBStore, limits: KYBLimits = KYBLimits(),
                now: @escaping @Sendable () -> Int64 = { WallClock.nowMilliseconds() }) {
        self.store = store
        self.inspector = DocumentInspector(limits: limits)
        self.now = now
    }

    /// A router serving every KYB operation.
    public func router(version: String, logger: Logger) -> ServiceRouter {
        var router = ServiceRouter(service: Self.service, version: version, logger: logger)
        router.register("kyb.CheckBusiness", checkBusiness)
        router.register("kyb.CreateBusiness", createBusiness)
        router.register("kyb.UpdateBusiness", updateBusiness)
        router.register("kyb.GetBusiness", getBusiness)
        router.register("kyb.AddStaff", addStaff)
        router.register("kyb.CheckStaff", checkStaff)
        router.register("kyb.ListStaff", listStaff)
        router.register("kyb.UploadDocuments", uploadDocuments)
        router.register("kyb.ListDocuments", listDocuments)
        router.register("kyb.GetDocumentContent", getDocumentContent)
        router.register("kyb.ListDocumentCategories", listDocumentCategories)
        router.register("kyb.PutDocumentCategory", putDocumentCategory)
        router.register("kyb.DeleteDocumentCategory", deleteDocumentCategory)
        return router
    }

    // MARK: - Businesses

    /// `kyb.CheckBusiness`: API key only.
    public func checkBusiness(_ envelope: RequestEnvelope) throws -> [UInt8] {
        try KYBAccess.apiKey.authorize(envelope.principal)
        let request = try decode(CheckBusinessRequest.self, envelope)
        let taxNumber = request.taxNumber.trimmingCharacters(in: .whitespaces)
        var violations = ViolationList()
        violations.add(KYBRules.taxNumberViolation(taxNumber, type: nil))
        try violations.throwIfAny()
        return try store.businesses.check(tenant: envelope.tenant, taxNumber: taxNumber).serialized()
    }

    /// `kyb.CreateBusiness`: API key only.
    public func createBusiness(_ envelope: RequestEnvelope) throws -> [UInt8] {
        try KYBAccess.apiKey.authorize(envelope.principal)
        var request = try decode(CreateBusinessRequest.self, envelope)
        request.taxNumber = request.taxNumber.trimmingCharacters(in: .whitespaces)
        request.name = request.name.trimmingCharacters(in: .whitespaces)
        request.shortName = request.shortName.trimmingCharacters(in: .whitespaces)
        var violations = ViolationList()
        let type = BusinessType(wireName: request.type)
        if request.type.isEmpty {
            violations.add(FieldViolation(field: "type", code: "required", message: "type is required"))
        } else if type == nil {
            violations.add(Self.invalidTypeViolation)
        }
        violations.add(KYBRules.taxNumberViolation(request.taxNumber, type: type))
        violations.add(KYBRules.textViolation(request.name, field: "name", maxLength: 300, required: true))
        violations.add(KYBRules.textViolation(request.shortName, field: "shortName", maxLength: 100, required: false))
        violations.add(KYBRules.textViolation(request.reference, field: "reference", maxLength: 200, required: false))
        if request.dataJSON.utf8.count > 64 * 1024 {
            violations.add(FieldViolation(field: "data", code: "too_large", message: "data must be at most 64 KiB of JSON"))
        }
        try violations.throwIfAny()
        return try store.businesses.create(request, type: type!, caller: KYBCaller(envelope), now: now()).serialized()
    }

    /// `kyb.UpdateBusiness`: API key only; answers the business as it is after the change.
    public func updateBusiness(_ envelope: RequestEnvelope) throws -> [UInt8] {
        try KYBAccess.apiKey.authorize(envelope.principal)
        let request = try decode(UpdateBusinessRequest.self, envelope)
        var violations = ViolationList()
        var type: BusinessType?
        if let typeName = request.type {
            type = BusinessType(wireName: typeName)
            if type == nil { violations.add(Self.invalidTypeViolation) }
        }
        if let reference = request.reference {
            violations.add(KYBRules.textViolation(reference, field: "reference", maxLength: 200, required: false))
        }
        try violations.throwIfAny()
        if let type, !type.acceptsIdentityNumberAsTaxNumber,
           let taxNumber = try store.businesses.taxNumber(uid: request.businessUID, tenant: envelope.tenant),
           !TurkishTaxNumber.isValid(taxNumber) {
            throw ServiceError.invalidArgument(field: "type", code: "type_conflicts_with_tax_number",
                                               message: "a business registered with a T.C. identity number can only "
                                                   + "be a sole_proprietorship")
        }
        try store.businesses.update(uid: request.businessUID, reference: request.reference,
                                    isInProgress: request.isInProgress, type: type, caller: KYBCaller(envelope),
                                    now: now())
        return try businessReply(uid: request.businessUID, tenant: envelope.tenant)
    }

    /// `kyb.GetBusiness`: API key, or a session bound to the business.
    public func getBusiness(_ envelope: RequestEnvelope) throws -> [UInt8] {
        let request = try decode(GetBusinessRequest.self, envelope)
        try KYBAccess.apiKeyOrBoundSession(businessUID: request.businessUID).authorize(envelope.principal)
        return try businessReply(uid: request.businessUID, tenant: envelope.tenant)
    }

    private func businessReply(uid: String, tenant: String) throws -> [UInt8] {
        guard let business = try store.businesses.business(uid: uid, tenant: tenant) else {
            throw BusinessRegistry.notFound
        }
        return BusinessReply(business: business).serialized()
    }

    private static let invalidTypeViolation = FieldViolation(
        field: "type", code: "invalid_business_type",
        message: "type must be one of \(BusinessType.allCases.map(\.rawValue).joined(separator: ", "))")

    // MARK: - Staff

    /// `kyb.AddStaff`: API key, or a session bound to the business (whose own session id is then recorded).
    public func addStaff(_ envelope: RequestEnvelope) throws -> [UInt8] {
        let request = try decode(AddBusinessStaffRequest.self, envelope)
        try KYBAccess.apiKeyOrBoundSession(businessUID: request.businessUID).authorize(envelope.principal)
        var member = KYBStaffMember(
            sessionUID: envelope.principal.kind == .session ? envelope.principal.id
                : request.sessionUID.trimmingCharacters(in: .whitespaces),
            name: request.name.trimmingCharacters(in: .whitespaces),
            surname: request.surname.trimmingCharacters(in: .whitespaces),
            identityNo: request.identityNo.trimmingCharacters(in: .whitespaces),
            birthDate: request.birthDate.trimmingCharacters(in: .whitespaces))
        var violations = ViolationList()
        violations.add(KYBRules.textViolation(member.sessionUID, field: "sessionUId", maxLength: 64, required: false))
        violations.add(KYBRules.textViolation(member.name, field: "name", maxLength: 100, required: true))
        violations.add(KYBRules.textViolation(member.surname, field: "surname", maxLength: 100, required: true))
        violations.add(Self.identityNumberViolation(member.identityNo))
        violations.add(KYBRules.birthDateViolation(member.birthDate,
                                                   today: KYBRules.CalendarDate.today(unixMilliseconds: now())))
        if request.phone.trimmingCharacters(in: .whitespaces).isEmpty {
            violations.add(FieldViolation(field: "phone", code: "required", message: "phone is required"))
        } else {
            do {
                member.phone = try PhoneNumber.normalizeE164(request.phone, defaultRegion: "TR", field: "phone")
            } catch {
                violations.add(FieldViolation(field: error.field, code: error.code, message: error.message))
            }
        }
        try violations.throwIfAny()
        return try store.staff.add(member, businessUID: request.businessUID, caller: KYBCaller(envelope), now: now())
            .serialized()
    }

    /// `kyb.CheckStaff`: API key, or a session bound to the business.
    public func checkStaff(_ envelope: RequestEnvelope) throws -> [UInt8] {
        let request = try decode(CheckBusinessStaffRequest.self, envelope)
        try KYBAccess.apiKeyOrBoundSession(businessUID: request.businessUID).authorize(envelope.principal)
        let identityNo = request.identityNo.trimmingCharacters(in: .whitespaces)
        var violations = ViolationList()
        violations.add(Self.identityNumberViolation(identityNo))
        try violations.throwIfAny()
        let exists = try store.staff.exists(identityNo: identityNo, businessUID: request.businessUID,
                                            tenant: envelope.tenant)
        return CheckBusinessStaffReply(exists: exists).serialized()
    }

    /// `kyb.ListStaff`: API key, or a session bound to the business.
    public func listStaff(_ envelope: RequestEnvelope) throws -> [UInt8] {
        let request = try decode(ListBusinessStaffRequest.self, envelope)
        try KYBAccess.apiKeyOrBoundSession(businessUID: request.businessUID).authorize(envelope.principal)
        return ListBusinessStaffReply(staff: try store.staff.list(businessUID: request.businessUID,
                                                                  tenant: envelope.tenant)).serialized()
    }

    private static func identityNumberViolation(_ identityNo: String) -> FieldViolation? {
        if identityNo.isEmpty {
            return FieldViolation(field: "identityNo", code: "required", message: "identityNo is required")
        }
        guard TurkishIdentityNumber.isValid(identityNo) else {
            return FieldViolation(field: "identityNo", code: "invalid_identity_number",
                                  message: "identityNo is not a valid T.C. identity number")
        }
        return nil
    }

    // MARK: - Documents

    /// `kyb.UploadDocuments`: API key, or a session bound to the business. All documents or none are stored.
    public func uploadDocuments(_ envelope: RequestEnvelope) throws -> [UInt8] {
        let request = try decode(UploadBusinessDocumentsRequest.self, envelope)
        try KYBAccess.apiKeyOrBoundSession(businessUID: request.businessUID).authorize(envelope.principal)
        let category = request.category.trimmingCharacters(in: .whitespaces)
        var violations = ViolationList()
        if category.isEmpty {
            violations.add(FieldViolation(field: "category", code: "required", message: "category is required"))
        }
        violations.add(KYBRules.textViolation(request.reference, field: "reference", maxLength: 200, required: false))
        try violations.throwIfAny()
        let inspected = try inspector.inspect(request.documents)
        return try store.documents.upload(inspected, businessUID: request.businessUID, category: category,
                                          reference: request.reference, caller: KYBCaller(envelope), now: now())
            .serialized()
    }

    /// `kyb.ListDocuments`: API key, or a session bound to the business; metadata only.
    public func listDocuments(_ envelope: RequestEnvelope) throws -> [UInt8] {
        let request = try decode(ListBusinessDocumentsRequest.self, envelope)
        try KYBAccess.apiKeyOrBoundSession(businessUID: request.businessUID).authorize(envelope.principal)
        return ListBusinessDocumentsReply(documents: try store.documents.list(businessUID: request.businessUID,
                                                                              tenant: envelope.tenant)).serialized()
    }

    /// `kyb.GetDocumentContent`: API key only — documents go to the customer's reviewers, never back to an app.
    public func getDocumentContent(_ envelope: RequestEnvelope) throws -> [UInt8] {
        try KYBAccess.apiKey.authorize(envelope.principal)
        let request = try decode(GetBusinessDocumentContentRequest.self, envelope)
        return try store.documents.content(documentUID: request.documentUID, businessUID: request.businessUID,
                                           tenant: envelope.tenant).serialized()
    }

    // MARK: - Document categories

    /// `kyb.ListDocumentCategories`: API key or any KYB session.
    public func listDocumentCategories(_ envelope: RequestEnvelope) throws -> [UInt8] {
        try KYBAccess.apiKeyOrSession.authorize(envelope.principal)
        _ = try decode(ListKYBDocumentCategoriesRequest.self, envelope)
        return ListKYBDocumentCategoriesReply(categories: try store.categories.categories(tenant: envelope.tenant))
            .serialized()
    }

    /// `kyb.PutDocumentCategory`: admin API key.
    public func putDocumentCategory(_ envelope: RequestEnvelope) throws -> [UInt8] {
        try KYBAccess.admin.authorize(envelope.principal)
        var category = try decode(PutKYBDocumentCategoryRequest.self, envelope).category
        category.name = category.name.trimmingCharacters(in: .whitespaces)
        category.nameEn = category.nameEn.trimmingCharacters(in: .whitespaces)
        let created = try store.categories.put(category, tenant: envelope.tenant)
        return PutKYBDocumentCategoryReply(category: category, created: created).serialized()
    }

    /// `kyb.DeleteDocumentCategory`: admin API key.
    public func deleteDocumentCategory(_ envelope: RequestEnvelope) throws -> [UInt8] {
        try KYBAccess.admin.authorize(envelope.principal)
        let request = try decode(DeleteKYBDocumentCategoryRequest.self, envelope)
        try store.categories.delete(category: request.category, tenant: envelope.tenant)
        return DeleteKYBDocumentCategoryReply(category: request.category).serialized()
    }

    // MARK: - Decoding

    private func decode<Message: WireMessage>(_ type: Message.Type, _ envelope: RequestEnvelope) throws -> Message {
        do {
            return try Message(serialized: envelope.payload)
        } catch {
            throw ServiceError.invalidArgument(field: "payload", code: "malformed_payload",
                                               message: "the \(envelope.method) payload is malformed")
        }
    }
}
