import Storage
import Testing

@Suite struct SQLValueBindingTests {
    static let values: [SQLValue] = [
        .null,
        .integer(0),
        .integer(Int64.min),
        .integer(Int64.max),
        .integer(-1),
        .real(3.141_592_653_589_793),
        .real(-0.5),
        .real(Double.greatestFiniteMagnitude),
        .text(""),
        .text("plain ascii"),
        .text("Zürich – 東京 – 🇨🇭👩🏽‍💻 – e\u{301}"),
        .text("embedded\u{0}nul"),
        .blob([]),
        .blob([0]),
        .blob([0x00, 0xFF, 0x10, 0x00, 0x7F]),
        .blob(Array(0...255).map(UInt8.init)),
    ]

    @Test(arguments: values)
    func everyValueRoundTripsUnchanged(_ value: SQLValue) throws {
        let database = try Database(path: ":memory:")
        // A column without a declared type has no affinity, so SQLite stores each value exactly as bound.
        try database.execute("CREATE TABLE cell (value)")
        try database.execute("INSERT INTO cell (value) VALUES (?)", [value])
        let row = try #require(try database.queryOne("SELECT value, typeof(value) AS type FROM cell"))
        #expect(row["value"] == value)
        let expectedType = switch value {
        case .null: "null"
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        case .blob: "blob"
        }
        #expect(try row.string("type") == expectedType)
        // And as a parameter of a comparison, so the bound form equals the stored one.
        let matches = try database.query("SELECT 1 FROM cell WHERE value IS ?", [value])
        #expect(matches.count == 1)
    }

    @Test func typedAccessorsReadTheirTypeAndRejectOthers() throws {
        let database = try Database(path: ":memory:")
        let row = try #require(try database.queryOne(
            "SELECT 7 AS n, 2.5 AS r, 'text' AS t, x'0102' AS b, NULL AS missing, 1 AS flag"))
        #expect(try row.int("n") == 7)
        #expect(try row.double("r") == 2.5)
        #expect(try row.double("n") == 7)
        #expect(try row.string("t") == "text")
        #expect(try row.blob("b") == [1, 2])
        #expect(try row.bool("flag"))
        #expect(try row.optionalInt("missing") == nil)
        #expect(try row.optionalString("missing") == nil)
        #expect(row.columnNames == ["n", "r", "t", "b", "missing", "flag"])
        #expect(row[0] == .integer(7))

        #expect(storageError { _ = try row.int("t") }?.code == .typeMismatch)
        #expect(storageError { _ = try row.string("missing") }?.code == .typeMismatch)
        #expect(storageError { _ = try row.int("no_such_column") }?.code == .notFound)
        #expect(row["no_such_column"] == .null)
    }

    @Test func conveniencesBuildTheExpectedValues() {
        let count: Int = 3
        let missing: String? = nil
        #expect(SQLValue.integer(count) == .integer(3))
        #expect(SQLValue.integer(5) == .integer(Int64(5)))
        #expect(SQLValue.text(missing) == .null)
        #expect(SQLValue.text(Optional("a")) == .text("a"))
        #expect(SQLValue.blob(nil as [UInt8]?) == .null)
        #expect(SQLValue.bool(true) == .integer(1))
        let literals: [SQLValue] = [1, 2.5, "x", nil]
        #expect(literals == [.integer(1), .real(2.5), .text("x"), .null])
    }

    @Test func wrongNumberOfBindingsIsMisuse() throws {
        let database = try Database(path: ":memory:")
        try database.execute("CREATE TABLE t (a, b)")
        #expect(storageError { try database.execute("INSERT INTO t VALUES (?, ?)", [1]) }?.code == .misuse)
        #expect(storageError { try database.execute("INSERT INTO t VALUES (?, ?)", [1, 2, 3]) }?.code == .misuse)
        #expect(try database.query("SELECT * FROM t").isEmpty)
        // The cached statement must not keep a binding from the failed call.
        try database.execute("INSERT INTO t VALUES (?, ?)", [1, 2])
        #expect(try database.queryOne("SELECT a, b FROM t")?.values == [.integer(1), .integer(2)])
    }
}
