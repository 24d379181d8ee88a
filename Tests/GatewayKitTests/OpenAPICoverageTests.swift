import Credentials
import Foundation
@testable import GatewayKit
import KYCCore
import KYCMessages
import Storage
import Testing
import TestSupport

/// Every route the gateway serves must be documented in docs/openapi.yaml, and the document must not promise routes
/// that do not exist.
@Suite("OpenAPI document")
struct OpenAPICoverageTests {
    /// `(method, path)` pairs of the document's `paths:` section, read by indentation (the file's own layout).
    static func documentedOperations() throws -> Set<String> {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/openapi.yaml")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        var inPaths = false
        var currentPath: String?
        var operations: Set<String> = []
        let methods = ["get", "post", "put", "patch", "delete"]
        for line in lines {
            if line == "paths:" { inPaths = true; continue }
            guard inPaths else { continue }
            if !line.hasPrefix(" ") && !line.isEmpty { break }
            if line.hasPrefix("  /") && line.hasSuffix(":") && !line.hasPrefix("   ") {
                currentPath = String(line.dropFirst(2).dropLast())
            } else if line.hasPrefix("    ") && !line.hasPrefix("     "), let path = currentPath {
                let key = line.trimmingCharacters(in: .whitespaces).dropLast()
                if line.hasSuffix(":"), methods.contains(String(key)) { operations.insert("\(key.uppercased()) \(path)") }
            }
        }
        return operations
    }

    @Test func everyServedRouteIsDocumentedAndViceVersa() throws {
        let directory = try TemporaryDirectory("openapi")
        defer { directory.remove() }
        let application = GatewayApplication(
            configuration: GatewayConfiguration(),
            credentials: try CredentialStore(dataDirectory: directory.file("data")),
            dispatcher: IdleDispatcher(), logger: Logger(service: "test", sink: InMemoryLogSink()))
        let served = Set(application.routes.routes.map { "\($0.method) \($0.pattern)" })
        let documented = try Self.documentedOperations()
        #expect(!documented.isEmpty)
        #expect(served.subtracting(documented).isEmpty, "served but not documented: \(served.subtracting(documented))")
        #expect(documented.subtracting(served).isEmpty, "documented but not served: \(documented.subtracting(served))")
    }
}

/// A dispatcher with no workers; only the route list is read here.
struct IdleDispatcher: ServiceDispatcher {
    func dispatch(service: String, envelope: KYCMessages.RequestEnvelope,
                  completion: @escaping @Sendable (KYCMessages.ReplyEnvelope) -> Void) {
        completion(.failure(requestID: envelope.requestID, status: .unavailable, reason: "no worker"))
    }

    func snapshot() -> BrokerSnapshot { BrokerSnapshot() }
}
