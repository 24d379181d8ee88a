import Storage
import Synchronization
import Testing
import TestSupport

/// 50 clients race for the 3 places of one slot: read the count, insert if below capacity, in one IMMEDIATE
/// transaction. Exactly 3 must win and, with correct busy handling, none may fail with an error.
@Suite struct ConcurrentBookingTests {
    static let clients = 50
    static let capacity: Int64 = 3

    struct Tally: Sendable {
        var booked = 0
        var full = 0
        var errors: [String] = []
    }

    private func prepare(_ path: String) throws {
        try Database(path: path).migrate([
            Migration(version: 1, name: "bookings",
                      sql: "CREATE TABLE bookings (slot TEXT NOT NULL, client INTEGER NOT NULL UNIQUE)"),
        ])
    }

    private func book(_ database: Database, client: Int) throws -> Bool {
        try database.transaction(.immediate) { transaction in
            let taken = try transaction.queryOne("SELECT count(*) AS taken FROM bookings WHERE slot = ?",
                                                 ["monday 9:00"])!.int("taken")
            guard taken < Self.capacity else { return false }
            try transaction.execute("INSERT INTO bookings (slot, client) VALUES (?, ?)",
                                    ["monday 9:00", .integer(Int64(client))])
            return true
        }
    }

    private func race(_ databases: [Database]) -> Tally {
        let tally = Mutex(Tally())
        let finished = runOnThreads(Self.clients) { client in
            do {
                let booked = try book(databases[client % databases.count], client: client)
                tally.withLock { booked ? ($0.booked += 1) : ($0.full += 1) }
            } catch {
                tally.withLock { $0.errors.append(String(describing: error)) }
            }
        }
        #expect(finished)
        return tally.withLock { $0 }
    }

    @Test func oneDatabaseSharedByFiftyThreadsBooksExactlyThree() throws {
        let directory = try TemporaryDirectory("storage-tests")
        defer { directory.remove() }
        let path = directory.file("one.sqlite")
        try prepare(path)
        let database = try Database(path: path)

        let tally = race([database])
        #expect(tally.errors == [])
        #expect(tally.booked == 3)
        #expect(tally.full == Self.clients - 3)
        #expect(try database.queryOne("SELECT count(*) AS n FROM bookings")!.int("n") == 3)
    }

    @Test func twoDatabasesOnOneFileBookExactlyThree() throws {
        let directory = try TemporaryDirectory("storage-tests")
        defer { directory.remove() }
        let path = directory.file("two.sqlite")
        try prepare(path)
        // Two connections, each with its own lock: they meet only through SQLite's file locks, as two processes do.
        let first = try Database(path: path)
        let second = try Database(path: path)

        let tally = race([first, second])
        #expect(tally.errors == [])
        #expect(tally.booked == 3)
        #expect(tally.full == Self.clients - 3)
        #expect(try first.queryOne("SELECT count(*) AS n FROM bookings")!.int("n") == 3)
        #expect(try second.queryOne("SELECT count(*) AS n FROM bookings")!.int("n") == 3)
    }

    @Test func plainCallsFromManyThreadsAllLand() throws {
        let directory = try TemporaryDirectory("storage-tests")
        defer { directory.remove() }
        let database = try Database(path: directory.file("plain.sqlite"))
        try database.execute("CREATE TABLE events (thread INTEGER NOT NULL, n INTEGER NOT NULL)")
        let errors = Mutex<[String]>([])
        let finished = runOnThreads(16) { thread in
            for n in 0..<50 {
                do {
                    let id = try database.insert("INSERT INTO events VALUES (?, ?)",
                                                 [.integer(Int64(thread)), .integer(Int64(n))])
                    let row = try database.queryOne("SELECT thread, n FROM events WHERE rowid = ?", [.integer(id)])
                    if row?.values != [.integer(Int64(thread)), .integer(Int64(n))] {
                        errors.withLock { $0.append("rowid \(id) is not the row thread \(thread) inserted") }
                    }
                } catch {
                    errors.withLock { $0.append(String(describing: error)) }
                }
            }
        }
        #expect(finished)
        #expect(errors.withLock { $0 } == [])
        #expect(try database.queryOne("SELECT count(*) AS n FROM events")!.int("n") == 16 * 50)
    }
}
