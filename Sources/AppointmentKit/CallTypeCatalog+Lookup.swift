import KYCMessages
import Storage

extension CallTypeCatalog {
    /// The tenant whose call-type rows apply: the tenant itself once it has configured any, else the defaults.
    static func owner(tenant: String, in runner: some StatementRunner) throws -> String {
        // EXISTS stops at the first row; this runs on every call-type and booking request.
        let own = try runner.queryOne("SELECT EXISTS(SELECT 1 FROM call_types WHERE tenant = ?) AS own", [.text(tenant)])
        return try (own?.int("own") ?? 0) != 0 ? tenant : defaultsTenant
    }

    /// The tenant's active call types of both handlers (KYC first), in display order, and whether they are its own.
    static func activeCallTypes(tenant: String, in runner: some StatementRunner) throws
        -> (callTypes: [CallType], customized: Bool) {
        let owner = try owner(tenant: tenant, in: runner)
        let rows = try runner.query("""
            SELECT code, name, handler FROM call_types WHERE tenant = ? AND active = 1
            ORDER BY handler DESC, position, code
            """, [.text(owner)])
        let types = try rows.map { row in
            CallType(code: try row.string("code"), name: try row.string("name"), handler: try row.string("handler"))
        }
        return (types, owner == tenant && !tenant.isEmpty)
    }

    /// The active call type `code` of the tenant, or nil.
    static func activeCallType(_ code: String, tenant: String, in runner: some StatementRunner) throws -> CallType? {
        try activeCallTypes(tenant: tenant, in: runner).callTypes.first { $0.code == code }
    }

    /// Display names of every call type the tenant has ever had (removed ones too, so old appointments keep
    /// their name), the tenant's own names winning over the defaults.
    static func names(tenant: String, in runner: some StatementRunner) throws -> [String: String] {
        var names: [String: String] = [:]
        for row in try runner.query("SELECT tenant, code, name FROM call_types WHERE tenant IN ('', ?) ORDER BY tenant",
                                    [.text(tenant)]) {
            names[try row.string("code")] = try row.string("name")
        }
        return names
    }
}
