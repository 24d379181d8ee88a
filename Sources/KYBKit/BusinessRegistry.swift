import KYCCrypto
import KYCMessages
import Messaging
import Storage

/// The businesses of every tenant, with their status history. A business is identified publicly by a random
/// `biz_…` id and is unique per tenant by tax number.
public final class BusinessRegistry: Sendable {
    private let database: Database

    init(database: Database) {
        self.database = database
    }

    /// Whether the tenant registered `taxNumber` (already validated), and under which id and type.
    public func check(tenant: String, taxNumber: String) throws -> CheckBusinessReply {
        guard let row = try database.queryOne("SELECT uid, type FROM businesses WHERE tenant = ? AND tax_number = ?",
                                              [.text(tenant), .text(taxNumber)]) else {
            return CheckBusinessReply(exists: false)
        }
        return CheckBusinessReply(exists: true, businessUID: try row.string("uid"), type: try row.string("type"))
    }

    /// Registers a business (fields already validated). A second registration of the same tax number answers the
    /// existing id with `.alreadyExists`, unless it is a retry of the request that created it.
    public func create(_ request: CreateBusinessRequest, type: BusinessType, caller: KYBCaller, now: Int64) throws
        -> CreateBusinessReply {
        try database.transaction { transaction in
            if let existing = try transaction.queryOne(
                "SELECT uid, request_key FROM businesses WHERE tenant = ? AND tax_number = ?",
                [.text(caller.tenant), .text(request.taxNumber)]) {
                let sameRequest = try existing.string("request_key") == caller.requestKey
                return CreateBusinessReply(businessUID: try existing.string("uid"),
                                           outcome: sameRequest ? .created : .alreadyExists)
            }
            let uid = SecureRandom.identifier(prefix: "biz_")
            let id = try transaction.insert("""
                INSERT INTO businesses(tenant, uid, tax_number, name, short_name, data_json, type, reference,
                                       is_in_progress, created_at_ms, updated_at_ms, created_by, request_key)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)
                """, [.text(caller.tenant), .text(uid), .text(request.taxNumber), .text(request.name),
                      .text(request.shortName), .text(request.dataJSON), .text(type.rawValue), .text(request.reference),
                      .integer(now), .integer(now), .text(caller.principalID), .text(caller.requestKey)])
            try Self.recordStatus(businessID: id, event: "created", changedFields: ["reference", "isInProgress", "type"],
                                  reference: request.reference, isInProgress: true, type: type.rawValue,
                                  caller: caller, now: now, in: transaction)
            return CreateBusinessReply(businessUID: uid, outcome: .created)
        }
    }

    /// Applies the given changes and records the resulting status in the history when anything changed (a retried
    /// or repeated PATCH with the same values adds nothing). Throws `not_found` for another tenant's id.
    public func update(uid: String, reference: String?, isInProgress: Bool?, type: BusinessType?, caller: KYBCaller,
                       now: Int64) throws {
        try database.transaction { transaction in
            guard let row = try transaction.queryOne("""
                SELECT id, reference, is_in_progress, type FROM businesses WHERE tenant = ? AND uid = ?
                """, [.text(caller.tenant), .text(uid)]) else { throw Self.notFound }
            let id = try row.int("id")
            var newReference = try row.string("reference")
            var newInProgress = try row.bool("is_in_progress")
            var newType = try row.string("type")
            var changed: [String] = []
            if let reference, reference != newReference { newReference = reference; changed.append("reference") }
            if let isInProgress, isInProgress != newInProgress { newInProgress = isInProgress; changed.append("isInProgress") }
            if let type, type.rawValue != newType { newType = type.rawValue; changed.append("type") }
            guard !changed.isEmpty else { return }
            try transaction.execute("""
                UPDATE businesses SET reference = ?, is_in_progress = ?, type = ?, updated_at_ms = ? WHERE id = ?
                """, [.text(newReference), .bool(newInProgress), .text(newType), .integer(now), .integer(id)])
            try Self.recordStatus(businessID: id, event: "updated", changedFields: changed, reference: newReference,
                                  isInProgress: newInProgress, type: newType, caller: caller, now: now,
                                  in: transaction)
        }
    }

    /// The tax number a business was registered with (needed to check a type change against it).
    func taxNumber(uid: String, tenant: String) throws -> String? {
        try database.queryOne("SELECT tax_number FROM businesses WHERE tenant = ? AND uid = ?",
                              [.text(tenant), .text(uid)])?.string("tax_number")
    }

    /// The business with its staff, documents, status history and the required categories still missing, read in
    /// one transaction so the parts agree with each other. Nil when the tenant has no such business.
    public func business(uid: String, tenant: String) throws -> KYBBusiness? {
        try database.transaction(.deferred) { transaction -> KYBBusiness? in
            guard let row = try transaction.queryOne("""
                SELECT id, uid, tax_number, name, short_name, data_json, type, reference, is_in_progress,
                       created_at_ms, updated_at_ms
                FROM businesses WHERE tenant = ? AND uid = ?
                """, [.text(tenant), .text(uid)]) else { return nil }
            let id = try row.int("id")
            let history = try transaction.query("""
                SELECT changed_at_ms, event, changed_fields, reference, is_in_progress, type, changed_by, request_id
                FROM business_status_history WHERE business_id = ? ORDER BY id
                """, [.integer(id)]).map { entry in
                KYBStatusChange(changedAtUnixMs: try entry.int("changed_at_ms"), event: try entry.string("event"),
                                changedFields: try entry.string("changed_fields").split(separator: ",").map(String.init),
                                reference: try entry.string("reference"), isInProgress: try entry.bool("is_in_progress"),
                                type: try entry.string("type"), changedBy: try entry.string("changed_by"),
                                requestID: try entry.string("request_id"))
            }
            let documents = try DocumentVault.documents(businessID: id, in: transaction)
            let categories = try DocumentCategoryCatalog.categories(tenant: tenant, in: transaction)
            let covered = Set(documents.map(\.category))
            let missing = categories.filter { $0.isRequired && !covered.contains($0.category) }
            return KYBBusiness(
                businessUID: try row.string("uid"), taxNumber: try row.string("tax_number"), name: try row.string("name"),
                shortName: try row.string("short_name"), dataJSON: try row.string("data_json"),
                type: try row.string("type"), reference: try row.string("reference"),
                isInProgress: try row.bool("is_in_progress"), createdAtUnixMs: try row.int("created_at_ms"),
                updatedAtUnixMs: try row.int("updated_at_ms"),
                staff: try StaffRegistry.staff(businessID: id, in: transaction), documents: documents,
                statusHistory: history, missingFirstPhase: missing.filter { !$0.secondPhase }.map(\.category),
                missingSecondPhase: missing.filter(\.secondPhase).map(\.category))
        }
    }

    static let notFound = ServiceError(status: .notFound, code: "business_not_found",
                                       message: "no business with this id")

    private static func recordStatus(businessID: Int64, event: String, changedFields: [String], reference: String,
                                     isInProgress: Bool, type: String, caller: KYBCaller, now: Int64,
                                     in transaction: Transaction) throws {
        try transaction.execute("""
            INSERT INTO business_status_history(business_id, changed_at_ms, event, changed_fields, reference,
                                                is_in_progress, type, changed_by, request_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.integer(businessID), .integer(now), .text(event), .text(changedFields.joined(separator: ",")),
                  .text(reference), .bool(isInProgress), .text(type), .text(caller.principalID),
                  .text(caller.requestID)])
    }
}
