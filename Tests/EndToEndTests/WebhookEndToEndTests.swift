import Foundation
import Testing

/// Webhooks through the real processes: endpoint administration over HTTP and kycctl, and an event written to
/// SigningService's outbox travelling relay → broker client endpoint → WebhookService → libcurl → a local receiver
/// that fails on purpose first, with a signature checked by an independent implementation (openssl).
@Suite("Webhooks end to end", .serialized)
struct WebhookEndToEndTests {
    /// base64 HMAC-SHA256 computed by the openssl command line.
    static func opensslHMAC(secret: String, message: [UInt8]) throws -> String {
        let key = try #require(Data(base64Encoded: String(secret.dropFirst("whsec_".count))))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["dgst", "-sha256", "-mac", "HMAC", "-macopt",
                             "hexkey:" + key.map { String(format: "%02x", $0) }.joined(), "-binary"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(message))
        try input.fileHandleForWriting.close()
        let mac = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return mac.base64EncodedString()
    }

    @Test func endpointAdministrationOverHTTPAndKycctl() async throws {
        let stack = try StackHarness()
        defer { stack.stopAll() }
        let admin = try stack.createAPIKey(tenant: "acme", admin: true)
        let backend = try stack.createAPIKey(tenant: "acme")
        try await stack.startWebhookStack()

        let refused = try await stack.request("PUT", "/v1/admin/webhook", token: backend,
                                              body: #"{"url":"https://hooks.example.com/kyc"}"#)
        #expect(refused.status == 403)
        let badURL = try await stack.request("PUT", "/v1/admin/webhook", token: admin, body: #"{"url":"ftp://x/y"}"#)
        #expect(badURL.status == 422)
        #expect(badURL.errorField == "url")
        let wrongType = try await stack.request("PUT", "/v1/admin/webhook", token: admin, body: #"{"url":42}"#)
        #expect(wrongType.status == 422)
        let set = try await stack.request("PUT", "/v1/admin/webhook", token: admin,
                                          body: #"{"url":"https://hooks.example.com/kyc"}"#)
        #expect(set.status == 200)
        let secret = try #require(set.json["secret"] as? String)
        #expect(secret.hasPrefix("whsec_"))
        let shown = try await stack.request("GET", "/v1/admin/webhook", token: admin)
        #expect(shown.json["url"] as? String == "https://hooks.example.com/kyc")
        #expect(!shown.text.contains(secret))

        let empty = try await stack.request("GET", "/v1/webhooks/deliveries", token: backend)
        #expect(empty.status == 200)
        #expect((empty.json["deliveries"] as? [Any])?.isEmpty == true)
        #expect(try await stack.request("GET", "/v1/webhooks/deliveries?status=lost", token: backend).status == 422)
        #expect(try await stack.request("GET", "/v1/webhooks/deliveries?limit=0", token: backend).status == 422)
        #expect(try await stack.request("POST", "/v1/webhooks/deliveries/dlv_nope/redeliver", token: backend).status
            == 404)

        // kycctl writes WebhookService's database directly; the running service sees it.
        let other = try stack.runTool("kycctl", ["webhook", "set", "--tenant", "globex", "--url", "http://127.0.0.1:9/x"])
        #expect(other.status == 0)
        #expect(other.output.hasPrefix("whsec_"))
        let globexAdmin = try stack.createAPIKey(tenant: "globex", admin: true)
        let globex = try await stack.request("GET", "/v1/admin/webhook", token: globexAdmin)
        #expect(globex.json["url"] as? String == "http://127.0.0.1:9/x")
        #expect(try stack.runTool("kycctl", ["webhook", "set", "--tenant", "globex", "--url", "nope"]).status != 0)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")))
    func outboxEventIsRelayedSignedRetriedAndDelivered() async throws {
        let receiver = try RawWebhookReceiver(statuses: [500, 200])
        defer { receiver.stop() }
        let stack = try StackHarness()
        defer { stack.stopAll() }
        let admin = try stack.createAPIKey(tenant: "acme", admin: true)
        try await stack.startWebhookStack()
        let set = try await stack.request("PUT", "/v1/admin/webhook", token: admin,
                                          body: #"{"url":"\#(receiver.url)"}"#)
        let secret = try #require(set.json["secret"] as? String)

        let eventID = "evt_e2e" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try stack.insertOutboxEvent(eventID: eventID, tenant: "acme", type: "signing.completed",
                                    data: #"{"reference":"ref-e2e"}"#)
        // First attempt answered 500, the retry (5 s later) 200.
        try await stack.waitUntil(seconds: 30, "the event delivered after one failure") {
            guard let list = try? await stack.request("GET", "/v1/webhooks/deliveries", token: admin),
                  let first = (list.json["deliveries"] as? [[String: Any]])?.first else { return false }
            return first["status"] as? String == "delivered"
        }
        let list = try await stack.request("GET", "/v1/webhooks/deliveries", token: admin)
        let deliveries = try #require(list.json["deliveries"] as? [[String: Any]])
        #expect(deliveries.count == 1)
        let delivery = try #require(deliveries.first)
        #expect(delivery["eventId"] as? String == eventID)
        #expect(delivery["eventType"] as? String == "signing.completed")
        let attempts = try #require(delivery["attempts"] as? [[String: Any]])
        #expect(attempts.compactMap { $0["httpStatus"] as? Int } == [500, 200])
        #expect(attempts.first?["error"] as? String == "http_500")

        let requests = receiver.requests
        #expect(requests.count == 2)
        for request in requests {
            #expect(request.headers["webhook-id"] == eventID)
            #expect(request.headers["content-type"] == "application/json")
            let timestamp = try #require(request.headers["webhook-timestamp"])
            let expected = try Self.opensslHMAC(secret: secret,
                                                message: Array("\(eventID).\(timestamp).".utf8) + request.body)
            #expect(request.headers["webhook-signature"] == "v1," + expected)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
            #expect(json["type"] as? String == "signing.completed")
            #expect((json["data"] as? [String: Any])?["reference"] as? String == "ref-e2e")
        }
        #expect(requests[0].body == requests[1].body)

        // Redeliver: sent once more, to the same receiver.
        let deliveryID = try #require(delivery["deliveryId"] as? String)
        let again = try await stack.request("POST", "/v1/webhooks/deliveries/\(deliveryID)/redeliver", token: admin)
        #expect(again.status == 200)
        try await stack.waitUntil(seconds: 20, "the redelivery") { receiver.requests.count == 3 }
    }
}
