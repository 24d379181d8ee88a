/// The handle a `Database.transaction` body uses to run statements inside the open transaction.
///
/// Valid only while the body runs: afterwards every call throws `.misuse`. Not `Sendable`, so it cannot be handed
/// to another thread; the body runs on the thread that holds the database lock.
public final class Transaction {
    private let connection: Connection
    private var isActive = true

    init(connection: Connection) {
        self.connection = connection
    }

    /// Called by `Database.transaction` when the body has returned or thrown.
    func end() { isActive = false }

    /// Runs one statement; returns the number of rows changed.
    @discardableResult
    public func execute(_ sql: String, _ bindings: [SQLValue] = []) throws(StorageError) -> Int {
        try liveConnection("Transaction.execute").execute(sql, bindings)
    }

    /// Runs one INSERT and returns the inserted row's rowid.
    @discardableResult
    public func insert(_ sql: String, _ bindings: [SQLValue] = []) throws(StorageError) -> Int64 {
        try liveConnection("Transaction.insert").insert(sql, bindings)
    }

    /// Runs one query and returns all its rows.
    public func query(_ sql: String, _ bindings: [SQLValue] = []) throws(StorageError) -> [Row] {
        try liveConnection("Transaction.query").query(sql, bindings)
    }

    /// Runs one query and returns its first row, or nil.
    public func queryOne(_ sql: String, _ bindings: [SQLValue] = []) throws(StorageError) -> Row? {
        try liveConnection("Transaction.queryOne").queryOne(sql, bindings)
    }

    /// The rowid of the most recent INSERT in this transaction.
    public var lastInsertRowID: Int64 {
        get throws(StorageError) { try liveConnection("Transaction.lastInsertRowID").lastInsertRowID() }
    }

    private func liveConnection(_ operation: String) throws(StorageError) -> Connection {
        guard isActive else {
            throw StorageError.misuse("transaction handle used after its transaction ended", function: operation)
        }
        return connection
    }
}
