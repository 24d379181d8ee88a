import Foundation
import Storage

/// Everything KYBService keeps, in one SQLite database: businesses with their history, staff, documents and
/// document categories. Opening it applies the schema migrations.
public final class KYBStore: Sendable {
    public let database: Database
    public let businesses: BusinessRegistry
    public let staff: StaffRegistry
    public let documents: DocumentVault
    public let categories: DocumentCategoryCatalog

    /// `midUploadHook` runs inside the upload transaction after each document row (tests only).
    public init(database: Database, midUploadHook: (@Sendable (Int) throws -> Void)? = nil) throws {
        self.database = database
        _ = try database.migrate(KYBSchema.migrations)
        businesses = BusinessRegistry(database: database)
        staff = StaffRegistry(database: database)
        documents = DocumentVault(database: database, midUploadHook: midUploadHook)
        categories = DocumentCategoryCatalog(database: database)
    }

    /// A `midUploadHook` that ends the process at once (no COMMIT, no cleanup), as a crash would: the end-to-end
    /// test of upload atomicity uses it. Defined here rather than in `main.swift`, whose top-level closures are
    /// main-actor code and must not run on worker threads.
    public static let exitProcessMidUpload: @Sendable (Int) throws -> Void = { _ in _exit(75) }
}
