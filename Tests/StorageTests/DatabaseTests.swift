import Foundation
import Storage
import Testing
import TestSupport

@Suite struct DatabaseTests {
    @Test func filesOpenInWALWithTheDocumentedSettings() throws {
        let directory = try TemporaryDirectory("storage-tests")
        defer { directory.remove() }
        let database = try Database(path: directory.file("settings.sqlite"))
        #expect(try database.queryOne("PRAGMA journal_mode")?[0] == .text("wal"))
        #expect(try database.queryOne("PRAGMA synchronous")?[0] == .integer(1))  // NORMAL
        #expect(try database.queryOne("PRAGMA foreign_keys")?[0] == .integer(1))
        #expect(try database.queryOne("PRAGMA busy_timeout")?[0] == .integer(5_000))
    }

    @Test func optionsAreApplied() throws {
        let directory = try TemporaryDirectory("storage-tests")
        defer { directory.remove() }
        let database = try Database(
            path: directory.file("options.sqlite"),
            options: DatabaseOptions(busyTimeoutMilliseconds: 250, writeAheadLog: false, enforceForeignKeys: false))
        #expect(try database.queryOne("PRAGMA journal_mode")?[0] == .text("delete"))
        #expect(try database.queryOne("PRAGMA foreign_keys")?[0] == .integer(0))
        #expect(try database.queryOne("PRAGMA busy_timeout")?[0] == .integer(250))
    }

    @Test func missingParentDirectoriesAreCreated() throws {
        let directory = try TemporaryDirectory("storage-tests")
        defer { directory.remove() }
        let path = directory.file("a/b/c/nested.sqlite")
        let database = try Database(path: path)
        try database.execute("CREATE TABLE t (x)")
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func foreignKeysAreEnforced() throws {
        let database = try Database(path: ":memory:")
        try database.executeScript("""
            CREATE TABLE companies (id INTEGER PRIMARY KEY);
            CREATE TABLE documents (id INTEGER PRIMARY KEY, company INTEGER NOT NULL REFERENCES companies(id));
            """)
        let error = storageError { try database.execute("INSERT INTO documents (company) VALUES (42)") }
        #expect(error?.code == .constraint)
        #expect(error?.isUniqueViolation == false)
    }

    @Test func aUniqueViolationIsAConstraintErrorSaidToBeOne() throws {
        let database = try Database(path: ":memory:")
        try database.execute("CREATE TABLE keys (id INTEGER PRIMARY KEY, token TEXT NOT NULL UNIQUE)")
        try database.execute("INSERT INTO keys (id, token) VALUES (1, 'k1')")

        let unique = storageError { try database.execute("INSERT INTO keys (id, token) VALUES (2, 'k1')") }
        #expect(unique?.code == .constraint)
        #expect(unique?.isUniqueViolation == true)
        #expect(unique?.function == "sqlite3_step")
        #expect(unique?.message.contains("keys.token") == true)

        let primaryKey = storageError { try database.execute("INSERT INTO keys (id, token) VALUES (1, 'k2')") }
        #expect(primaryKey?.isUniqueViolation == true)

        let notNull = storageError { try database.execute("INSERT INTO keys (id, token) VALUES (3, NULL)") }
        #expect(notNull?.code == .constraint)
        #expect(notNull?.isUniqueViolation == false)
    }

    @Test func badSQLIsAnErrorWithAMessage() throws {
        let database = try Database(path: ":memory:")
        let syntax = storageError { try database.execute("SELEKT nonsense FROM") }
        #expect(syntax?.code == .sqlError)
        #expect(syntax?.function == "sqlite3_prepare_v3")
        #expect(syntax?.message.contains("syntax error") == true)
        #expect(syntax?.description.contains("syntax error") == true)

        let unknownTable = storageError { _ = try database.query("SELECT * FROM no_such_table") }
        #expect(unknownTable?.message.contains("no such table") == true)

        #expect(storageError { try database.execute("   ") }?.code == .misuse)
        #expect(try database.queryOne("SELECT 1 AS one")?.int("one") == 1)
    }

    @Test func oneCallRunsExactlyOneStatement() throws {
        let database = try Database(path: ":memory:")
        try database.execute("CREATE TABLE t (x)")
        let error = storageError { try database.execute("INSERT INTO t VALUES (1); DROP TABLE t") }
        #expect(error?.code == .misuse)
        #expect(try database.query("SELECT * FROM t").isEmpty)
        // A trailing semicolon or comment is not a second statement.
        try database.execute("INSERT INTO t VALUES (2); -- done")
        #expect(try database.query("SELECT x FROM t").map { $0["x"] } == [.integer(2)])
    }

    @Test func aClosedDatabaseThrowsOnUseAndCloseIsIdempotent() throws {
        let database = try Database(path: ":memory:")
        try database.execute("CREATE TABLE t (x)")
        database.close()
        database.close()
        #expect(database.isClosed)
        #expect(storageError { try database.execute("INSERT INTO t VALUES (1)") }?.code == .closed)
        #expect(storageError { _ = try database.query("SELECT * FROM t") }?.code == .closed)
        #expect(storageError { try database.transaction { _ in } }?.code == .closed)
        #expect(storageError { try database.migrate([]) }?.code == .closed)
    }

    @Test func anUnopenablePathIsAnError() throws {
        let directory = try TemporaryDirectory("storage-tests")
        defer { directory.remove() }
        // A directory where the file should be.
        let path = directory.file("is-a-directory")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let error = storageError { _ = try Database(path: path) }
        #expect(error != nil)
        #expect(error?.code != .closed)
    }

    @Test func aFileThatIsNotADatabaseIsReportedAsCorrupt() throws {
        let directory = try TemporaryDirectory("storage-tests")
        defer { directory.remove() }
        let path = directory.file("garbage.sqlite")
        try Data(repeating: 0xAB, count: 4096).write(to: URL(fileURLWithPath: path))
        let error = storageError {
            let database = try Database(path: path)
            _ = try database.query("SELECT * FROM sqlite_master")
        }
        #expect(error?.code == .corrupt)
    }

    @Test func cachedStatementsSeeSchemaChanges() throws {
        let database = try Database(path: ":memory:")
        try database.execute("CREATE TABLE t (a)")
        try database.execute("INSERT INTO t VALUES (1)")
        #expect(try database.queryOne("SELECT * FROM t")?.columnNames == ["a"])
        try database.execute("ALTER TABLE t ADD COLUMN b")
        #expect(try database.queryOne("SELECT * FROM t")?.columnNames == ["a", "b"])
    }

    @Test func aSmallStatementCacheStillRunsEveryQuery() throws {
        let database = try Database(path: ":memory:", options: DatabaseOptions(statementCacheCapacity: 2))
        for round in 0..<3 {
            for n in 0..<10 {
                #expect(try database.queryOne("SELECT \(n) + ? AS v", [.integer(Int64(round))])?.int("v")
                    == Int64(n + round))
            }
        }
        let uncached = try Database(path: ":memory:", options: DatabaseOptions(statementCacheCapacity: 0))
        #expect(try uncached.queryOne("SELECT ? AS v", ["x"])?.string("v") == "x")
        #expect(try uncached.queryOne("SELECT ? AS v", ["y"])?.string("v") == "y")
    }
}
