import Storage
import Testing
import TestSupport

@Suite struct TransactionTests {
    struct BookingRejected: Error, Equatable {}

    private func database() throws -> Database {
        let database = try Database(path: ":memory:")
        try database.execute("CREATE TABLE bookings (id INTEGER PRIMARY KEY, client TEXT NOT NULL UNIQUE)")
        return database
    }

    private func count(_ database: Database) throws -> Int64 {
        try database.queryOne("SELECT count(*) AS n FROM bookings")!.int("n")
    }

    @Test func committedWorkIsVisibleAndTheBodyResultReturned() throws {
        let database = try database()
        let id = try database.transaction { transaction in
            try transaction.insert("INSERT INTO bookings (client) VALUES (?)", ["alice"])
        }
        #expect(try database.queryOne("SELECT client FROM bookings WHERE id = ?", [.integer(id)])?.string("client")
            == "alice")
    }

    @Test func aThrowingBodyRollsEverythingBackAndRethrows() throws {
        let database = try database()
        #expect(throws: BookingRejected.self) {
            try database.transaction { transaction in
                try transaction.execute("INSERT INTO bookings (client) VALUES (?)", ["alice"])
                try transaction.execute("INSERT INTO bookings (client) VALUES (?)", ["bob"])
                throw BookingRejected()
            }
        }
        #expect(try count(database) == 0)
        // The connection is out of the transaction: new work commits normally.
        try database.transaction { try $0.execute("INSERT INTO bookings (client) VALUES ('carol')") }
        #expect(try count(database) == 1)
    }

    @Test func aFailingStatementInsideRollsBackTheEarlierOnes() throws {
        let database = try database()
        let error = storageError {
            try database.transaction { transaction in
                try transaction.execute("INSERT INTO bookings (client) VALUES ('alice')")
                try transaction.execute("INSERT INTO bookings (client) VALUES ('alice')")
            }
        }
        #expect(error?.isUniqueViolation == true)
        #expect(try count(database) == 0)
    }

    @Test func aNestedTransactionIsMisuseNotADeadlock() throws {
        let database = try database()
        let error = storageError {
            try database.transaction { transaction in
                try transaction.execute("INSERT INTO bookings (client) VALUES ('alice')")
                try database.transaction { try $0.execute("INSERT INTO bookings (client) VALUES ('bob')") }
            }
        }
        #expect(error?.code == .misuse)
        #expect(try count(database) == 0)
    }

    @Test func usingTheDatabaseInsideABodyIsMisuse() throws {
        let database = try database()
        let error = storageError {
            try database.transaction { _ in
                _ = try database.query("SELECT * FROM bookings")
            }
        }
        #expect(error?.code == .misuse)
        #expect(try database.query("SELECT * FROM bookings").isEmpty)
    }

    @Test func anEscapedHandleIsRefusedAfterTheTransaction() throws {
        let database = try database()
        // Returning the handle does not compile (the result is `sending`); stashing it in a variable does.
        var escaped: Transaction?
        try database.transaction { transaction in escaped = transaction }
        let error = storageError { try escaped?.execute("INSERT INTO bookings (client) VALUES ('mallory')") }
        #expect(error?.code == .misuse)
        #expect(try count(database) == 0)
    }

    @Test func aBodyThatCommitsByItselfIsReported() throws {
        let database = try database()
        let error = storageError {
            try database.transaction { _ = try $0.execute("COMMIT") }
        }
        #expect(error?.code == .misuse)
        // Still usable afterwards.
        try database.transaction { try $0.execute("INSERT INTO bookings (client) VALUES ('alice')") }
        #expect(try count(database) == 1)
    }

    @Test func closingInsideABodyClosesAfterTheCommit() throws {
        let directory = try TemporaryDirectory("storage-tests")
        defer { directory.remove() }
        let path = directory.file("close.sqlite")
        let database = try Database(path: path)
        try database.execute("CREATE TABLE bookings (client TEXT)")
        try database.transaction { transaction in
            try transaction.execute("INSERT INTO bookings VALUES ('alice')")
            database.close()
        }
        #expect(database.isClosed)
        #expect(try Database(path: path).queryOne("SELECT client FROM bookings")?.string("client") == "alice")
    }

    @Test func deferredTransactionsCommitToo() throws {
        let database = try database()
        try database.transaction(.deferred) { try $0.execute("INSERT INTO bookings (client) VALUES ('a')") }
        try database.transaction(.exclusive) { try $0.execute("INSERT INTO bookings (client) VALUES ('b')") }
        #expect(try count(database) == 2)
    }
}
