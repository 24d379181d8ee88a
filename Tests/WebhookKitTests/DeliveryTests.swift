import Foundation
import KYCCore
import KYCMessages
import Messaging
import Storage
import Testing
import Webhooks
@testable import WebhookKit
import TestSupport

@Suite struct DeliveryTests {
    @Test func failedAttemptsAreRetriedWithBackOffThenTheSignedBytesAreDelivered() throws {
        let receiver = try WebhookReceiver(statuses: [500, 502, 204])
        defer { receiver.stop() }
        let clock = ManualClock()
        let directory = try TemporaryDirectory("webhooks-test")
        defer { directory.remove() }
        let store = try WebhookStore(path: directory.file("webhooks.sqlite"))
        let secret = try store.setEndpoint(tenant: "acme", url: receiver.url, now: clock.value).secret
        let event = publishRequest(occurredAt: clock.value)
        let published = try store.publish(tenant: "acme", event, now: clock.value)
        #expect(published.created)
        let sender = dispatcher(store, clock)

        #expect(try sender.deliverDue() == 1)  // attempt 1: 500
        #expect(try sender.deliverDue() == 0)  // not due again yet
        clock.advance(by: 4_999)
        #expect(try sender.deliverDue() == 0)
        clock.advance(by: 1)  // 5 s after the first failure (jitter factor 1.0 with random 0.5)
        #expect(try sender.deliverDue() == 1)  // attempt 2: 502
        clock.advance(by: 9_999)
        #expect(try sender.deliverDue() == 0)
        clock.advance(by: 1)  // 10 s after the second failure
        #expect(try sender.deliverDue() == 1)  // attempt 3: 204
        clock.advance(by: 3_600_000)
        #expect(try sender.deliverDue() == 0)  // delivered: never sent again

        let received = receiver.received
        #expect(received.count == 3)
        let expectedBody = Array(#"{"type":"signing.completed","timestamp":""#.utf8)
            + Array(UTCTimestamp.iso8601(milliseconds: event.occurredAtUnixMs).utf8) + Array(#"","data":{"reference":"ref-1"}}"#.utf8)
        for request in received {
            #expect(request.body == expectedBody)
            #expect(request.headers["content-type"] == "application/json")
            #expect(request.headers["webhook-id"] == event.eventID)
            let timestamp = try #require(request.headers["webhook-timestamp"].flatMap { Int64($0) })
            let signature = try #require(request.headers["webhook-signature"])
            #expect(WebhookSignature.verify(secret: secret, id: event.eventID, timestamp: timestamp,
                                            body: request.body, signatureHeader: signature, now: timestamp))
            #expect(!WebhookSignature.verify(secret: secret, id: event.eventID, timestamp: timestamp,
                                             body: request.body + [0x20], signatureHeader: signature,
                                             now: timestamp))
        }
        // Each attempt is signed afresh with its own time: the first, 5 s and 15 s after the event.
        let start = event.occurredAtUnixMs / 1000
        #expect(received.compactMap { $0.headers["webhook-timestamp"].flatMap { Int64($0) } }
            == [start, start + 5, start + 15])
        // The body is valid JSON a receiver can parse.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(received[2].body)) as? [String: Any])
        #expect(json["type"] as? String == "signing.completed")
        #expect((json["data"] as? [String: Any])?["reference"] as? String == "ref-1")

        let delivery = try #require(try store.delivery(tenant: "acme", id: published.deliveryID))
        #expect(delivery.status == "delivered")
        #expect(delivery.attemptCount == 3)
        #expect(delivery.attempts.map(\.httpStatus) == [500, 502, 204])
        #expect(delivery.attempts.map(\.error) == ["http_500", "http_502", ""])
        #expect(delivery.attempts.map(\.url) == [receiver.url, receiver.url, receiver.url])
        #expect(delivery.deliveredAtUnixMs == clock.value - 3_600_000)
        #expect(delivery.nextAttemptAtUnixMs == 0)
    }

    @Test func deliveryIsDeadLetteredAfterTheRetryWindowAndCanBeRedelivered() throws {
        let receiver = try WebhookReceiver(statuses: [503])
        defer { receiver.stop() }
        let clock = ManualClock()
        let directory = try TemporaryDirectory("webhooks-test")
        defer { directory.remove() }
        let store = try WebhookStore(path: directory.file("webhooks.sqlite"))
        _ = try store.setEndpoint(tenant: "acme", url: receiver.url, now: clock.value)
        let eventTime = clock.value
        let published = try store.publish(tenant: "acme", publishRequest(occurredAt: eventTime), now: clock.value)
        let sender = dispatcher(store, clock)

        var rounds = 0
        while rounds < 100 {
            rounds += 1
            #expect(try sender.deliverDue() == 1)
            let delivery = try #require(try store.delivery(tenant: "acme", id: published.deliveryID))
            if delivery.status != "pending" { break }
            #expect(delivery.nextAttemptAtUnixMs > clock.value)
            clock.advance(to: delivery.nextAttemptAtUnixMs)
        }
        let dead = try #require(try store.delivery(tenant: "acme", id: published.deliveryID))
        #expect(dead.status == "dead_letter")
        // Independently: 5 s doubling to a 1 h cap, retried while the next attempt lies within 24 h of the event.
        var expectedAttempts = 1
        var time: Int64 = 0
        var delay: Int64 = 5_000
        while time + delay <= 24 * 3_600_000 {
            time += delay
            expectedAttempts += 1
            delay = min(delay * 2, 3_600_000)
        }
        #expect(Int(dead.attemptCount) == expectedAttempts)
        #expect(receiver.received.count == expectedAttempts)
        #expect(dead.attempts.last!.attemptedAtUnixMs - eventTime <= 24 * 3_600_000)
        clock.advance(by: 48 * 3_600_000)
        #expect(try sender.deliverDue() == 0)  // dead letters are never retried by themselves

        // Listed under its status.
        let deadList = try store.listDeliveries(tenant: "acme", ListDeliveriesRequest(status: "dead_letter"))
        #expect(deadList.deliveries.map(\.deliveryID) == [published.deliveryID])
        #expect(try store.listDeliveries(tenant: "acme", ListDeliveriesRequest(status: "pending")).deliveries.isEmpty)

        // Redeliver: pending again, due now, and delivered when the endpoint is back.
        receiver.setStatuses([200])
        let requeued = try store.redeliver(tenant: "acme", id: published.deliveryID, now: clock.value)
        #expect(requeued.status == "pending")
        #expect(requeued.nextAttemptAtUnixMs == clock.value)
        #expect(try sender.deliverDue() == 1)
        let delivered = try #require(try store.delivery(tenant: "acme", id: published.deliveryID))
        #expect(delivered.status == "delivered")
        #expect(Int(delivered.attemptCount) == expectedAttempts + 1)
    }

    @Test func connectionFailuresAndTimeoutsAreFailedAttempts() throws {
        let clock = ManualClock()
        let directory = try TemporaryDirectory("webhooks-test")
        defer { directory.remove() }
        let store = try WebhookStore(path: directory.file("webhooks.sqlite"))
        // A port nothing listens on.
        let closed = try WebhookReceiver(statuses: [200])
        let closedURL = closed.url
        closed.stop()
        _ = try store.setEndpoint(tenant: "acme", url: closedURL, now: clock.value)
        let first = try store.publish(tenant: "acme", publishRequest(occurredAt: clock.value), now: clock.value)
        let sender = dispatcher(store, clock, timeoutMilliseconds: 500)
        #expect(try sender.deliverDue() == 1)
        let refused = try #require(try store.delivery(tenant: "acme", id: first.deliveryID))
        #expect(refused.status == "pending")
        #expect(refused.attempts.first?.httpStatus == 0)
        #expect(refused.attempts.first?.error == "connection_failed")

        let hanging = try WebhookReceiver(statuses: [200])
        defer { hanging.stop() }
        hanging.box.hang.store(true, ordering: .relaxed)
        _ = try store.setEndpoint(tenant: "globex", url: hanging.url, now: clock.value)
        let second = try store.publish(tenant: "globex", publishRequest(occurredAt: clock.value), now: clock.value)
        #expect(try sender.deliverDue() == 1)
        let timedOut = try #require(try store.delivery(tenant: "globex", id: second.deliveryID))
        #expect(timedOut.status == "pending")
        #expect(timedOut.attempts.first?.error == "timeout")
        #expect(timedOut.nextAttemptAtUnixMs > clock.value)
    }

    @Test func pendingDeliveriesSurviveARestart() throws {
        let receiver = try WebhookReceiver(statuses: [500, 200])
        defer { receiver.stop() }
        let clock = ManualClock()
        let directory = try TemporaryDirectory("webhooks-test")
        defer { directory.remove() }
        let path = directory.file("webhooks.sqlite")
        var store = try WebhookStore(path: path)
        let secret = try store.setEndpoint(tenant: "acme", url: receiver.url, now: clock.value).secret
        let published = try store.publish(tenant: "acme", publishRequest(occurredAt: clock.value), now: clock.value)
        // A second event is claimed by a dispatcher that then dies mid-attempt (claimed, never recorded).
        let orphan = try store.publish(tenant: "acme", publishRequest(occurredAt: clock.value), now: clock.value)
        #expect(try dispatcher(store, clock).deliverDue(limit: 1) == 1)  // the first: 500, retry in 5 s
        let claimed = try store.claimDue(now: clock.value, limit: 10, leaseMilliseconds: 60_000)
        #expect(claimed.map(\.deliveryID) == [orphan.deliveryID])
        store.close()

        // A new process: new store and dispatcher on the same file.
        store = try WebhookStore(path: path)
        let restarted = dispatcher(store, clock)
        clock.advance(by: 5_000)
        #expect(try restarted.deliverDue() == 1)  // the retry is due; the orphan's lease still runs
        clock.advance(by: 55_000)
        #expect(try restarted.deliverDue() == 1)  // the lease ran out: the orphan is attempted
        for id in [published.deliveryID, orphan.deliveryID] {
            #expect(try store.delivery(tenant: "acme", id: id)?.status == "delivered")
        }
        #expect(try store.endpoint(tenant: "acme")?.secret == secret)
        store.close()
    }

    @Test func dispatcherThreadsDeliverOnTheirOwn() throws {
        let receiver = try WebhookReceiver(statuses: [500, 200])
        defer { receiver.stop() }
        let directory = try TemporaryDirectory("webhooks-test")
        defer { directory.remove() }
        let store = try WebhookStore(path: directory.file("webhooks.sqlite"))
        _ = try store.setEndpoint(tenant: "acme", url: receiver.url, now: WallClockForTests.now())
        var configuration = WebhookDispatcherConfiguration()
        configuration.retry = RetrySchedule(initialDelayMilliseconds: 50, maxDelayMilliseconds: 200)
        configuration.threads = 2
        configuration.pollIntervalMilliseconds = 50
        let sender = WebhookDispatcher(store: store, configuration: configuration, logger: quietLogger())
        sender.start()
        defer { sender.stop() }
        let published = try store.publish(tenant: "acme", publishRequest(occurredAt: WallClockForTests.now()),
                                          now: WallClockForTests.now())
        sender.wake()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, try store.delivery(tenant: "acme", id: published.deliveryID)?.status != "delivered" {
            usleep(10_000)
        }
        let delivery = try #require(try store.delivery(tenant: "acme", id: published.deliveryID))
        #expect(delivery.status == "delivered")
        #expect(delivery.attempts.map(\.httpStatus) == [500, 200])
        sender.stop()
        sender.stop()
    }
}

enum WallClockForTests {
    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
