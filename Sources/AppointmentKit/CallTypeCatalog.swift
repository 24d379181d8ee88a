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
        let own = try database.queryOne("SELECT COUNT(*) AS n FROM call_types WHERE tenant = ?", [.text(tenant)])
        let owner = try (own?.int("n") ?? 0) > 0 ? tenant : Self.defaultsTenant
        return try database.query("""
            SELECT code, name, handler FROM call_types
            WHERE tenant = ? AND handler = ? AND active = 1 ORDER BY position, code
            """, [.text(owner), .text(handler.rawValue)]).map { row in
            CallType(code: try row.string("code"), name: try row.string("name"), handler: try row.string("handler"))
        }
    }
}

/// AppointmentService's database schema, one migration per version.
enum AppointmentSchema {
    static let migrations: [Migration] = [
        Migration(version: 1, name: "call types with platform defaults", sql: """
            CREATE TABLE call_types (
                tenant TEXT NOT NULL,
                code TEXT NOT NULL,
                name TEXT NOT NULL,
                handler TEXT NOT NULL CHECK (handler IN ('KYC', 'KYB')),
                position INTEGER NOT NULL,
                active INTEGER NOT NULL DEFAULT 1,
                PRIMARY KEY (tenant, code)
            );
            INSERT INTO call_types(tenant, code, name, handler, position) VALUES
                ('', 'onboarding', 'Remote onboarding video call', 'KYC', 1),
                ('', 'reverification', 'Identity re-verification', 'KYC', 2),
                ('', 'limit_increase', 'Limit increase verification', 'KYC', 3),
                ('', 'corporate_onboarding', 'Corporate onboarding video call', 'KYB', 1),
                ('', 'representative', 'Authorised representative verification', 'KYB', 2);
            """),
    ]
}
