import KYCCore

extension Database {
    /// Brings the schema up to the newest of `migrations`, applying each one not yet applied, in version order, each
    /// in its own IMMEDIATE transaction together with the new `user_version`. Returns the version afterwards.
    ///
    /// A failing migration rolls back alone, leaving the file at the previous version, and throws an error naming it.
    /// A file whose version is newer than the newest migration is refused with `.schemaTooNew` (an older build must
    /// not write to a newer schema). Safe when two processes migrate the same file at once: the version is read
    /// again inside each transaction, so a migration another process applied meanwhile is skipped.
    @discardableResult
    public func migrate(_ migrations: [Migration], logger: Logger? = nil) throws(StorageError) -> Int {
        let ordered = migrations.sorted { $0.version < $1.version }
        try Database.validate(ordered)
        let newestKnown = ordered.last?.version ?? 0
        let path = self.path
        return try withConnection("Database.migrate") { connection throws(StorageError) -> Int in
            var version = try Database.schemaVersion(connection)
            try Database.refuseNewer(version, newestKnown: newestKnown, path: path)
            for migration in ordered where migration.version > version {
                try connection.begin(.immediate)
                do throws(StorageError) {
                    // Another process may have migrated between our read and our BEGIN.
                    version = try Database.schemaVersion(connection)
                    try Database.refuseNewer(version, newestKnown: newestKnown, path: path)
                    if migration.version > version {
                        try connection.executeScript(migration.sql)
                        _ = try connection.execute("PRAGMA user_version = \(migration.version)", [])
                        version = migration.version
                        try connection.commit()
                        logger?.info("applied migration", [
                            "db.path": path,
                            "migration.version": String(migration.version),
                            "migration.name": migration.name,
                        ])
                    } else {
                        try connection.commit()
                    }
                } catch {
                    connection.rollbackIfNeeded()
                    throw StorageError(
                        code: error.code, sqliteCode: error.sqliteCode,
                        message: "migration \(migration.version) '\(migration.name)' failed: \(error.message)",
                        function: error.function)
                }
            }
            return version
        }
    }

    /// The schema version recorded in the file (`PRAGMA user_version`; 0 for a new file).
    public func schemaVersion() throws(StorageError) -> Int {
        try withConnection("Database.schemaVersion") { connection throws(StorageError) in
            try Database.schemaVersion(connection)
        }
    }

    private static func schemaVersion(_ connection: Connection) throws(StorageError) -> Int {
        guard case .integer(let version) = try connection.queryOne("PRAGMA user_version", [])?[0] else {
            throw StorageError(code: .typeMismatch, sqliteCode: 0, message: "PRAGMA user_version returned no integer",
                               function: "PRAGMA user_version")
        }
        return Int(version)
    }

    private static func refuseNewer(_ version: Int, newestKnown: Int, path: String) throws(StorageError) {
        guard version <= newestKnown else {
            throw StorageError(code: .schemaTooNew, sqliteCode: 0,
                               message: "\(path) is at schema version \(version); this build knows up to \(newestKnown)",
                               function: "Database.migrate")
        }
    }

    /// Versions must be positive and distinct: a duplicate means two migrations claim the same step.
    private static func validate(_ ordered: [Migration]) throws(StorageError) {
        var previous = 0
        for migration in ordered {
            guard migration.version > previous else {
                throw StorageError.misuse(
                    migration.version <= 0
                        ? "migration '\(migration.name)' has version \(migration.version); versions start at 1"
                        : "two migrations have version \(migration.version)",
                    function: "Database.migrate")
            }
            previous = migration.version
        }
    }
}
