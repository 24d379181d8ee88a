import KYCMessages
import Messaging
import Storage

/// The document categories a tenant asks businesses for. A tenant that never changed its list sees the platform's
/// defaults (the Turkish KYB list seeded by the first migration); its first change copies the defaults into its own
/// list, which from then on is entirely its own — even when it deletes every category.
public final class DocumentCategoryCatalog: Sendable {
    private let database: Database

    init(database: Database) {
        self.database = database
    }

    /// The tenant's categories by sequence, then code.
    public func categories(tenant: String) throws -> [KYBDocumentCategory] {
        try database.transaction(.deferred) { transaction in try Self.categories(tenant: tenant, in: transaction) }
    }

    static func categories(tenant: String, in transaction: Transaction) throws -> [KYBDocumentCategory] {
        let owner = try ownsList(tenant, in: transaction) ? tenant : KYBSchema.defaultsTenant
        return try transaction.query("""
            SELECT category, name, name_en, is_required, sequence, second_phase FROM document_categories
            WHERE tenant = ? ORDER BY sequence, category
            """, [.text(owner)]).map { row in
            KYBDocumentCategory(category: try row.string("category"), name: try row.string("name"),
                                nameEn: try row.string("name_en"), isRequired: try row.bool("is_required"),
                                sequence: Int32(clamping: try row.int("sequence")),
                                secondPhase: try row.bool("second_phase"))
        }
    }

    /// Creates or replaces one category; returns true when it was created.
    public func put(_ category: KYBDocumentCategory, tenant: String) throws -> Bool {
        try Self.validate(category)
        return try database.transaction { transaction in
            try Self.takeOwnership(tenant, in: transaction)
            let existed = try transaction.queryOne(
                "SELECT 1 AS found FROM document_categories WHERE tenant = ? AND category = ?",
                [.text(tenant), .text(category.category)]) != nil
            try transaction.execute("""
                INSERT INTO document_categories(tenant, category, name, name_en, is_required, sequence, second_phase)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(tenant, category) DO UPDATE SET name = excluded.name, name_en = excluded.name_en,
                    is_required = excluded.is_required, sequence = excluded.sequence,
                    second_phase = excluded.second_phase
                """, [.text(tenant), .text(category.category), .text(category.name), .text(category.nameEn),
                      .bool(category.isRequired), .integer(Int64(category.sequence)), .bool(category.secondPhase)])
            return !existed
        }
    }

    /// Deletes one category; throws `not_found` when the tenant's list has no such category. Documents already
    /// uploaded under it keep their category.
    public func delete(category: String, tenant: String) throws {
        try database.transaction { transaction in
            try Self.takeOwnership(tenant, in: transaction)
            let deleted = try transaction.execute("DELETE FROM document_categories WHERE tenant = ? AND category = ?",
                                                  [.text(tenant), .text(category)])
            guard deleted == 1 else {
                throw ServiceError(status: .notFound, code: "category_not_found",
                                   message: "the tenant has no document category '\(category)'")
            }
        }
    }

    /// Copies the defaults into the tenant's own list the first time it changes anything.
    private static func takeOwnership(_ tenant: String, in transaction: Transaction) throws {
        guard try !ownsList(tenant, in: transaction) else { return }
        try transaction.execute("INSERT INTO tenant_category_lists(tenant) VALUES (?)", [.text(tenant)])
        try transaction.execute("""
            INSERT INTO document_categories(tenant, category, name, name_en, is_required, sequence, second_phase)
            SELECT ?, category, name, name_en, is_required, sequence, second_phase FROM document_categories
            WHERE tenant = ?
            """, [.text(tenant), .text(KYBSchema.defaultsTenant)])
    }

    private static func ownsList(_ tenant: String, in transaction: Transaction) throws -> Bool {
        try transaction.queryOne("SELECT 1 AS found FROM tenant_category_lists WHERE tenant = ?", [.text(tenant)]) != nil
    }

    /// Category codes are stable identifiers clients store: lower-case letters, digits and `_`, up to 64.
    static func isValidCode(_ code: String) -> Bool {
        (1...64).contains(code.utf8.count)
            && code.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
    }

    static func validate(_ category: KYBDocumentCategory) throws {
        var violations = ViolationList()
        if !isValidCode(category.category) {
            violations.add(FieldViolation(field: "category", code: "invalid_category",
                                          message: "category must be 1 to 64 of a-z, 0-9 and _"))
        }
        violations.add(KYBRules.textViolation(category.name, field: "name", maxLength: 200, required: true))
        violations.add(KYBRules.textViolation(category.nameEn, field: "nameEn", maxLength: 200, required: true))
        if !(0...1_000_000).contains(category.sequence) {
            violations.add(FieldViolation(field: "sequence", code: "out_of_range",
                                          message: "sequence must be between 0 and 1000000"))
        }
        try violations.throwIfAny()
    }
}
