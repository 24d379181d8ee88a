import Foundation
import Testing

/// The README's signing walk-through through the real processes: the "device" is the openssl command line.
@Suite("Signing end to end", .serialized)
struct SigningEndToEndTests {
    /// Runs a command and returns its standard output; fails the test on a non-zero exit.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], in directory: String,
                    environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func aDeviceKeyMadeByOpenSSLSignsAndTheEvidenceVerifiesOffline() async throws {
        let stack = try StackHarness()
        defer { stack.stopAll() }
        let key = try stack.createAPIKey(tenant: "acme")
        try stack.start("Gateway", extraEnvironment: ["KYC_REQUIRED_SERVICES": "signing"])
        try stack.start("SigningService")
        try await stack.waitForWorkers("signing", count: 1)

        let work = stack.dataDirectory + "/device"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let contract = Data("Loan agreement #42: the customer borrows 1000 TRY.\n".utf8)
        try contract.write(to: URL(fileURLWithPath: work + "/contract.txt"))

        let session = try await stack.request("POST", "/v1/sessions", token: key, body: """
            {"identity":{"identityType":"TCKN","identityNo":"10000000146","name":"Ayşe","surname":"Yılmaz"}}
            """)
        let sessionID = try #require(session.json["sessionId"] as? String)
        let sessionToken = try #require(session.json["token"] as? String)

        let created = try await stack.request("POST", "/v1/signing/requests", token: key, body: """
            {"reference":"order-42","sessionId":"\(sessionID)","documents":[{"name":"contract.txt",
             "contentType":"text/plain","content":"\(contract.base64EncodedString())"}]}
            """)
        #expect(created.status == 201, "\(created.text)")
        let document = try #require((created.json["documents"] as? [[String: Any]])?.first)

        let unknownSession = try await stack.request("POST", "/v1/signing/requests", token: key, body: """
            {"reference":"order-43","sessionId":"ses_000000000000000000000000","documents":[{"name":"c.txt",
             "contentType":"text/plain","content":"\(contract.base64EncodedString())"}]}
            """)
        #expect(unknownSession.status == 422)
        #expect(unknownSession.errorField == "sessionId")
        let documentID = try #require(document["documentId"] as? String)

        // The device: a P-256 key pair from openssl, its public key enrolled, the canonical message signed.
        try Self.run("/usr/bin/openssl", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "device.pem"],
                     in: work)
        try Self.run("/usr/bin/openssl", ["ec", "-in", "device.pem", "-pubout", "-outform", "DER", "-out", "device.der"],
                     in: work)
        let publicKey = try Data(contentsOf: URL(fileURLWithPath: work + "/device.der")).base64EncodedString()
        let enrolled = try await stack.request("POST", "/v1/signing/keys", token: sessionToken,
                                               body: #"{"algorithm":"ES256","publicKey":"\#(publicKey)"}"#)
        #expect(enrolled.status == 201 || enrolled.status == 200, "\(enrolled.text)")
        let keyID = try #require(enrolled.json["keyId"] as? String)

        let sha = try #require(document["sha256"] as? String)
        let message = "KYC-SIGN-v1\nacme\norder-42\n\(documentID)\n\(sha)\n"
        try Data(message.utf8).write(to: URL(fileURLWithPath: work + "/message"))
        try Self.run("/usr/bin/openssl", ["dgst", "-sha256", "-sign", "device.pem", "-out", "message.sig", "message"],
                     in: work)
        let signature = try Data(contentsOf: URL(fileURLWithPath: work + "/message.sig")).base64EncodedString()

        // Finishing before signing names the unsigned document.
        let early = try await stack.request("POST", "/v1/signing/finish", token: key, body: #"{"reference":"order-42"}"#)
        #expect(early.status == 409)
        #expect(early.errorCode == "unsigned_documents")

        // A signature over another message is refused; the right one is accepted, and replaying it is harmless.
        let forged = try await stack.request("POST", "/v1/signing/sign", token: sessionToken, body: """
            {"reference":"order-42","documentId":"\(documentID)","keyId":"\(keyID)",
             "signature":"\(Data(repeating: 7, count: 70).base64EncodedString())"}
            """)
        #expect(forged.status == 422)
        #expect(forged.errorCode == "invalid_signature")
        let signBody = """
            {"reference":"order-42","documentId":"\(documentID)","keyId":"\(keyID)","signature":"\(signature)"}
            """
        let signed = try await stack.request("POST", "/v1/signing/sign", token: sessionToken, body: signBody)
        #expect(signed.status == 200, "\(signed.text)")
        #expect(try await stack.request("POST", "/v1/signing/sign", token: sessionToken, body: signBody).status == 200)

        // The backend's key cannot sign for the user.
        #expect(try await stack.request("POST", "/v1/signing/sign", token: key, body: signBody).status == 403)

        let finished = try await stack.request("POST", "/v1/signing/finish", token: key,
                                               body: #"{"reference":"order-42"}"#)
        #expect(finished.status == 200, "\(finished.text)")

        let evidence = try await stack.request("GET", "/v1/signing/requests/order-42/evidence", token: key)
        #expect(evidence.status == 200)
        try evidence.body.write(to: URL(fileURLWithPath: work + "/evidence.json"))
        let platformKey = try #require(try await stack.request("GET", "/v1/signing/platform-key")
            .json["publicKey"] as? String)

        let kycctl = StackHarness.buildDirectory.appendingPathComponent("kycctl").path
        let verified = try Self.run(kycctl, ["verify-evidence", "evidence.json", "--document", "\(documentID)=contract.txt",
                                             "--platform-key", platformKey], in: work, environment: stack.environment)
        #expect(verified.status == 0, "\(verified.output)")

        // A changed document no longer verifies.
        try Data("Loan agreement #42: the customer borrows 9000 TRY.\n".utf8)
            .write(to: URL(fileURLWithPath: work + "/contract.txt"))
        let tampered = try Self.run(kycctl, ["verify-evidence", "evidence.json", "--document",
                                             "\(documentID)=contract.txt", "--platform-key", platformKey],
                                    in: work, environment: stack.environment)
        #expect(tampered.status == 1)

        let log = try Self.run(kycctl, ["verify-log", "--tenant", "acme"], in: work, environment: stack.environment)
        #expect(log.status == 0, "\(log.output)")
    }
}
