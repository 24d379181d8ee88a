import Foundation
import KYCCore
import KYCMessages
import Messaging
import Storage
import Synchronization
import Testing
import ZeroMQ
@testable import Webhooks

/// A stand-in WebhookService: records every Publish; refuses types listed in `refuse` as invalid.
final class PublishRecorder: Sendable {
    let received = Mutex<[(tenant: String, principal: Principal, request: PublishRequest)]>([])
    let refuse: Set<String>

    init(refuse: Set<String> = []) { self.refuse = refuse }

    func router() -> ServiceRouter {
        var router = ServiceRouter(service: "webhook", logger: Logger(service: "test", level: .critical))
        router.register("webhook.Publish") { [self] envelope in
            let request = try PublishRequest(serialized: envelope.payload)
            if refuse.contains(request.type) {
                throw ServiceError.invalidArgument(field: "type", code: "invalid_event_type", message: "refused")
            }
            received.withLock { $0.append((envelope.tenant, envelope.principal, request)) }
            return PublishReply(created: true, deliveryID: "dlv_test").serialized()
        }
        return router
    }

    var eventIDs: [String] { received.withLock { $0.map(\.request.eventID) } }
}

/// A broker with a client endpoint on free loopback ports, and (on demand) one stand-in webhook worker.
final class RelayRig {
    let context: ZMQContext
    let broker: Broker
    var worker: ServiceWorker?

    init() throws {
        context = try ZMQContext()
        var configuration = BrokerConfiguration(workerEndpoint: "tcp://127.0.0.1:*")
        configuration.heartbeatIntervalMilliseconds = 100
        broker = try Broker(configuration: configuration, context: context,
                            logger: Logger(service: "test", level: .critical))
        try broker.start()
    }

    func startWorker(_ recorder: PublishRecorder) throws {
        var configuration = ServiceWorkerConfiguration(service: "webhook", brokerEndpoint: broker.endpoint!, threads: 1)
        configuration.heartbeatIntervalMilliseconds = 100
        configuration.reconnectInitialMilliseconds = 50
        let worker = try ServiceWorker(configuration: configuration, router: recorder.router(),
                                       logger: Logger(service: "test", level: .critical), context: context)
        try worker.start()
        self.worker = worker
        #expect(waitFor { self.broker.stats().workersByService["webhook"] == 1 })
    }

    func relay(_ database: Database) -> OutboxRelay {
        var configuration = OutboxRelayConfiguration()
        configuration.pollIntervalMilliseconds = 20
        configuration.retryInitialMilliseconds = 20
        configuration.retryMaxMilliseconds = 100
        configuration.requestTimeoutMilliseconds = 1_000
        return OutboxRelay(database: database, service: "things", clientEndpoint: broker.clientEndpoint!,
                           logger: Logger(service: "test", level: .critical), configuration: configuration,
                           context: context)
    }

    func stop() {
        worker?.stop()
        broker.stop()
    }
}

/// Polls `condition` until it holds or `seconds` pass.
func waitFor(seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(5_000)
    }
    return try condition()
}

func enqueue(_ database: Database, tenant: String = "acme", type: String = "thing.created", data: String = "{}")
    throws -> String {
    try database.transaction { tx in
        try Outbox.enqueue(tx, tenant: tenant, type: type, payload: Array(data.utf8))
    }
}

@Suite struct OutboxRelayTests {
    @Test func relayForwardsEventsInOrderAndMarksThemRelayed() throws {
        let rig = try RelayRig()
        defer { rig.stop() }
        let recorder = PublishRecorder()
        try rig.startWorker(recorder)
        let database = try outboxDatabase()
        let first = try enqueue(database, tenant: "acme", data: #"{"n":1}"#)
        let second = try enqueue(database, tenant: "globex", data: #"{"n":2}"#)
        let relay = rig.relay(database)
        relay.start()
        defer { relay.stop() }
        #expect(try waitFor { try Outbox.unrelayedCount(database) == 0 })
        #expect(recorder.eventIDs == [first, second])
        let received = recorder.received.withLock { $0 }
        #expect(received.map(\.tenant) == ["acme", "globex"])
        #expect(received[0].request.data == Array(#"{"n":1}"#.utf8))
        #expect(received[0].request.type == "thing.created")
        #expect(received[0].request.sourceService == "things")
        #expect(received[0].request.occurredAtUnixMs > 0)
        #expect(received[0].principal.kind == .unspecified)

        // Later events are picked up too (woken at once).
        let third = try enqueue(database)
        relay.wake()
        #expect(try waitFor { try Outbox.unrelayedCount(database) == 0 })
        #expect(recorder.eventIDs == [first, second, third])
        #expect(try database.queryOne("SELECT count(*) AS n FROM webhook_outbox WHERE relayed_at_ms IS NOT NULL")?
            .int("n") == 3)
    }

    @Test func relayKeepsEventsWhileWebhookServiceIsDownAndSendsThemWhenItComes() throws {
        let rig = try RelayRig()
        defer { rig.stop() }
        let database = try outboxDatabase()
        let id = try enqueue(database)
        let relay = rig.relay(database)
        relay.start()
        defer { relay.stop() }
        // No webhook worker: the Publish fails (UNAVAILABLE), the event stays, the failure is recorded.
        #expect(try waitFor {
            try database.queryOne("SELECT relay_attempts FROM webhook_outbox")?.int("relay_attempts") ?? 0 >= 2
        })
        #expect(try Outbox.unrelayedCount(database) == 1)
        #expect(try database.queryOne("SELECT last_error FROM webhook_outbox")?.optionalString("last_error") != nil)

        let recorder = PublishRecorder()
        try rig.startWorker(recorder)
        #expect(try waitFor { try Outbox.unrelayedCount(database) == 0 })
        #expect(recorder.eventIDs == [id])
    }

    @Test func refusedEventIsSetAsideAndDoesNotBlockTheRest() throws {
        let rig = try RelayRig()
        defer { rig.stop() }
        let recorder = PublishRecorder(refuse: ["bad.event"])
        try rig.startWorker(recorder)
        let database = try outboxDatabase()
        let bad = try enqueue(database, type: "bad.event")
        let good = try enqueue(database)
        let relay = rig.relay(database)
        relay.start()
        defer { relay.stop() }
        #expect(try waitFor { try Outbox.unrelayedCount(database) == 0 })
        #expect(recorder.eventIDs == [good])
        let row = try #require(try database.queryOne("SELECT * FROM webhook_outbox WHERE event_id = ?", [.text(bad)]))
        #expect(try row.optionalInt("rejected_at_ms") != nil)
        #expect(try row.optionalInt("relayed_at_ms") == nil)
        #expect(try row.optionalString("last_error")?.contains("invalid_event_type") == true)
    }

    @Test func stopIsIdempotentAndStartAfterStopDoesNothing() throws {
        let rig = try RelayRig()
        defer { rig.stop() }
        let database = try outboxDatabase()
        let relay = rig.relay(database)
        relay.start()
        relay.stop()
        relay.stop()
        relay.start()
        _ = try enqueue(database)
        usleep(100_000)  // a started relay (polling every 20 ms) would have tried by now
        #expect(try database.queryOne("SELECT relay_attempts FROM webhook_outbox")?.int("relay_attempts") == 0)
    }
}
