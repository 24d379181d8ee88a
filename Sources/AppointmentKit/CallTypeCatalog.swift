import Foundation
import KYCMessages
import Storage

/// The call types a tenant offers (KYC ones for individuals, KYB ones for companies), in display order. A tenant
/// that has configured none sees the platform's defaults, seeded by the first migration.
public final class CallTypeCatalog: Sendable {
    public enum Handler: String, Sendable, CaseIterable {
        case kyc = "KYC"
        case kyb = "KYB"
    }

    /// The tenant id under which the platform defaults are stored.
    static let defaultsTenant = ""

    private let database: Database

    public init(database: Database) throws {
        self.database = database
        _ = try database.migrate(AppointmentSchema.migrations)
    }

    /// The tenant's call types for `handler`, in display order.
    public func callTypes(tenant: String, handler: Handler) throws -> [CallType] {
        let owner = try Self.owner(tenant: tenant, in: database)
        return try database.query("""
            SELECT code, name, handler FROM call_types
            WHERE tenant = ? AND handler = ? AND active = 1 ORDER BY position, code
            """, [.text(owner), .text(handler.rawValue)]).map { row in
            CallType(code: try row.string("code"), name: try row.string("name"), handler: try row.string("handler"))
        }
    }
}
