import Dispatch
import Foundation
import KYCCore
import KYCMessages
import Synchronization
import ZeroMQ
@testable import Messaging

/// Fast protocol timings for tests (expiry after 3 × 100 ms), used by broker and workers alike.
let testHeartbeatMilliseconds: Int64 = 100

func testLogger(_ sink: InMemoryLogSink = InMemoryLogSink()) -> Logger {
    Logger(service: "test", level: .debug, sink: sink)
}

/// Polls `condition` until it holds or `seconds` pass.
@discardableResult
func eventually(within seconds: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(2_000)
    }
    return try condition()
}

func startBroker(context: ZMQContext, logger: Logger = testLogger(),
                 heartbeatMilliseconds: Int64 = testHeartbeatMilliseconds) throws -> Broker {
    var configuration = BrokerConfiguration(workerEndpoint: "tcp://127.0.0.1:*")
    configuration.heartbeatIntervalMilliseconds = heartbeatMilliseconds
    let broker = try Broker(configuration: configuration, context: context, logger: logger)
    try broker.start()
    return broker
}

func startWorker(_ router: ServiceRouter, broker endpoint: String, context: ZMQContext, threads: Int = 1,
                 maxMessageBytes: Int64 = 16 * 1024 * 1024) throws -> ServiceWorker {
    var configuration = ServiceWorkerConfiguration(service: router.service, brokerEndpoint: endpoint,
                                                   threads: threads, maxMessageBytes: maxMessageBytes)
    configuration.heartbeatIntervalMilliseconds = testHeartbeatMilliseconds
    configuration.reconnectInitialMilliseconds = 50
    let worker = try ServiceWorker(configuration: configuration, router: router, logger: testLogger(),
                                   context: context)
    try worker.start()
    return worker
}

/// An echo service: `Echo.Say` returns the payload reversed and, where given, runs `hook` first.
func echoRouter(_ hook: (@Sendable () -> Void)? = nil) -> ServiceRouter {
    var router = ServiceRouter(service: "Echo", version: "1.2.3", instance: "test", logger: testLogger())
    router.register("Echo.Say") { envelope in
        hook?()
        return envelope.payload.reversed()
    }
    return router
}

func envelope(_ method: String = "Echo.Say", payload: [UInt8] = [1, 2, 3], id: String = UUID().uuidString,
              timeoutMilliseconds: Int64 = 5_000) -> RequestEnvelope {
    RequestEnvelope(requestID: id, traceID: "trace", tenant: "t1",
                    deadlineUnixMs: WallClock.nowMilliseconds() + timeoutMilliseconds, method: method,
                    payload: payload)
}

/// Submits and blocks this thread until the completion runs (or 10 s pass: a bug, reported as nil).
func requestSync(_ broker: Broker, service: String = "Echo", _ request: RequestEnvelope) -> ReplyEnvelope? {
    let box = Mutex<ReplyEnvelope?>(nil)
    let done = DispatchSemaphore(value: 0)
    broker.submit(service: service, envelope: request) { reply in
        box.withLock { $0 = reply }
        done.signal()
    }
    guard done.wait(timeout: .now() + 10) == .success else { return nil }
    return box.withLock { $0 }
}

/// A one-shot gate a handler can wait on (bounded, so a failing test never hangs).
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func open() { semaphore.signal() }
    func wait(seconds: Double = 5) { _ = semaphore.wait(timeout: .now() + seconds) }
}

/// Receives on a raw socket with a poll deadline.
func receive(_ socket: ZMQSocket, within milliseconds: Int = 5_000) throws -> [[UInt8]]? {
    var poller = ZMQPoller()
    poller.add(socket)
    let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
    while Date() < deadline {
        let remaining = max(1, Int(deadline.timeIntervalSinceNow * 1000))
        if try poller.poll(timeoutMilliseconds: remaining) > 0, let message = try socket.receive(dontWait: true) {
            return message
        }
    }
    return nil
}

/// Receives until `match` accepts a message (skipping heartbeats and the like) or the deadline passes.
func receive(_ socket: ZMQSocket, within milliseconds: Int = 5_000, where match: ([[UInt8]]) -> Bool) throws
    -> [[UInt8]]?
{
    let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
    while Date() < deadline {
        let remaining = max(1, Int(deadline.timeIntervalSinceNow * 1000))
        guard let message = try receive(socket, within: remaining) else { return nil }
        if match(message) { return message }
    }
    return nil
}

func command(_ frames: [[UInt8]], at index: Int) -> WorkerProtocol.Command? {
    guard frames.count > index, frames[index].count == 1 else { return nil }
    return WorkerProtocol.Command(rawValue: frames[index][0])
}
