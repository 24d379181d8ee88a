import Foundation
import HTTPServer
import KYCCore
import KYCMessages
import Messaging
import Synchronization
@testable import WebhookKit

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let now: Mutex<Int64>
    init(_ start: Int64 = 1_800_000_000_000) { now = Mutex(start) }
    var value: Int64 { now.withLock { $0 } }
    func advance(to time: Int64) { now.withLock { $0 = max($0, time) } }
    func advance(by milliseconds: Int64) { now.withLock { $0 += milliseconds } }
    var clock: WebhookClock { { [self] in value } }
}

/// One request the receiver got.
struct ReceivedWebhook: Sendable {
    let headers: [String: String]
    let body: [UInt8]
}

/// A local HTTP endpoint for deliveries: answers each POST with the next status from `statuses` (the last one
/// repeats), or never answers while `hang` is set; records every request.
final class WebhookReceiver: Sendable {
    final class Box: Sendable {
        let state: Mutex<(statuses: [Int], received: [ReceivedWebhook])>
        let hang = Atomic<Bool>(false)
        init(_ statuses: [Int]) { state = Mutex((statuses, [])) }
    }

    let server: HTTPServer
    let box: Box

    init(statuses: [Int]) throws {
        let box = Box(statuses)
        self.box = box
        server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0),
                            handler: ClosureHTTPHandler { request, respond in
                                let status: Int = box.state.withLock { state in
                                    state.received.append(ReceivedWebhook(headers: request.headers, body: request.body))
                                    return state.statuses.count > 1 ? state.statuses.removeFirst() : state.statuses[0]
                                }
                                if box.hang.load(ordering: .relaxed) { return }  // the client times out
                                respond(HTTPResponse(status: status, text: "ok"))
                            }, logger: Logger(service: "receiver", level: .critical))
        try server.start()
    }

    var url: String { "http://127.0.0.1:\(server.port)/hooks/kyc" }
    var received: [ReceivedWebhook] { box.state.withLock { $0.received } }
    func setStatuses(_ statuses: [Int]) { box.state.withLock { $0.statuses = statuses } }
    func stop() { server.stop() }
}

func quietLogger() -> Logger { Logger(service: "test", level: .critical) }

func dispatcher(_ store: WebhookStore, _ clock: ManualClock, timeoutMilliseconds: Int = 5_000,
                random: Double = 0.5) -> WebhookDispatcher {
    var configuration = WebhookDispatcherConfiguration()
    configuration.requestTimeoutMilliseconds = timeoutMilliseconds
    return WebhookDispatcher(store: store, configuration: configuration, clock: clock.clock, random: { random },
                             logger: quietLogger())
}

func publishRequest(_ eventID: String = WebhookIdentifierForTests.event(), type: String = "signing.completed",
                    data: String = #"{"reference":"ref-1"}"#, occurredAt: Int64) -> PublishRequest {
    PublishRequest(eventID: eventID, type: type, data: Array(data.utf8), occurredAtUnixMs: occurredAt,
                   sourceService: "signing")
}

enum WebhookIdentifierForTests {
    static func event() -> String { "evt_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() }
}
