import Foundation
import KYCMessages
import Testing

/// webhook.proto messages against golden bytes from Google's protoc: decode what an independent encoder wrote,
/// re-encode to the same bytes.
@Suite("Webhook golden bytes from protoc")
struct WebhookGoldenBytesTests {
    @Test func publishRequest() throws {
        let bytes = try GoldenBytesTests.fixture("webhook_publish_request")
        let request = try PublishRequest(serialized: bytes)
        #expect(request == PublishRequest(eventID: "evt_0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e", type: "signing.completed",
                                          data: Array(#"{"reference":"ref-42","documents":2}"#.utf8),
                                          occurredAtUnixMs: 1_795_000_000_123, sourceService: "signing"))
        #expect(request.serialized() == bytes)
    }

    @Test func setEndpointReply() throws {
        let bytes = try GoldenBytesTests.fixture("webhook_set_endpoint_reply")
        let reply = try SetEndpointReply(serialized: bytes)
        #expect(reply == SetEndpointReply(url: "https://hooks.example.com/kyc",
                                          secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
                                          updatedAtUnixMs: 1_795_000_000_456))
        #expect(reply.serialized() == bytes)
    }

    @Test func listDeliveriesRequest() throws {
        let bytes = try GoldenBytesTests.fixture("webhook_list_deliveries_request")
        let request = try ListDeliveriesRequest(serialized: bytes)
        #expect(request == ListDeliveriesRequest(status: "dead_letter", eventType: "signing.completed", limit: 50,
                                                 cursor: "c17"))
        #expect(request.serialized() == bytes)
    }

    @Test func listDeliveriesReplyWithAttempts() throws {
        let bytes = try GoldenBytesTests.fixture("webhook_list_deliveries_reply")
        let reply = try ListDeliveriesReply(serialized: bytes)
        #expect(reply.nextCursor == "c17")
        let delivery = try #require(reply.deliveries.first)
        #expect(reply.deliveries.count == 1)
        #expect(delivery.deliveryID == "dlv_5f0c6a2e8b7d4c1fa3e9b2d4c6a8e0f1")
        #expect(delivery.status == "delivered")
        #expect(delivery.attemptCount == 2)
        #expect(delivery.deliveredAtUnixMs == 1_795_000_005_300)
        #expect(delivery.nextAttemptAtUnixMs == 0)
        #expect(delivery.eventOccurredAtUnixMs == 1_795_000_000_123)
        #expect(delivery.attempts == [
            DeliveryAttempt(number: 1, attemptedAtUnixMs: 1_795_000_000_210, httpStatus: 503, error: "http_503",
                            durationMs: 12, url: "https://hooks.example.com/kyc"),
            DeliveryAttempt(number: 2, attemptedAtUnixMs: 1_795_000_005_250, httpStatus: 204, error: "",
                            durationMs: 9, url: "https://hooks.example.com/kyc"),
        ])
        #expect(reply.serialized() == bytes)
    }

    @Test func redeliverReply() throws {
        let bytes = try GoldenBytesTests.fixture("webhook_redeliver_reply")
        let reply = try RedeliverReply(serialized: bytes)
        #expect(reply.delivery.status == "pending")
        #expect(reply.delivery.attemptCount == 31)
        #expect(reply.delivery.nextAttemptAtUnixMs == 1_795_090_000_000)
        #expect(reply.delivery.attempts.isEmpty)
        #expect(reply.serialized() == bytes)
    }

    @Test func truncatedAndGarbageBytesAreErrorsNotCrashes() throws {
        let bytes = try GoldenBytesTests.fixture("webhook_list_deliveries_reply")
        for cut in [1, bytes.count / 2, bytes.count - 1] {
            #expect(throws: (any Error).self) { try ListDeliveriesReply(serialized: Array(bytes.prefix(cut))) }
        }
        #expect(throws: (any Error).self) { try PublishRequest(serialized: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) }
    }
}
