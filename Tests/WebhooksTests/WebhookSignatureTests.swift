import Foundation
import Testing
@testable import Webhooks

@Suite struct WebhookSignatureTests {
    /// The example published by Standard Webhooks (standardwebhooks.com, the reference libraries' tests).
    @Test func standardWebhooksPublishedExample() {
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
        let body = Array(#"{"test": 2432232314}"#.utf8)
        let signature = WebhookSignature.sign(secret: secret, id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
                                              timestamp: 1_614_265_330, body: body)
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        #expect(WebhookSignature.verify(secret: secret, id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330,
                                        body: body, signatureHeader: signature, now: 1_614_265_330))
    }

    /// An independent implementation (OpenSSL's command line) computes the same HMAC for a generated secret.
    @Test func matchesOpenSSLForAGeneratedSecret() throws {
        let secret = WebhookSignature.generateSecret()
        let key = try #require(WebhookSignature.keyBytes(ofSecret: secret))
        let body = Array(#"{"type":"signing.completed","data":{"reference":"ref-ü"}}"#.utf8)
        let ours = WebhookSignature.sign(secret: secret, id: "evt_1", timestamp: 1_700_000_000, body: body)

        let hexKey = key.map { String(format: "%02x", $0) }.joined()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["dgst", "-sha256", "-mac", "HMAC", "-macopt", "hexkey:\(hexKey)", "-binary"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data("evt_1.1700000000.".utf8) + Data(body))
        try input.fileHandleForWriting.close()
        let mac = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(mac.count == 32)
        #expect(ours == "v1," + mac.base64EncodedString())
    }

    @Test func generatedSecretsAreWellFormedAndDistinct() throws {
        let first = WebhookSignature.generateSecret()
        let second = WebhookSignature.generateSecret()
        #expect(first.hasPrefix("whsec_"))
        #expect(try #require(WebhookSignature.keyBytes(ofSecret: first)).count == 32)
        #expect(first != second)
    }

    @Test func anyChangeOrAStaleTimestampFailsVerification() {
        let secret = WebhookSignature.generateSecret()
        let body = Array(#"{"a":1}"#.utf8)
        let header = WebhookSignature.sign(secret: secret, id: "evt_x", timestamp: 1_000, body: body)
        func verify(secret s: String = secret, id: String = "evt_x", timestamp: Int64 = 1_000,
                    body b: [UInt8] = body, header h: String = header, now: Int64 = 1_000) -> Bool {
            WebhookSignature.verify(secret: s, id: id, timestamp: timestamp, body: b, signatureHeader: h, now: now)
        }
        #expect(verify())
        #expect(!verify(secret: WebhookSignature.generateSecret()))
        #expect(!verify(id: "evt_y"))
        #expect(!verify(timestamp: 1_001, now: 1_001))
        #expect(!verify(body: Array(#"{"a":2}"#.utf8)))
        #expect(!verify(body: body + [0x20]))
        #expect(!verify(now: 1_301))  // more than 5 minutes later
        #expect(!verify(now: 699))  // more than 5 minutes early
        #expect(verify(now: 1_300))
        #expect(!verify(header: "v2," + header.dropFirst(3)))
        #expect(!verify(header: "v1,not base64!"))
        #expect(!verify(header: ""))
        #expect(!verify(header: "v1"))
        // Several signatures (secret rotation): any one matching verifies.
        #expect(verify(header: "v1,AAAA \(header)"))
        // Flip each bit of the signature: never verifies.
        var bytes = Array(Data(base64Encoded: String(header.dropFirst(3)))!)
        for index in bytes.indices {
            bytes[index] ^= 0x01
            #expect(!verify(header: "v1," + Data(bytes).base64EncodedString()))
            bytes[index] ^= 0x01
        }
    }

    @Test func timestampExtremesDoNotOverflow() {
        let secret = WebhookSignature.generateSecret()
        let header = WebhookSignature.sign(secret: secret, id: "i", timestamp: .min, body: [])
        #expect(!WebhookSignature.verify(secret: secret, id: "i", timestamp: .min, body: [], signatureHeader: header,
                                         now: .max))
        #expect(!WebhookSignature.verify(secret: "whsec_%%%", id: "i", timestamp: 0, body: [], signatureHeader: header,
                                         now: 0))
    }
}
