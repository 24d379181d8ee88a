@testable import Storage
import Testing

@Suite struct StatementCacheTests {
    @Test func theLeastRecentlyUsedStatementIsDroppedFirst() throws {
        let database = try Database(path: ":memory:", options: DatabaseOptions(statementCacheCapacity: 2))
        _ = try database.query("SELECT 1")
        _ = try database.query("SELECT 2")
        _ = try database.query("SELECT 1")  // now 2 is the least recently used
        _ = try database.query("SELECT 3")
        let cached = try database.withConnection("test") { $0.cachedStatementSQL }
        #expect(cached == ["SELECT 1", "SELECT 3"])
    }
}
