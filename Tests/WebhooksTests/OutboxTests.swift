import Foundation
import Storage
import Testing
@testable import Webhooks

func outboxDatabase() throws -> Database {
    let database = try Database(path: ":memory:")
    try database.migrate([Migration(version: 1, name: "state and outbox", sql: """
        CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        \(Outbox.schemaSQL)
        """)])
    return database
}

@Suite struct OutboxTests {
    @Test func eventCommitsWithTheStateChange() throws {
        let database = try outboxDatabase()
        let id = try database.transaction { tx in
            try tx.execute("INSERT INTO things (name) VALUES ('a')")
            return try Outbox.enqueue(tx, tenant: "acme", type: "thing.created", payload: Array(#"{"id":1}"#.utf8),
                                      now: 1_234)
        }
        #expect(WebhookIdentifier.isWellFormed(id, prefix: "evt"))
        let row = try #require(try database.queryOne("SELECT * FROM webhook_outbox"))
        #expect(try row.string("event_id") == id)
        #expect(try row.string("tenant") == "acme")
        #expect(try row.string("type") == "thing.created")
        #expect(try row.blob("payload") == Array(#"{"id":1}"#.utf8))
        #expect(try row.int("created_at_ms") == 1_234)
        #expect(try row.optionalInt("relayed_at_ms") == nil)
        #expect(try Outbox.unrelayedCount(database) == 1)
    }

    @Test func eventRollsBackWithTheStateChange() throws {
        struct Boom: Error {}
        let database = try outboxDatabase()
        #expect(throws: Boom.self) {
            try database.transaction { tx in
                try tx.execute("INSERT INTO things (name) VALUES ('a')")
                try Outbox.enqueue(tx, tenant: "acme", type: "thing.created", payload: Array("{}".utf8))
                throw Boom()
            }
        }
        #expect(try Outbox.unrelayedCount(database) == 0)
        #expect(try database.queryOne("SELECT count(*) AS n FROM things")?.int("n") == 0)
    }

    @Test func invalidEventThrowsAndLeavesNothingHalfWritten() throws {
        let database = try outboxDatabase()
        let cases: [(String, String, [UInt8], OutboxError.Code)] = [
            ("", "thing.created", Array("{}".utf8), .invalidTenant),
            ("acme", "Thing", Array("{}".utf8), .invalidType),
            ("acme", "thing", Array("{}".utf8), .invalidType),
            ("acme", "thing..created", Array("{}".utf8), .invalidType),
            ("acme", "thing.created", Array("[1]".utf8), .invalidPayload),
            ("acme", "thing.created", Array("{".utf8), .invalidPayload),
            ("acme", "thing.created", [0xFF, 0xFE], .invalidPayload),
            ("acme", "thing.created", Array(repeating: 0x20, count: Outbox.maxPayloadBytes + 1), .payloadTooLarge),
        ]
        for (tenant, type, payload, code) in cases {
            let error = #expect(throws: OutboxError.self) {
                try database.transaction { tx in
                    try tx.execute("INSERT INTO things (name) VALUES ('a')")
                    try Outbox.enqueue(tx, tenant: tenant, type: type, payload: payload)
                }
            }
            #expect(error?.code == code)
        }
        #expect(try database.queryOne("SELECT count(*) AS n FROM things")?.int("n") == 0)
        #expect(try database.queryOne("SELECT count(*) AS n FROM webhook_outbox")?.int("n") == 0)
    }

    @Test func enqueueWithoutTheTableFailsTheTransaction() throws {
        let database = try Database(path: ":memory:")
        #expect(throws: (any Error).self) {
            try database.transaction { tx in
                try Outbox.enqueue(tx, tenant: "acme", type: "thing.created", payload: Array("{}".utf8))
            }
        }
    }
}
