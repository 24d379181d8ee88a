import Foundation
import Storage
import Testing
import TestSupport

/// Database files hold credential hashes, webhook secrets and the signing seal key: only their owner may read them.
@Suite struct FilePermissionTests {
    func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int).flatMap { $0 }
    }

    @Test func aNewDatabaseItsWriteAheadLogAndANewDirectoryAreOwnerOnly() throws {
        let directory = try TemporaryDirectory("storage-tests")
        defer { directory.remove() }
        let path = directory.file("new/service.sqlite")
        let database = try Database(path: path)
        _ = try database.execute("CREATE TABLE t (x INTEGER)")
        _ = try database.execute("INSERT INTO t VALUES (1)")
        #expect(mode(directory.file("new")) == 0o700)
        #expect(mode(path) == 0o600)
        #expect(mode(path + "-wal") == 0o600)
        #expect(mode(path + "-shm") == 0o600)
    }

    @Test func aDatabaseLeftReadableByOthersIsTightenedOnOpen() throws {
        let directory = try TemporaryDirectory("storage-tests")
        defer { directory.remove() }
        let path = directory.file("old.sqlite")
        do {
            let database = try Database(path: path)
            _ = try database.execute("CREATE TABLE t (x INTEGER)")
        }
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        }
        let database = try Database(path: path)
        _ = try database.execute("INSERT INTO t VALUES (1)")
        #expect(mode(path) == 0o600)
        #expect(mode(path + "-wal") == 0o600)
        #expect(try database.queryOne("SELECT count(*) FROM t")?[0] == .integer(1))
    }
}
