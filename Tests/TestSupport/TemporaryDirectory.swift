import Foundation

// The test targets' shared support (the TestSupport target, a dependency of every test target that writes files):
// every temporary path comes from this one place, so that scripts/run-tests can check that a test run leaves
// nothing behind.

/// A fresh directory under the temporary directory (FileManager's, which honours TMPDIR), removed with everything in
/// it (SQLite's -wal and -shm files included) by `remove()` or when the last reference goes away. Put every file a
/// test writes inside one: a store that outlives its test or a failed `#require` then leaves nothing in /tmp.
/// A suite or fixture holds it as a stored property; a test function holding it in a local adds
/// `defer { directory.remove() }`, since Swift may release a local after its last use rather than at the end of scope.
public final class TemporaryDirectory: Sendable {
    public let path: String

    /// `purpose` starts the directory's name, so a leftover says which test wrote it.
    public init(_ purpose: String = "kyc-test") throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(purpose)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { remove() }

    /// A path inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Removes the directory now. Stop any process writing into it first, or it may write again after the removal.
    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
