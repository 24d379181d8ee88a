/// Prepared statements kept per SQL text, so a service's few hot queries are parsed once.
///
/// Bounded: when full, the least recently used statement is finalized. Capacity is small (tens), so a linear scan
/// for the oldest entry on insertion costs less than maintaining a linked list.
struct StatementCache {
    private struct Entry {
        let statement: PreparedStatement
        var lastUse: UInt64
    }

    let capacity: Int
    private var entries: [String: Entry] = [:]
    private var clock: UInt64 = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var count: Int { entries.count }

    /// The SQL texts cached now (for tests).
    var cachedSQL: Set<String> { Set(entries.keys) }

    /// The cached statement for `sql`, marked as most recently used.
    mutating func statement(for sql: String) -> PreparedStatement? {
        guard entries[sql] != nil else { return nil }
        clock &+= 1
        entries[sql]!.lastUse = clock
        return entries[sql]!.statement
    }

    /// Caches `statement`, finalizing the least recently used one when full. With capacity 0 nothing is kept and the
    /// caller's reference is the only one (the statement is finalized when it goes away).
    mutating func insert(_ statement: PreparedStatement) {
        guard capacity > 0 else { return }
        if entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            // Dropped, not finalized here: the statement's deinit finalizes it once no caller holds it any more.
            entries.removeValue(forKey: oldest.key)
        }
        clock &+= 1
        entries[statement.sql] = Entry(statement: statement, lastUse: clock)
    }

    /// Finalizes every statement (before closing the connection).
    mutating func removeAll() {
        for entry in entries.values { entry.statement.finalize() }
        entries.removeAll()
    }
}
