/// One step of a database's schema history, applied once and recorded in `PRAGMA user_version`.
///
/// Versions start at 1 and only grow; a released migration is never edited, a change is a new migration.
/// The SQL runs inside a transaction, so it must not contain statements SQLite refuses there (VACUUM,
/// `PRAGMA journal_mode`, `PRAGMA foreign_keys`).
public struct Migration: Sendable {
    /// The schema version this migration produces.
    public let version: Int
    /// A short name for logs and errors.
    public let name: String
    /// One or more `;`-separated statements.
    public let sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }
}
