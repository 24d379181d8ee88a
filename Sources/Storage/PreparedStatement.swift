// Wraps one `sqlite3_stmt`: typed binding of `SQLValue`s, stepping, and reading columns back as `SQLValue`s.
// A statement belongs to one connection and is used only while that connection's lock is held (see `Database`).
import CSQLite

/// SQLite copies bound text and blobs before `sqlite3_bind_*` returns when given SQLITE_TRANSIENT, so Swift's buffers
/// need to live only for the call. The macro is a cast of -1 that Swift does not import.
private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// Owns one prepared statement and finalizes it exactly once (`finalize()` or deinit).
final class PreparedStatement {
    private var handle: OpaquePointer?
    let sql: String
    /// The connection's error funnel, so bind/step failures carry `sqlite3_errmsg`.
    private let connection: OpaquePointer

    init(handle: OpaquePointer, sql: String, connection: OpaquePointer) {
        self.handle = handle
        self.sql = sql
        self.connection = connection
    }

    deinit { finalize() }

    /// Frees the statement; later calls do nothing.
    func finalize() {
        if let handle {
            sqlite3_finalize(handle)
            self.handle = nil
        }
    }

    /// Binds `values` to the `?` parameters in order; the count must match exactly, to catch a forgotten binding.
    func bind(_ values: [SQLValue]) throws(StorageError) {
        let statement = try liveHandle()
        let expected = Int(sqlite3_bind_parameter_count(statement))
        guard expected == values.count else {
            throw StorageError.misuse("statement has \(expected) parameter(s) but \(values.count) value(s) were bound",
                                      function: "sqlite3_bind_parameter_count")
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            let function: String
            switch value {
            case .null:
                rc = sqlite3_bind_null(statement, index)
                function = "sqlite3_bind_null"
            case .integer(let number):
                rc = sqlite3_bind_int64(statement, index, number)
                function = "sqlite3_bind_int64"
            case .real(let number):
                rc = sqlite3_bind_double(statement, index, number)
                function = "sqlite3_bind_double"
            case .text(let text):
                // Bound with an explicit byte length, so text with embedded NULs survives; an empty buffer may have
                // no base address, and a NULL pointer would bind SQL NULL instead of ''.
                var text = text
                rc = text.withUTF8 { bytes in
                    guard let base = bytes.baseAddress, !bytes.isEmpty else {
                        return sqlite3_bind_text(statement, index, "", 0, transientDestructor)
                    }
                    return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { characters in
                        sqlite3_bind_text(statement, index, characters, Int32(clamping: bytes.count),
                                          transientDestructor)
                    }
                }
                function = "sqlite3_bind_text"
            case .blob(let bytes):
                // A NULL pointer would bind SQL NULL; a zero-length blob must stay a blob.
                if bytes.isEmpty {
                    rc = sqlite3_bind_zeroblob(statement, index, 0)
                    function = "sqlite3_bind_zeroblob"
                } else {
                    rc = bytes.withUnsafeBytes { buffer in
                        sqlite3_bind_blob(statement, index, buffer.baseAddress, Int32(clamping: buffer.count),
                                          transientDestructor)
                    }
                    function = "sqlite3_bind_blob"
                }
            }
            try Connection.check(rc, function, connection)
        }
    }

    /// Advances one row: true when a row is available, false when the statement is done.
    func step() throws(StorageError) -> Bool {
        let rc = sqlite3_step(try liveHandle())
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            try Connection.check(rc, "sqlite3_step", connection)
            return false
        }
    }

    /// The column names of the result set.
    func columnNames() throws(StorageError) -> [String] {
        let statement = try liveHandle()
        return (0..<sqlite3_column_count(statement)).map { column in
            sqlite3_column_name(statement, column).map { String(cString: $0) } ?? ""
        }
    }

    /// The current row's values, after `step()` returned true.
    func currentValues() throws(StorageError) -> [SQLValue] {
        let statement = try liveHandle()
        return (0..<sqlite3_column_count(statement)).map { column in
            switch sqlite3_column_type(statement, column) {
            case SQLITE_INTEGER:
                return .integer(sqlite3_column_int64(statement, column))
            case SQLITE_FLOAT:
                return .real(sqlite3_column_double(statement, column))
            case SQLITE_TEXT:
                // Pointer first, then the byte count, as SQLite documents; the count keeps embedded NULs.
                let pointer = sqlite3_column_text(statement, column)
                let count = Int(sqlite3_column_bytes(statement, column))
                guard let pointer, count > 0 else { return .text("") }
                return .text(String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self))
            case SQLITE_BLOB:
                let pointer = sqlite3_column_blob(statement, column)
                let count = Int(sqlite3_column_bytes(statement, column))
                guard let pointer, count > 0 else { return .blob([]) }
                return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
            default:
                return .null
            }
        }
    }

    /// Makes the statement ready for the next use: resets it and drops the bindings, so no read transaction stays
    /// open and no bound buffer is kept. `sqlite3_reset` repeats the last step's error, already reported by `step`.
    func reset() {
        guard let handle else { return }
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    private func liveHandle() throws(StorageError) -> OpaquePointer {
        guard let handle else {
            throw StorageError(code: .closed, sqliteCode: 0, message: "statement was finalized",
                               function: "PreparedStatement")
        }
        return handle
    }
}
