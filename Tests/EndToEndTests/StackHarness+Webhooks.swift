import Foundation
import Synchronization
import Testing

/// Webhook helpers for the end-to-end tests: the gateway, WebhookService and SigningService (whose outbox relay
/// publishes events) sharing an explicit broker client endpoint, and a local HTTP receiver built on plain sockets.
extension StackHarness {
    /// Starts the gateway (readiness requires `webhook` and `signing`), WebhookService and SigningService, all using
    /// the same free client endpoint, and waits until both services are registered.
    func startWebhookStack() async throws {
        let client = ["KYC_BROKER_CLIENT_ENDPOINT": "tcp://127.0.0.1:\(try Self.freePort())"]
        try start("Gateway", extraEnvironment: ["KYC_REQUIRED_SERVICES": "webhook,signing"]
            .merging(client) { _, new in new })
        try start("WebhookService", extraEnvironment: client)
        try start("SigningService", extraEnvironment: client)
        try await waitForWorkers("webhook", count: 1)
        try await waitForWorkers("signing", count: 1)
    }

    /// Adds an event to SigningService's outbox table directly (as its own transactions do), through the sqlite3
    /// command line; its relay forwards it to WebhookService.
    func insertOutboxEvent(eventID: String, tenant: String, type: String, data: String) throws {
        let sql = """
            INSERT INTO webhook_outbox (event_id, tenant, type, payload, created_at_ms)
            VALUES ('\(eventID)', '\(tenant)', '\(type)', CAST('\(data)' AS BLOB),
                    CAST(strftime('%s','now') AS INTEGER) * 1000);
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-cmd", ".timeout 5000", dataDirectory + "/signing.sqlite", sql]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw HarnessError("sqlite3 insert failed") }
    }
}

/// A minimal HTTP/1.1 receiver on a loopback port chosen at run time: reads each request (headers and a
/// Content-Length body), records it, answers with the next status of `statuses` (the last repeats), closes.
final class RawWebhookReceiver: Sendable {
    struct Request: Sendable {
        let headers: [String: String]
        let body: [UInt8]
    }

    let port: Int
    private let listener: Int32
    private let state: Mutex<(statuses: [Int], requests: [Request], stopped: Bool)>

    init(statuses: [Int]) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bind(fd, sa, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, sa, &length) == 0
            }
        }
        guard ok else {
            close(fd)
            throw HarnessError("receiver cannot listen")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        state = Mutex((statuses, [], false))
        Thread.detachNewThread { [self] in serve() }
    }

    var url: String { "http://127.0.0.1:\(port)/kyc-events" }
    var requests: [Request] { state.withLock { $0.requests } }

    func stop() {
        state.withLock { $0.stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if state.withLock({ $0.stopped }) { return }
                continue
            }
            handle(connection)
            close(connection)
        }
    }

    private func handle(_ connection: Int32) {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var headerEnd: Int?
        var contentLength = 0
        var headers: [String: String] = [:]
        while true {
            let count = read(connection, &chunk, chunk.count)
            if count <= 0 { return }
            buffer += chunk[0..<count]
            if headerEnd == nil, let end = Self.find([13, 10, 13, 10], in: buffer) {
                headerEnd = end + 4
                let lines = String(decoding: buffer[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                        .trimmingCharacters(in: .whitespaces)
                }
                contentLength = Int(headers["content-length"] ?? "0") ?? 0
            }
            if let headerEnd, buffer.count >= headerEnd + contentLength {
                let body = Array(buffer[headerEnd..<(headerEnd + contentLength)])
                let status: Int = state.withLock { state in
                    state.requests.append(Request(headers: headers, body: body))
                    return state.statuses.count > 1 ? state.statuses.removeFirst() : state.statuses[0]
                }
                let answer = Array("HTTP/1.1 \(status) X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
                _ = answer.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                return
            }
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<(start + needle.count)]) == needle {
            return start
        }
        return nil
    }
}
