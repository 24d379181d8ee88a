/// One SQLite value, as bound to a `?` parameter or read from a result column.
///
/// Text is stored as UTF-8 and may contain any character, NUL included; blobs are copied into and out of SQLite.
public enum SQLValue: Sendable, Equatable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// True for `.null`.
    public var isNull: Bool { self == .null }
}

extension SQLValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByNilLiteral
{
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(nilLiteral: ()) { self = .null }
}

extension SQLValue {
    /// `.integer`, or `.null` when `value` is nil.
    public static func integer(_ value: Int?) -> SQLValue { value.map { .integer(Int64($0)) } ?? .null }
    /// `.text`, or `.null` when `value` is nil.
    public static func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
    /// `.blob`, or `.null` when `value` is nil.
    public static func blob(_ value: [UInt8]?) -> SQLValue { value.map { .blob($0) } ?? .null }
    /// `.integer(1)` or `.integer(0)`: SQLite has no boolean type.
    public static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
}
