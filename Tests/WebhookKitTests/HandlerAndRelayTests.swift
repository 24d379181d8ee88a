import Foundation
import KYCCore
import KYCMessages
import Messaging
import Storage
import Testing
import Webhooks
import ZeroMQ
@testable import WebhookKit
import TestSupport

private func router(_ store: WebhookStore, _ clock: ManualClock) -> ServiceRouter {
    var router = ServiceRouter(service: WebhookHandlers.service, logger: quietLogger())
    WebhookHandlers.register(on: &router, store: store, clock: clock.clock)
    return router
}

private func call(_ router: ServiceRouter, _ method: String, tenant: String = "acme", kind: PrincipalKind = .apiKey,
                  _ payload: [UInt8]) -> ReplyEnvelope {
    router.handle(RequestEnvelope(requestID: "r", tenant: tenant, principal: Principal(kind: kind, id: "key_1"),
                                  method: method, payload: payload))
}

@Suite struct HandlerTests {
    @Test func setEndpointValidatesTheURLAndIssuesANewSecretEachTime() throws {
        let clock = ManualClock()
        let directory = try TemporaryDirectory("webhooks-test")
        defer { directory.remove() }
        let store = try WebhookStore(path: directory.file("webhooks.sqlite"))
        let router = router(store, clock)
        for bad in ["", "ftp://example.com/x", "/relative", "example.com/hook", "http://", "http://user:pw@h/x",
                    "https://h/x#frag", "https://h/a b", String(repeating: "a", count: 3_000)] {
            let reply = call(router, WebhookHandlers.setEndpoint, SetEndpointRequest(url: bad).serialized())
            #expect(reply.status == .invalidArgument, "\(bad)")
            #expect(reply.violations.first?.field == "url")
        }
        let first = call(router, WebhookHandlers.setEndpoint,
                         SetEndpointRequest(url: "https://hooks.example.com/kyc").serialized())
        #expect(first.status == .ok)
        let secret1 = try SetEndpointReply(serialized: first.payload).secret
        let second = call(router, WebhookHandlers.setEndpoint,
                          SetEndpointRequest(url: "http://10.0.0.5:8080/kyc").serialized())
        let secret2 = try SetEndpointReply(serialized: second.payload).secret
        #expect(secret1.hasPrefix("whsec_") && secret2.hasPrefix("whsec_") && secret1 != secret2)
        let shown = call(router, WebhookHandlers.getEndpoint, [])
        let endpoint = try GetEndpointReply(serialized: shown.payload)
        #expect(endpoint.url == "http://10.0.0.5:8080/kyc")
        #expect(!shown.payload.contains(Array(secret2.utf8)))
        // Another tenant has none.
        #expect(call(router, WebhookHandlers.getEndpoint, tenant: "globex", []).status == .notFound)
        // Garbage payloads are refused, not crashes.
        #expect(call(router, WebhookHandlers.setEndpoint, [0xFF, 0xFF, 0xFF]).status == .invalidArgument)
    }

    @Test func publishIsForServicesOnlyAndIdempotentPerEvent() throws {
        let clock = ManualClock()
        let directory = try TemporaryDirectory("webhooks-test")
        defer { directory.remove() }
        let store = try WebhookStore(path: directory.file("webhooks.sqlite"))
        let router = router(store, clock)
        _ = try store.setEndpoint(tenant: "acme", url: "http://127.0.0.1:9/x", now: clock.value)
        let event = publishRequest(occurredAt: clock.value).serialized()
        #expect(call(router, WebhookHandlers.publish, kind: .apiKey, event).status == .permissionDenied)
        #expect(call(router, WebhookHandlers.publish, kind: .session, event).status == .permissionDenied)

        let first = try PublishReply(serialized: call(router, WebhookHandlers.publish, kind: .unspecified, event).payload)
        let again = try PublishReply(serialized: call(router, WebhookHandlers.publish, kind: .unspecified, event).payload)
        #expect(first.created && !first.deliveryID.isEmpty)
        #expect(!again.created && again.deliveryID == first.deliveryID)
        #expect(try store.database.queryOne("SELECT count(*) AS n FROM deliveries")?.int("n") == 1)
        // The same event id from another tenant is a conflict, never a delivery to the wrong customer.
        let stolen = call(router, WebhookHandlers.publish, tenant: "globex", kind: .unspecified, event)
        #expect(stolen.status == .alreadyExists)
        // A tenant without an endpoint: the event is kept, nothing is delivered.
        let orphan = try PublishReply(serialized: call(router, WebhookHandlers.publish, tenant: "initech",
                                                       kind: .unspecified,
                                                       publishRequest(occurredAt: clock.value).serialized()).payload)
        #expect(orphan.created && orphan.deliveryID.isEmpty)

        for (bad, field) in [(publishRequest("nope", occurredAt: 1), "eventId"),
                             (publishRequest(type: "Bad Type", occurredAt: 1), "type"),
                             (publishRequest(data: "[1]", occurredAt: 1), "data"),
                             (publishRequest(occurredAt: 0), "occurredAtUnixMs")] {
            let reply = call(router, WebhookHandlers.publish, kind: .unspecified, bad.serialized())
            #expect(reply.status == .invalidArgument)
            #expect(reply.violations.first?.field == field)
        }
    }

    @Test func deliveriesAreTenantScopedPagedAndFiltered() throws {
        let clock = ManualClock()
        let directory = try TemporaryDirectory("webhooks-test")
        defer { directory.remove() }
        let store = try WebhookStore(path: directory.file("webhooks.sqlite"))
        let router = router(store, clock)
        _ = try store.setEndpoint(tenant: "acme", url: "http://127.0.0.1:9/x", now: clock.value)
        _ = try store.setEndpoint(tenant: "globex", url: "http://127.0.0.1:9/y", now: clock.value)
        var ids: [String] = []
        for index in 0..<5 {
            let type = index % 2 == 0 ? "signing.completed" : "kyb.updated"
            ids.append(try store.publish(tenant: "acme", publishRequest(type: type, occurredAt: clock.value),
                                         now: clock.value).deliveryID)
        }
        let other = try store.publish(tenant: "globex", publishRequest(occurredAt: clock.value), now: clock.value)

        func list(_ request: ListDeliveriesRequest, tenant: String = "acme") throws -> ListDeliveriesReply {
            let reply = call(router, WebhookHandlers.listDeliveries, tenant: tenant, request.serialized())
            #expect(reply.status == .ok)
            return try ListDeliveriesReply(serialized: reply.payload)
        }
        let page1 = try list(ListDeliveriesRequest(limit: 2))
        #expect(page1.deliveries.map(\.deliveryID) == [ids[4], ids[3]])
        let page2 = try list(ListDeliveriesRequest(limit: 2, cursor: page1.nextCursor))
        #expect(page2.deliveries.map(\.deliveryID) == [ids[2], ids[1]])
        let page3 = try list(ListDeliveriesRequest(limit: 2, cursor: page2.nextCursor))
        #expect(page3.deliveries.map(\.deliveryID) == [ids[0]])
        #expect(page3.nextCursor.isEmpty)
        #expect(try list(ListDeliveriesRequest(eventType: "kyb.updated")).deliveries.map(\.deliveryID) == [ids[3], ids[1]])
        #expect(try list(ListDeliveriesRequest(status: "delivered")).deliveries.isEmpty)
        #expect(try list(ListDeliveriesRequest(), tenant: "globex").deliveries.map(\.deliveryID) == [other.deliveryID])

        for bad in [ListDeliveriesRequest(status: "lost"), ListDeliveriesRequest(limit: 101),
                    ListDeliveriesRequest(limit: -1), ListDeliveriesRequest(cursor: "zzz")] {
            #expect(call(router, WebhookHandlers.listDeliveries, bad.serialized()).status == .invalidArgument)
        }
        // Redelivering another tenant's delivery is not found, as is an unknown id.
        let foreign = call(router, WebhookHandlers.redeliver, RedeliverRequest(deliveryID: other.deliveryID).serialized())
        #expect(foreign.status == .notFound)
        #expect(foreign.errorCode == "delivery_not_found")
        #expect(call(router, WebhookHandlers.redeliver, RedeliverRequest(deliveryID: "dlv_x").serialized()).status
            == .notFound)
        let mine = call(router, WebhookHandlers.redeliver, RedeliverRequest(deliveryID: ids[0]).serialized())
        #expect(mine.status == .ok)
        #expect(try RedeliverReply(serialized: mine.payload).delivery.deliveryID == ids[0])
    }

    @Test func retryScheduleDoublesToTheCapWithBoundedJitter() {
        let schedule = RetrySchedule()
        #expect((1...12).map { schedule.baseDelay(afterFailedAttempts: $0) }
            == [5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 640_000, 1_280_000, 2_560_000,
                3_600_000, 3_600_000])
        #expect(schedule.baseDelay(afterFailedAttempts: 10_000) == 3_600_000)
        #expect(schedule.decision(afterFailedAttempts: 1, now: 0, windowStart: 0, random: 0) == .retry(at: 4_000))
        #expect(schedule.decision(afterFailedAttempts: 1, now: 0, windowStart: 0, random: 0.999_999)
            == .retry(at: 5_999))
        #expect(schedule.decision(afterFailedAttempts: 20, now: 23 * 3_600_000, windowStart: 0, random: 0.5)
            == .retry(at: 24 * 3_600_000))
        #expect(schedule.decision(afterFailedAttempts: 20, now: 23 * 3_600_000 + 1, windowStart: 0, random: 0.5)
            == .deadLetter)
    }
}

@Suite struct RelayToWebhookServiceTests {
    /// The relay of a service forwards its outbox to the real WebhookService handlers through the broker's client
    /// endpoint; the same event relayed twice (a crash between Publish and marking it) yields one delivery.
    @Test func sameEventRelayedTwiceGivesOneDelivery() throws {
        let context = try ZMQContext()
        var brokerConfiguration = BrokerConfiguration(workerEndpoint: "tcp://127.0.0.1:*")
        brokerConfiguration.heartbeatIntervalMilliseconds = 100
        let broker = try Broker(configuration: brokerConfiguration, context: context, logger: quietLogger())
        try broker.start()
        defer { broker.stop() }

        let clock = ManualClock()
        let directory = try TemporaryDirectory("webhooks-test")
        defer { directory.remove() }
        let webhookStore = try WebhookStore(path: directory.file("webhooks.sqlite"))
        _ = try webhookStore.setEndpoint(tenant: "acme", url: "http://127.0.0.1:9/hook", now: clock.value)
        var workerConfiguration = ServiceWorkerConfiguration(service: "webhook", brokerEndpoint: broker.endpoint!,
                                                             threads: 1)
        workerConfiguration.heartbeatIntervalMilliseconds = 100
        let worker = try ServiceWorker(configuration: workerConfiguration, router: router(webhookStore, clock),
                                       logger: quietLogger(), context: context)
        try worker.start()
        defer { worker.stop() }

        let serviceDatabase = try Database(path: ":memory:")
        try serviceDatabase.migrate([Migration(version: 1, name: "outbox", sql: Outbox.schemaSQL)])
        let eventID = try serviceDatabase.transaction { tx in
            try Outbox.enqueue(tx, tenant: "acme", type: "signing.completed", payload: Array(#"{"r":"x"}"#.utf8))
        }
        var relayConfiguration = OutboxRelayConfiguration()
        relayConfiguration.pollIntervalMilliseconds = 20
        relayConfiguration.retryInitialMilliseconds = 20
        let relay = OutboxRelay(database: serviceDatabase, service: "signing", clientEndpoint: broker.clientEndpoint!,
                                logger: quietLogger(), configuration: relayConfiguration, context: context)
        relay.start()
        defer { relay.stop() }
        func waitUntilRelayed() throws -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if try Outbox.unrelayedCount(serviceDatabase) == 0 { return true }
                usleep(5_000)
            }
            return false
        }
        #expect(try waitUntilRelayed())
        // As if the service died after WebhookService acknowledged but before the relay marked the event.
        try serviceDatabase.execute("UPDATE webhook_outbox SET relayed_at_ms = NULL")
        relay.wake()
        #expect(try waitUntilRelayed())
        // At least two publishes reached WebhookService (more when a slow machine made the relay retry one).
        #expect(try serviceDatabase.queryOne("SELECT relay_attempts FROM webhook_outbox")?.int("relay_attempts") ?? 0 >= 2)

        let deliveries = try webhookStore.listDeliveries(tenant: "acme", ListDeliveriesRequest())
        #expect(deliveries.deliveries.count == 1)
        #expect(deliveries.deliveries.first?.eventID == eventID)
        #expect(deliveries.deliveries.first?.eventType == "signing.completed")
        #expect(try webhookStore.database.queryOne("SELECT count(*) AS n FROM events")?.int("n") == 1)
    }
}
