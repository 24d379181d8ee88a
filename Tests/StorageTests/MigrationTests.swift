import Storage
import Testing
import TestSupport

@Suite struct MigrationTests {
    /// Each migration appends its version to `applied`, so the table records order and repetitions.
    static let migrations = [
        Migration(version: 1, name: "create applied log", sql: "CREATE TABLE applied (version INTEGER NOT NULL);"
            + "INSERT INTO applied VALUES (1);"),
        Migration(version: 2, name: "create slots", sql: "CREATE TABLE slots (id INTEGER PRIMARY KEY, label TEXT);"
            + "INSERT INTO applied VALUES (2);"),
        Migration(version: 3, name: "index slots", sql: "CREATE UNIQUE INDEX slots_label ON slots(label);"
            + "INSERT INTO applied VALUES (3);"),
    ]

    private func appliedVersions(_ database: Database) throws -> [Int64] {
        try database.query("SELECT version FROM applied ORDER BY rowid").map { try $0.int("version") }
    }

    @Test func migrationsRunOnceInOrderAndRecordTheVersion() throws {
        let directory = try TemporaryDirectory("storage-tests")
        defer { directory.remove() }
        let database = try Database(path: directory.file("m.sqlite"))
        // Given out of order: they must still run 1, 2, 3.
        let version = try database.migrate([Self.migrations[2], Self.migrations[0], Self.migrations[1]])
        #expect(version == 3)
        #expect(try database.schemaVersion() == 3)
        #expect(try appliedVersions(database) == [1, 2, 3])

        #expect(try database.migrate(Self.migrations) == 3)
        #expect(try appliedVersions(database) == [1, 2, 3])
    }

    @Test func onlyNewMigrationsRunOnALaterStart() throws {
        let directory = try TemporaryDirectory("storage-tests")
        defer { directory.remove() }
        let database = try Database(path: directory.file("m.sqlite"))
        try database.migrate(Array(Self.migrations.prefix(2)))
        #expect(try database.schemaVersion() == 2)
        try database.migrate(Self.migrations)
        #expect(try appliedVersions(database) == [1, 2, 3])
    }

    @Test func reopeningTheFileKeepsDataAndVersion() throws {
        let directory = try TemporaryDirectory("storage-tests")
        defer { directory.remove() }
        let path = directory.file("restart.sqlite")
        do {
            let database = try Database(path: path)
            try database.migrate(Self.migrations)
            try database.execute("INSERT INTO slots (label) VALUES (?)", ["monday 9:00"])
            database.close()
        }
        let reopened = try Database(path: path)
        #expect(try reopened.schemaVersion() == 3)
        try reopened.migrate(Self.migrations)
        #expect(try appliedVersions(reopened) == [1, 2, 3])
        #expect(try reopened.queryOne("SELECT label FROM slots")?.string("label") == "monday 9:00")
    }

    @Test func aFailingMigrationLeavesThePreviousVersionIntact() throws {
        let directory = try TemporaryDirectory("storage-tests")
        defer { directory.remove() }
        let database = try Database(path: directory.file("fail.sqlite"))
        let broken = Migration(version: 2, name: "half done", sql: "CREATE TABLE half (id INTEGER);"
            + "INSERT INTO applied VALUES (2);"
            + "INSERT INTO no_such_table VALUES (1);")
        let error = storageError { try database.migrate([Self.migrations[0], broken, Self.migrations[2]]) }
        #expect(error?.code == .sqlError)
        #expect(error?.message.contains("half done") == true)
        #expect(error?.message.contains("no_such_table") == true)

        #expect(try database.schemaVersion() == 1)
        #expect(try appliedVersions(database) == [1])
        #expect(try database.queryOne("SELECT name FROM sqlite_master WHERE name = 'half'") == nil)
        // Migration 3 came after the failure and must not have run either.
        #expect(try database.queryOne("SELECT name FROM sqlite_master WHERE name = 'slots_label'") == nil)
    }

    @Test func aFileWithANewerVersionIsRefused() throws {
        let directory = try TemporaryDirectory("storage-tests")
        defer { directory.remove() }
        let path = directory.file("newer.sqlite")
        try Database(path: path).migrate(Self.migrations)

        let olderBuild = try Database(path: path)
        let error = storageError { try olderBuild.migrate(Array(Self.migrations.prefix(1))) }
        #expect(error?.code == .schemaTooNew)
        #expect(try olderBuild.schemaVersion() == 3)
        #expect(try appliedVersions(olderBuild) == [1, 2, 3])
    }

    @Test func duplicateOrNonPositiveVersionsAreMisuse() throws {
        let database = try Database(path: ":memory:")
        let duplicate = storageError {
            try database.migrate([Self.migrations[0], Migration(version: 1, name: "again", sql: "SELECT 1")])
        }
        #expect(duplicate?.code == .misuse)
        let zero = storageError { try database.migrate([Migration(version: 0, name: "zero", sql: "SELECT 1")]) }
        #expect(zero?.code == .misuse)
        #expect(try database.schemaVersion() == 0)
    }

    @Test func twoConnectionsMigratingTheSameFileApplyEachStepOnce() throws {
        let directory = try TemporaryDirectory("storage-tests")
        defer { directory.remove() }
        let path = directory.file("both.sqlite")
        let first = try Database(path: path)
        let second = try Database(path: path)
        let databases = [first, second]
        let finished = runOnThreads(2) { index in
            _ = try? databases[index].migrate(Self.migrations)
        }
        #expect(finished)
        #expect(try first.schemaVersion() == 3)
        #expect(try appliedVersions(second) == [1, 2, 3])
    }
}
