import CSQLite

/// A failure of the storage layer: a SQLite call that returned an error, or a misuse caught before reaching SQLite.
///
/// Every SQLite return code passes through one funnel (`Connection.check`), which builds this error with the C
/// function's name, SQLite's extended result code and the connection's message. Errors are values: bad SQL, a
/// violated constraint or a closed database never crash the process.
public struct StorageError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, coarse enough to branch on.
    public enum Code: Sendable, Hashable {
        /// A constraint failed (UNIQUE, PRIMARY KEY, FOREIGN KEY, CHECK, NOT NULL). See `isUniqueViolation`.
        case constraint
        /// The database file is locked by another connection and `busy_timeout` ran out (SQLITE_BUSY, SQLITE_LOCKED).
        case busy
        /// The file is damaged or is not a database (SQLITE_CORRUPT, SQLITE_NOTADB).
        case corrupt
        /// The API was used wrongly: nested transaction, wrong number of bindings, several statements in one call,
        /// an escaped `Transaction`, invalid migrations, or SQLite's own SQLITE_MISUSE / SQLITE_RANGE.
        case misuse
        /// A column name that the row does not have.
        case notFound
        /// A column holds a different type than the one asked for (e.g. `int` on a TEXT value).
        case typeMismatch
        /// Disk I/O failed, or the parent directory could not be created (SQLITE_IOERR).
        case io
        /// The database file could not be opened (SQLITE_CANTOPEN).
        case cannotOpen
        /// A write was attempted on a read-only database (SQLITE_READONLY).
        case readOnly
        /// The disk or the database is full (SQLITE_FULL).
        case full
        /// SQL that SQLite rejected: syntax error, unknown table or column, … (SQLITE_ERROR).
        case sqlError
        /// The database was closed; no further use is possible.
        case closed
        /// The file's schema version (`PRAGMA user_version`) is newer than the newest migration this code knows:
        /// an older binary must not write to a newer schema.
        case schemaTooNew
        /// Any other SQLite result code (the primary code).
        case other(Int32)
    }

    /// The coarse error kind.
    public let code: Code
    /// SQLite's extended result code (e.g. 2067 for SQLITE_CONSTRAINT_UNIQUE), or 0 when SQLite was not involved.
    public let sqliteCode: Int32
    /// SQLite's message for the failure (`sqlite3_errmsg`), or the storage layer's own explanation.
    public let message: String
    /// The C function (e.g. `sqlite3_step`) or storage-layer operation that failed.
    public let function: String

    /// Creates an error; `code` defaults to the one that `sqliteCode` maps to.
    public init(code: Code? = nil, sqliteCode: Int32, message: String, function: String) {
        self.code = code ?? StorageError.code(forSQLiteCode: sqliteCode)
        self.sqliteCode = sqliteCode
        self.message = message
        self.function = function
    }

    /// An error raised by the storage layer itself rather than by SQLite.
    static func misuse(_ message: String, function: String) -> StorageError {
        StorageError(code: .misuse, sqliteCode: 0, message: message, function: function)
    }

    /// True when a UNIQUE or PRIMARY KEY constraint rejected the write: the usual "already exists" signal.
    public var isUniqueViolation: Bool {
        sqliteCode == ExtendedResultCode.constraintUnique || sqliteCode == ExtendedResultCode.constraintPrimaryKey
    }

    public var description: String {
        let sqliteName = sqliteCode == 0 ? "" : ", \(String(cString: sqlite3_errstr(sqliteCode)))"
        return "StorageError.\(code) in \(function) (code \(sqliteCode)\(sqliteName)): \(message)"
    }

    /// Maps a (possibly extended) SQLite result code to a coarse `Code`; only the low byte is the primary code.
    static func code(forSQLiteCode sqliteCode: Int32) -> Code {
        switch sqliteCode & 0xFF {
        case SQLITE_CONSTRAINT: .constraint
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        case SQLITE_CORRUPT, SQLITE_NOTADB: .corrupt
        case SQLITE_MISUSE, SQLITE_RANGE: .misuse
        case SQLITE_MISMATCH: .typeMismatch
        case SQLITE_IOERR: .io
        case SQLITE_CANTOPEN: .cannotOpen
        case SQLITE_READONLY: .readOnly
        case SQLITE_FULL: .full
        case SQLITE_ERROR: .sqlError
        default: .other(sqliteCode & 0xFF)
        }
    }
}

/// Extended result codes are function-like macros in sqlite3.h (`SQLITE_CONSTRAINT | (8<<8)`) that Swift does not
/// import; their values are fixed by SQLite's stable ABI.
enum ExtendedResultCode {
    static let constraintPrimaryKey: Int32 = SQLITE_CONSTRAINT | (6 << 8)
    static let constraintUnique: Int32 = SQLITE_CONSTRAINT | (8 << 8)
}
