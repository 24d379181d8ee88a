/// The column names of one result set, shared by all its rows so that each row is just its values.
final class ColumnNames: Sendable {
    let names: [String]
    /// Name → index of the first column with that name (`SELECT a.id, b.id` keeps the first `id`).
    let indexByName: [String: Int]

    init(_ names: [String]) {
        self.names = names
        var index: [String: Int] = [:]
        for (position, name) in names.enumerated() where index[name] == nil { index[name] = position }
        self.indexByName = index
    }
}

/// One result row, read by column name (as written in the SELECT, or its `AS` alias).
///
/// The subscripts never fail; the typed accessors throw `StorageError` with `.notFound` for an unknown column and
/// `.typeMismatch` when the value has another type, so a schema drift surfaces as an error rather than a default.
public struct Row: Sendable {
    let columns: ColumnNames
    /// The values in column order.
    public let values: [SQLValue]

    init(columns: ColumnNames, values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    /// The column names in order.
    public var columnNames: [String] { columns.names }

    /// The value of `column`, or `.null` when there is no such column (use `value(_:)` to tell the two apart).
    public subscript(_ column: String) -> SQLValue {
        columns.indexByName[column].map { values[$0] } ?? .null
    }

    /// The value at `index` (0-based), or `.null` when out of range.
    public subscript(_ index: Int) -> SQLValue {
        values.indices.contains(index) ? values[index] : .null
    }

    /// The value of `column`; throws `.notFound` when the row has no such column.
    public func value(_ column: String) throws(StorageError) -> SQLValue {
        guard let index = columns.indexByName[column] else {
            throw StorageError(code: .notFound, sqliteCode: 0,
                               message: "no column named '\(column)' (columns: \(columns.names.joined(separator: ", ")))",
                               function: "Row.value")
        }
        return values[index]
    }

    /// An INTEGER column.
    public func int(_ column: String) throws(StorageError) -> Int64 {
        guard let value = try optionalInt(column) else { throw mismatch(column, expected: "integer", found: .null) }
        return value
    }

    /// An INTEGER column that may be NULL.
    public func optionalInt(_ column: String) throws(StorageError) -> Int64? {
        switch try value(column) {
        case .null: return nil
        case .integer(let value): return value
        case let other: throw mismatch(column, expected: "integer", found: other)
        }
    }

    /// A REAL column; an INTEGER value is widened, since SQLite may store whole reals as integers.
    public func double(_ column: String) throws(StorageError) -> Double {
        guard let value = try optionalDouble(column) else { throw mismatch(column, expected: "real", found: .null) }
        return value
    }

    /// A REAL column that may be NULL.
    public func optionalDouble(_ column: String) throws(StorageError) -> Double? {
        switch try value(column) {
        case .null: return nil
        case .real(let value): return value
        case .integer(let value): return Double(value)
        case let other: throw mismatch(column, expected: "real", found: other)
        }
    }

    /// A TEXT column.
    public func string(_ column: String) throws(StorageError) -> String {
        guard let value = try optionalString(column) else { throw mismatch(column, expected: "text", found: .null) }
        return value
    }

    /// A TEXT column that may be NULL.
    public func optionalString(_ column: String) throws(StorageError) -> String? {
        switch try value(column) {
        case .null: return nil
        case .text(let value): return value
        case let other: throw mismatch(column, expected: "text", found: other)
        }
    }

    /// A BLOB column.
    public func blob(_ column: String) throws(StorageError) -> [UInt8] {
        guard let value = try optionalBlob(column) else { throw mismatch(column, expected: "blob", found: .null) }
        return value
    }

    /// A BLOB column that may be NULL.
    public func optionalBlob(_ column: String) throws(StorageError) -> [UInt8]? {
        switch try value(column) {
        case .null: return nil
        case .blob(let value): return value
        case let other: throw mismatch(column, expected: "blob", found: other)
        }
    }

    /// An INTEGER column holding 0 or 1 (any non-zero integer reads as true).
    public func bool(_ column: String) throws(StorageError) -> Bool {
        try int(column) != 0
    }

    private func mismatch(_ column: String, expected: String, found: SQLValue) -> StorageError {
        let foundName = switch found {
        case .null: "null"
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        case .blob: "blob"
        }
        return StorageError(code: .typeMismatch, sqliteCode: 0,
                            message: "column '\(column)' holds \(foundName), expected \(expected)",
                            function: "Row.\(expected)")
    }
}
