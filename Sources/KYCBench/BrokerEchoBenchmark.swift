// The messaging path the gateway uses: `Broker.submit` from a caller thread, the broker thread forwards the
// envelope over tcp loopback to a `ServiceWorker`, whose `ServiceRouter` handler echoes the payload, and the reply
// comes back through the broker to a completion that wakes the caller. Broker and worker each have their own
// ZeroMQ context, as the gateway process and a service process do.
import Dispatch
import Foundation
import KYCCore
import KYCMessages
import Messaging
import Synchronization
import ZeroMQ

/// A broker with one echo service behind it. Create, measure and `stop()` from one thread.
final class BrokerEchoBenchmark {
    static let service = "echo"
    static let method = "echo.Echo"

    private let brokerContext: ZMQContext
    private let broker: Broker
    private let worker: ServiceWorker
    private var stopped = false

    /// Starts the broker on an ephemeral loopback port and `workerThreads` workers, and waits (polling, with a
    /// deadline) until every worker has registered.
    init(workerThreads: Int, logger: Logger) throws {
        brokerContext = try ZMQContext()
        broker = try Broker(configuration: BrokerConfiguration(workerEndpoint: "tcp://127.0.0.1:*"),
                            context: brokerContext, logger: logger)
        let endpoint = try broker.start()
        var router = ServiceRouter(service: Self.service, logger: logger)
        router.register(Self.method) { envelope in envelope.payload }
        worker = try ServiceWorker(
            configuration: ServiceWorkerConfiguration(service: Self.service, brokerEndpoint: endpoint,
                                                      threads: workerThreads),
            router: router, logger: logger)
        try worker.start()
        let deadline = MonotonicClock.nowMilliseconds() + 5_000
        while (broker.stats().workersByService[Self.service] ?? 0) < workerThreads {
            guard MonotonicClock.nowMilliseconds() < deadline else {
                stop()
                throw BenchError(.notReady, function: "BrokerEchoBenchmark",
                                 message: "\(workerThreads) worker(s) did not register within 5 s")
            }
            usleep(1_000)
        }
    }

    deinit { stop() }

    /// Untimed round trips (one in flight), to warm connections, caches and allocators.
    func warmUp(iterations: Int, payloadBytes: Int) throws {
        var discarded: [UInt64] = []
        try measureLatency(iterations: iterations, payloadBytes: payloadBytes, into: &discarded)
    }

    /// Round-trip times in nanoseconds of `iterations` sequential requests (one in flight), appended to `samples`;
    /// each is measured from `submit` on this thread until this thread is woken by the completion.
    func measureLatency(iterations: Int, payloadBytes: Int, into samples: inout [UInt64]) throws {
        let payload = [UInt8](repeating: 0x61, count: payloadBytes)
        let tally = ReplyTally(expectedPayload: payload)
        let replied = DispatchSemaphore(value: 0)
        samples.reserveCapacity(samples.count + iterations)
        for index in 0..<iterations {
            let start = MonotonicClock.nowNanoseconds()
            broker.submit(service: Self.service, envelope: envelope(number: index, payload: payload)) { reply in
                tally.check(reply)
                replied.signal()
            }
            replied.wait()
            samples.append(MonotonicClock.nowNanoseconds() - start)
        }
        try tally.requireAllGood(expected: iterations)
    }

    /// Requests answered per second with `inFlight` requests outstanding at all times, submitted from this thread.
    func measureThroughput(requests: Int, inFlight: Int, payloadBytes: Int) throws -> Double {
        let payload = [UInt8](repeating: 0x62, count: payloadBytes)
        let tally = ReplyTally(expectedPayload: payload)
        let window = DispatchSemaphore(value: 0)
        for _ in 0..<inFlight { window.signal() }
        let start = MonotonicClock.nowNanoseconds()
        for index in 0..<requests {
            window.wait()
            broker.submit(service: Self.service, envelope: envelope(number: index, payload: payload)) { reply in
                tally.check(reply)
                window.signal()
            }
        }
        for _ in 0..<inFlight { window.wait() }  // every request answered
        let seconds = Double(MonotonicClock.nowNanoseconds() - start) / 1e9
        try tally.requireAllGood(expected: requests)
        return Double(requests) / seconds
    }

    /// Stops the workers, then the broker. Idempotent.
    func stop() {
        guard !stopped else { return }
        stopped = true
        worker.stop()
        broker.stop()
        brokerContext.terminate()
    }

    /// An envelope shaped like the gateway's: request id, tenant, deadline 10 s ahead, method and payload.
    private func envelope(number: Int, payload: [UInt8]) -> RequestEnvelope {
        let id = "bench-\(number)"
        return RequestEnvelope(requestID: id, traceID: id, tenant: "bench",
                               deadlineUnixMs: WallClock.nowMilliseconds() + 10_000, method: Self.method,
                               payload: payload)
    }
}

/// Counts replies that are (and are not) the expected echo. Completions run on the broker thread, so the counts are
/// atomics and the first failure is kept behind a lock.
final class ReplyTally: Sendable {
    private let expectedPayload: [UInt8]
    private let good = Atomic<Int>(0)
    private let bad = Atomic<Int>(0)
    private let firstFailure = Mutex<String?>(nil)

    init(expectedPayload: [UInt8]) { self.expectedPayload = expectedPayload }

    func check(_ reply: ReplyEnvelope) {
        if reply.status == .ok && reply.payload == expectedPayload {
            good.add(1, ordering: .relaxed)
        } else {
            bad.add(1, ordering: .relaxed)
            firstFailure.withLock { if $0 == nil { $0 = "status \(reply.status) reason \(reply.reason)" } }
        }
    }

    /// Throws unless exactly `expected` replies arrived and every one was the echo.
    func requireAllGood(expected: Int) throws {
        let good = good.load(ordering: .acquiring)
        let bad = bad.load(ordering: .acquiring)
        guard bad == 0, good == expected else {
            throw BenchError(.invalidResult, function: "broker echo",
                             message: "\(good) good and \(bad) bad replies of \(expected); first bad: "
                                 + (firstFailure.withLock { $0 } ?? "none"))
        }
    }
}
