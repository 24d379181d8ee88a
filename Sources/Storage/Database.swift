// The thread-safe face of one SQLite connection. A service opens one `Database` per file and shares it between its
// worker threads; a second process (or a second `Database`) on the same file is kept in step by SQLite's file locks
// and `busy_timeout`.
import Synchronization

/// One SQLite database file (or `:memory:`), safe to use from any thread.
///
/// Every call takes an internal `Mutex` around the connection, so statements from different threads never
/// interleave and a `transaction` body runs alone on the connection from BEGIN to COMMIT. The type is checked
/// `Sendable` (no `@unchecked`): the connection, which is not `Sendable`, lives inside `Mutex`, and is reached only
/// through `Mutex.withLock`.
///
/// The lock is not recursive. Using the `Database` again from inside a `transaction` body, on the thread that holds
/// the lock, throws `.misuse` instead of deadlocking: use the `Transaction` handle there.
public final class Database: Sendable {
    private let connection: Mutex<Connection>
    /// The thread inside `withLock`, or 0. Written only by the lock holder, so a thread reads its own identity here
    /// only while it holds the lock.
    private let lockHolder = Atomic<UInt>(0)
    /// Set when `close()` is called from inside a transaction body; the transaction closes once it has finished.
    private let closeAfterTransaction = Atomic<Bool>(false)
    /// The path given at open.
    public let path: String

    /// Opens the database at `path`, creating the file and its parent directories if needed; `":memory:"` opens a
    /// private in-memory database. Applies `journal_mode=WAL` (files), `synchronous=NORMAL`, `foreign_keys=ON` and
    /// `busy_timeout` as set in `options`.
    public init(path: String, options: DatabaseOptions = .init()) throws(StorageError) {
        self.path = path
        self.connection = Mutex(try Connection(path: path, options: options))
    }

    deinit { close() }

    /// Closes the connection. Idempotent; afterwards every call throws `.closed`. Called from inside a transaction
    /// body, the close happens when that transaction has ended.
    public func close() {
        if lockHolder.load(ordering: .relaxed) == currentThreadIdentity() {
            closeAfterTransaction.store(true, ordering: .relaxed)
            return
        }
        connection.withLock { $0.close() }
    }

    /// True once `close()` has run.
    public var isClosed: Bool {
        (try? withConnection("Database.isClosed") { $0.isClosed }) ?? true
    }

    // MARK: - Statements

    /// Runs one SQL statement with `?` parameters bound in order; returns the number of rows changed (meaningful for
    /// INSERT, UPDATE, DELETE).
    @discardableResult
    public func execute(_ sql: String, _ bindings: [SQLValue] = []) throws(StorageError) -> Int {
        try withConnection("Database.execute") { connection throws(StorageError) in try connection.execute(sql, bindings) }
    }

    /// Runs one INSERT and returns the rowid of the inserted row, read under the same lock (unlike a separate
    /// `lastInsertRowID`, which another thread's insert may overtake).
    @discardableResult
    public func insert(_ sql: String, _ bindings: [SQLValue] = []) throws(StorageError) -> Int64 {
        try withConnection("Database.insert") { connection throws(StorageError) in try connection.insert(sql, bindings) }
    }

    /// Runs one query and returns all its rows.
    public func query(_ sql: String, _ bindings: [SQLValue] = []) throws(StorageError) -> [Row] {
        try withConnection("Database.query") { connection throws(StorageError) in try connection.query(sql, bindings) }
    }

    /// Runs one query and returns its first row, or nil when there is none.
    public func queryOne(_ sql: String, _ bindings: [SQLValue] = []) throws(StorageError) -> Row? {
        try withConnection("Database.queryOne") { connection throws(StorageError) in try connection.queryOne(sql, bindings) }
    }

    /// Runs a script of `;`-separated statements without bindings, such as a schema. Never pass request data here.
    public func executeScript(_ sql: String) throws(StorageError) {
        try withConnection("Database.executeScript") { connection throws(StorageError) in try connection.executeScript(sql) }
    }

    /// The rowid of the most recent successful INSERT on this connection, from any thread. Prefer `insert(_:_:)`
    /// or `Transaction.lastInsertRowID`, which cannot be overtaken by another thread's insert.
    public var lastInsertRowID: Int64 {
        get throws(StorageError) {
            try withConnection("Database.lastInsertRowID") { connection throws(StorageError) in
                try connection.lastInsertRowID()
            }
        }
    }

    // MARK: - Transactions

    /// Runs `body` in one transaction: BEGIN (IMMEDIATE by default), then COMMIT when `body` returns, or ROLLBACK
    /// when it throws (the error is rethrown). Other threads wait for the lock meanwhile; other connections to the
    /// file wait up to `busy_timeout`.
    ///
    /// Inside `body` use only the `Transaction` handle: calling this `Database` again on the same thread (a nested
    /// transaction, say) throws `.misuse`, as does using the handle after the transaction has ended. A COMMIT or
    /// ROLLBACK issued by `body` itself makes the transaction throw `.misuse`.
    @discardableResult
    public func transaction<Result>(
        _ kind: TransactionKind = .immediate,
        _ body: (Transaction) throws -> sending Result
    ) throws -> sending Result {
        defer {
            if closeAfterTransaction.load(ordering: .relaxed) {
                closeAfterTransaction.store(false, ordering: .relaxed)
                close()
            }
        }
        return try withConnectionRunning("Database.transaction") { (connection) throws -> sending Result in
            try connection.begin(kind)
            let transaction = Transaction(connection: connection)
            let result: Result
            do {
                result = try body(transaction)
            } catch {
                transaction.end()
                connection.rollbackIfNeeded()
                throw error
            }
            transaction.end()
            guard connection.isInTransaction else {
                throw StorageError.misuse("the transaction body ended the transaction itself (COMMIT or ROLLBACK)",
                                          function: "Database.transaction")
            }
            do {
                try connection.commit()
            } catch {
                connection.rollbackIfNeeded()
                throw error
            }
            return result
        }
    }

    // MARK: - Locking

    /// Runs `body` with the connection, holding the lock. Throws `.misuse` when the calling thread already holds it.
    func withConnection<Value: Sendable>(
        _ operation: String,
        _ body: (Connection) throws(StorageError) -> Value
    ) throws(StorageError) -> Value {
        let me = currentThreadIdentity()
        guard lockHolder.load(ordering: .relaxed) != me else { throw reentrantUse(operation) }
        return try connection.withLock { (connection) throws(StorageError) -> Value in
            lockHolder.store(me, ordering: .relaxed)
            defer { lockHolder.store(0, ordering: .relaxed) }
            return try body(connection)
        }
    }

    /// Like `withConnection`, for bodies that run caller code and throw any error.
    private func withConnectionRunning<Value>(
        _ operation: String,
        _ body: (Connection) throws -> sending Value
    ) throws -> sending Value {
        let me = currentThreadIdentity()
        guard lockHolder.load(ordering: .relaxed) != me else { throw reentrantUse(operation) }
        return try connection.withLock { (connection) throws -> sending Value in
            lockHolder.store(me, ordering: .relaxed)
            defer { lockHolder.store(0, ordering: .relaxed) }
            return try body(connection)
        }
    }

    private func reentrantUse(_ operation: String) -> StorageError {
        StorageError.misuse(
            "\(operation) called on a thread that is already using this database (inside a transaction body?); "
                + "use the Transaction handle instead",
            function: operation)
    }
}
