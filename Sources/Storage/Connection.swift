// Owns one `sqlite3` connection handle and everything that touches it: opening and configuring, preparing (with the
// statement cache), running statements and transactions, and closing exactly once.
//
// Opened with SQLITE_OPEN_NOMUTEX ("multi-thread" mode): SQLite does not lock the connection itself, because
// `Database` already serializes every use behind its own Mutex. Doing both would take two locks per call, and
// SQLite's lock alone could not keep a transaction's statements together anyway. The error message of a failed call
// is read while the Mutex is still held, so no other thread's call can overwrite it.
import CSQLite
import Foundation

/// Not thread-safe and not `Sendable`: reachable only through `Database`'s Mutex.
final class Connection {
    private var handle: OpaquePointer?
    private var statements: StatementCache
    let path: String

    /// Opens (creating if needed) the database at `path` and applies the connection settings from `options`.
    init(path: String, options: DatabaseOptions) throws(StorageError) {
        self.path = path
        self.statements = StatementCache(capacity: options.statementCacheCapacity)
        let isInMemory = path == ":memory:" || path.isEmpty
        if !isInMemory {
            try Connection.createParentDirectory(of: path)
            try Connection.makePrivate(databaseAt: path)
        }

        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &opened, flags, nil)
        // On failure SQLite may still hand back a handle (holding the message) that must be closed.
        guard rc == SQLITE_OK, let opened else {
            let error = Connection.error(rc == SQLITE_OK ? SQLITE_CANTOPEN : rc, "sqlite3_open_v2", opened)
            sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
        do throws(StorageError) {
            sqlite3_extended_result_codes(opened, 1)
            let timeout = Int32(clamping: max(0, options.busyTimeoutMilliseconds))
            try Connection.check(sqlite3_busy_timeout(opened, timeout), "sqlite3_busy_timeout", opened)
            if options.writeAheadLog && !isInMemory {
                // journal_mode answers with the mode in force; a file system without shared memory keeps the old one.
                let mode = try Connection.retryingWhileBusy(for: options.busyTimeoutMilliseconds) {
                    () throws(StorageError) in try queryOne("PRAGMA journal_mode = WAL", [])?[0]
                }
                guard case .text(let name) = mode, name.lowercased() == "wal" else {
                    throw StorageError(code: .io, sqliteCode: 0,
                                       message: "journal_mode=WAL refused for \(path) (mode is \(String(describing: mode)))",
                                       function: "PRAGMA journal_mode")
                }
            }
            _ = try execute("PRAGMA synchronous = NORMAL", [])
            _ = try execute("PRAGMA foreign_keys = \(options.enforceForeignKeys ? "ON" : "OFF")", [])
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Runs `body` again while it fails with `.busy`, for up to `milliseconds`. Switching a new file to WAL needs an
    /// exclusive lock and SQLite answers SQLITE_BUSY at once, without the busy handler, when two processes open the
    /// same new database together (two workers of one service starting side by side).
    static func retryingWhileBusy<T>(for milliseconds: Int, _ body: () throws(StorageError) -> T)
        throws(StorageError) -> T {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, milliseconds)) * 1_000_000
        while true {
            do {
                return try body()
            } catch where error.code == .busy && DispatchTime.now().uptimeNanoseconds < deadline {
                usleep(10_000)
            }
        }
    }

    var isClosed: Bool { handle == nil }

    /// The SQL texts whose statements are cached now (for tests).
    var cachedStatementSQL: Set<String> { statements.cachedSQL }

    /// Finalizes the cached statements and closes the handle; later calls do nothing.
    func close() {
        statements.removeAll()
        if let handle {
            // close_v2 rather than close: should any statement still be alive it defers instead of failing.
            sqlite3_close_v2(handle)
            self.handle = nil
        }
    }

    // MARK: - The error funnel

    /// Throws a `StorageError` naming `function` unless `rc` is a success code (OK, ROW, DONE).
    static func check(_ rc: Int32, _ function: String, _ connection: OpaquePointer?) throws(StorageError) {
        guard rc != SQLITE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE else { return }
        throw error(rc, function, connection)
    }

    /// The error for `rc`, with the connection's message when it has one.
    private static func error(_ rc: Int32, _ function: String, _ connection: OpaquePointer?) -> StorageError {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(rc))
        return StorageError(sqliteCode: rc, message: message, function: function)
    }

    private func liveHandle(_ function: String) throws(StorageError) -> OpaquePointer {
        guard let handle else {
            throw StorageError(code: .closed, sqliteCode: 0, message: "database \(path) is closed", function: function)
        }
        return handle
    }

    // MARK: - Statements

    /// Runs one statement to completion; returns the rows changed by an INSERT, UPDATE or DELETE.
    func execute(_ sql: String, _ bindings: [SQLValue]) throws(StorageError) -> Int {
        let statement = try prepare(sql)
        defer { statement.reset() }
        try statement.bind(bindings)
        while try statement.step() {}
        return Int(sqlite3_changes64(try liveHandle("sqlite3_changes64")))
    }

    /// Runs one statement to completion; returns the rowid of the row it inserted.
    func insert(_ sql: String, _ bindings: [SQLValue]) throws(StorageError) -> Int64 {
        _ = try execute(sql, bindings)
        return try lastInsertRowID()
    }

    /// Runs one statement and collects every row.
    func query(_ sql: String, _ bindings: [SQLValue]) throws(StorageError) -> [Row] {
        let statement = try prepare(sql)
        defer { statement.reset() }
        try statement.bind(bindings)
        let columns = ColumnNames(try statement.columnNames())
        var rows: [Row] = []
        while try statement.step() {
            rows.append(Row(columns: columns, values: try statement.currentValues()))
        }
        return rows
    }

    /// Runs one statement and returns its first row; later rows are not computed.
    func queryOne(_ sql: String, _ bindings: [SQLValue]) throws(StorageError) -> Row? {
        let statement = try prepare(sql)
        defer { statement.reset() }
        try statement.bind(bindings)
        guard try statement.step() else { return nil }
        return Row(columns: ColumnNames(try statement.columnNames()), values: try statement.currentValues())
    }

    /// Runs several `;`-separated statements without bindings (schema scripts, migrations).
    func executeScript(_ sql: String) throws(StorageError) {
        let handle = try liveHandle("sqlite3_exec")
        try Connection.check(sqlite3_exec(handle, sql, nil, nil, nil), "sqlite3_exec", handle)
    }

    func lastInsertRowID() throws(StorageError) -> Int64 {
        sqlite3_last_insert_rowid(try liveHandle("sqlite3_last_insert_rowid"))
    }

    /// True between BEGIN and COMMIT/ROLLBACK (SQLite's autocommit flag is off).
    var isInTransaction: Bool {
        handle.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    /// The cached statement for `sql`, or a freshly prepared one. Exactly one statement per call: a second one
    /// after `;` is refused, so a bound call can never smuggle in extra SQL.
    private func prepare(_ sql: String) throws(StorageError) -> PreparedStatement {
        if let cached = statements.statement(for: sql) { return cached }
        let handle = try liveHandle("sqlite3_prepare_v3")
        let flags = statements.capacity > 0 ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        var prepared: OpaquePointer?
        var hasSecondStatement = false
        let rc = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v3(handle, text, -1, flags, &prepared, &tail)
            guard rc == SQLITE_OK, let tail, tail.pointee != 0 else { return rc }
            // The tail may be only whitespace, comments or `;`, which prepare to no statement at all.
            var extra: OpaquePointer?
            let extraRC = sqlite3_prepare_v3(handle, tail, -1, 0, &extra, nil)
            hasSecondStatement = extraRC != SQLITE_OK || extra != nil
            sqlite3_finalize(extra)
            return rc
        }
        try Connection.check(rc, "sqlite3_prepare_v3", handle)
        guard let prepared else {
            throw StorageError.misuse("no SQL statement in '\(sql)'", function: "sqlite3_prepare_v3")
        }
        let statement = PreparedStatement(handle: prepared, sql: sql, connection: handle)
        guard !hasSecondStatement else {
            statement.finalize()
            throw StorageError.misuse("more than one SQL statement in one call; use executeScript for scripts",
                                      function: "sqlite3_prepare_v3")
        }
        statements.insert(statement)
        return statement
    }

    // MARK: - Transactions

    func begin(_ kind: TransactionKind) throws(StorageError) {
        _ = try execute(kind.beginStatement, [])
    }

    func commit() throws(StorageError) {
        _ = try execute("COMMIT", [])
    }

    /// Rolls back if a transaction is still open. SQLite rolls back by itself after some errors (I/O, full disk,
    /// busy during commit), in which case there is nothing left to undo. Errors are ignored: this runs while another
    /// error is already on its way to the caller.
    func rollbackIfNeeded() {
        guard isInTransaction else { return }
        _ = try? execute("ROLLBACK", [])
    }

    // MARK: - Setup

    /// Creates the database's directory, owner-only (0700) when it is new: the databases hold credential hashes,
    /// webhook secrets and the signing seal key.
    private static func createParentDirectory(of path: String) throws(StorageError) {
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw StorageError(code: .io, sqliteCode: 0,
                               message: "cannot create directory \(parent): \(error.localizedDescription)",
                               function: "FileManager.createDirectory")
        }
    }

    /// Makes the database file owner-only (0600), creating it empty when absent, before SQLite opens it. SQLite gives
    /// the -wal and -shm files it creates the database file's permissions, so they are private too; a file left
    /// group- or world-readable by an older version is tightened (with its -wal and -shm, if present).
    private static func makePrivate(databaseAt path: String) throws(StorageError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StorageError(code: .io, sqliteCode: 0,
                               message: "cannot create \(path): \(String(cString: strerror(errno)))", function: "open")
        }
        defer { _ = Foundation.close(descriptor) }
        for file in [path, path + "-wal", path + "-shm"] {
            var status = stat()
            guard stat(file, &status) == 0, status.st_mode & 0o077 != 0 else { continue }
            guard chmod(file, 0o600) == 0 else {
                throw StorageError(code: .io, sqliteCode: 0,
                                   message: "cannot make \(file) private: \(String(cString: strerror(errno)))",
                                   function: "chmod")
            }
        }
    }
}
