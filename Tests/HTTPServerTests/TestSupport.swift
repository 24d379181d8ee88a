import Foundation
@testable import HTTPServer
import KYCCore
import Synchronization

/// Polls `condition` until it holds or `seconds` pass; never a fixed sleep.
func waitUntil(seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(1_000)
    }
    return condition()
}

/// A thread-safe box for values a handler hands to the test.
final class Shared<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
    func update<Result: Sendable>(_ body: (inout Value) -> Result) -> Result { storage.withLock { body(&$0) } }
}

typealias Respond = @Sendable (HTTPResponse) -> Void

/// An error responder whose bodies the tests can recognise.
let taggedErrorResponder: @Sendable (HTTPServerFault) -> HTTPResponse = { fault in
    switch fault {
    case .bodyTooLarge(let limit):
        HTTPResponse(status: 413, contentType: "application/json",
                     body: Array(#"{"error":{"code":"body_too_large","limit":\#(limit)}}"#.utf8),
                     headers: [("X-Fault", "bodyTooLarge")])
    case .shuttingDown:
        HTTPResponse(status: 503, contentType: "application/json",
                     body: Array(#"{"error":{"code":"shutting_down"}}"#.utf8), headers: [("X-Fault", "shuttingDown")])
    }
}

/// Starts a server on an ephemeral loopback port, runs `body`, and stops the server.
func withServer(_ configuration: HTTPServerConfiguration = HTTPServerConfiguration(port: 0),
                logSink: InMemoryLogSink = InMemoryLogSink(),
                handler: @escaping @Sendable (HTTPRequest, @escaping Respond) -> Void,
                body: (HTTPServer) throws -> Void) throws {
    var configuration = configuration
    configuration.port = 0
    let server = HTTPServer(configuration: configuration, handler: ClosureHTTPHandler(handler),
                            logger: Logger(service: "http-test", level: .debug, sink: logSink),
                            errorResponder: taggedErrorResponder)
    try server.start()
    defer { server.stop() }
    try body(server)
}
