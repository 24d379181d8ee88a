import KYCCrypto
import KYCMessages
import Messaging
import Storage

/// The people who act for each business, unique per business by identity number.
public final class StaffRegistry: Sendable {
    private let database: Database

    init(database: Database) {
        self.database = database
    }

    /// Adds a staff member (fields already validated and normalised). The same identity number twice answers the
    /// existing member with `.alreadyExists`, unless it is a retry of the request that added it.
    public func add(_ member: KYBStaffMember, businessUID: String, caller: KYBCaller, now: Int64) throws
        -> AddBusinessStaffReply {
        try database.transaction { transaction in
            guard let businessID = try BusinessLookup.id(tenant: caller.tenant, uid: businessUID, in: transaction) else {
                throw BusinessRegistry.notFound
            }
            if let existing = try transaction.queryOne("""
                SELECT \(Self.columns), request_key FROM staff WHERE business_id = ? AND identity_no = ?
                """, [.integer(businessID), .text(member.identityNo)]) {
                let sameRequest = try existing.string("request_key") == caller.requestKey
                return AddBusinessStaffReply(staff: try Self.member(existing),
                                             outcome: sameRequest ? .created : .alreadyExists)
            }
            var stored = member
            stored.staffUID = SecureRandom.identifier(prefix: "stf_")
            stored.createdAtUnixMs = now
            try transaction.execute("""
                INSERT INTO staff(business_id, uid, session_uid, name, surname, identity_no, birth_date, phone,
                                  created_at_ms, created_by, request_key)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.integer(businessID), .text(stored.staffUID), .text(stored.sessionUID), .text(stored.name),
                      .text(stored.surname), .text(stored.identityNo), .text(stored.birthDate), .text(stored.phone),
                      .integer(now), .text(caller.principalID), .text(caller.requestKey)])
            return AddBusinessStaffReply(staff: stored, outcome: .created)
        }
    }

    /// Whether the business has a staff member with `identityNo`. Throws `not_found` for another tenant's id.
    public func exists(identityNo: String, businessUID: String, tenant: String) throws -> Bool {
        try database.transaction(.deferred) { transaction in
            guard let businessID = try BusinessLookup.id(tenant: tenant, uid: businessUID, in: transaction) else {
                throw BusinessRegistry.notFound
            }
            return try transaction.queryOne("SELECT 1 AS found FROM staff WHERE business_id = ? AND identity_no = ?",
                                            [.integer(businessID), .text(identityNo)]) != nil
        }
    }

    /// The business's staff in the order they were added. Throws `not_found` for another tenant's id.
    public func list(businessUID: String, tenant: String) throws -> [KYBStaffMember] {
        try database.transaction(.deferred) { transaction in
            guard let businessID = try BusinessLookup.id(tenant: tenant, uid: businessUID, in: transaction) else {
                throw BusinessRegistry.notFound
            }
            return try Self.staff(businessID: businessID, in: transaction)
        }
    }

    static let columns = "uid, session_uid, name, surname, identity_no, birth_date, phone, created_at_ms"

    static func staff(businessID: Int64, in transaction: Transaction) throws -> [KYBStaffMember] {
        try transaction.query("SELECT \(columns) FROM staff WHERE business_id = ? ORDER BY id", [.integer(businessID)])
            .map(member)
    }

    static func member(_ row: Row) throws -> KYBStaffMember {
        KYBStaffMember(staffUID: try row.string("uid"), sessionUID: try row.string("session_uid"),
                       name: try row.string("name"), surname: try row.string("surname"),
                       identityNo: try row.string("identity_no"), birthDate: try row.string("birth_date"),
                       phone: try row.string("phone"), createdAtUnixMs: try row.int("created_at_ms"))
    }
}
