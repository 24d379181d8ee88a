// The messaging baseline: libzmq alone, through the `ZeroMQ` wrapper's plainest calls (`send(_:)` and `receive()`,
// default `ZMQSocketOptions`). A DEALER on the calling thread talks to a ROUTER on its own thread that sends every
// message straight back; no envelope, no broker, no protocol. Each side has its own context (its own I/O thread),
// as the gateway and a service process each do, so the baseline pays the same number of I/O-thread handoffs per hop.
import Foundation
import KYCCore
import Synchronization
import ZeroMQ

/// A DEALER → ROUTER echo over tcp loopback. Create, measure and `stop()` on one thread (the DEALER lives there).
final class RawEchoBenchmark {
    private let clientContext: ZMQContext
    private let client: ZMQSocket
    private let echo: DedicatedThread
    private let echoFailure: EchoFailureBox
    private var stopped = false

    /// Starts the echo thread, connects the DEALER and waits (with a deadline) until one round trip succeeds.
    init() throws {
        let endpointBox = Mutex<Result<String, ZMQError>?>(nil)
        let bound = DispatchSemaphore(value: 0)
        let failure = EchoFailureBox()
        echoFailure = failure
        echo = DedicatedThread(name: "raw-echo") {
            RawEchoBenchmark.serveEcho(bound: { result in
                endpointBox.withLock { $0 = result }
                bound.signal()
            }, failure: failure)
        }
        bound.wait()
        let endpoint = try endpointBox.withLock { $0! }.get()

        clientContext = try ZMQContext()
        var options = ZMQSocketOptions()
        options.receiveTimeoutMilliseconds = 5_000  // a wedged echo fails the run instead of hanging it
        client = try clientContext.socket(.dealer, options: options)
        try client.connect(endpoint)
        _ = try roundTrip([UInt8](repeating: 1, count: 8))
    }

    deinit { stop() }

    /// Untimed round trips (one in flight), to warm connections, caches and allocators.
    func warmUp(iterations: Int, payloadBytes: Int) throws {
        let payload = [UInt8](repeating: 0x61, count: payloadBytes)
        for _ in 0..<iterations { _ = try roundTrip(payload) }
    }

    /// Round-trip times in nanoseconds of `iterations` sequential requests (one in flight), appended to `samples`.
    func measureLatency(iterations: Int, payloadBytes: Int, into samples: inout [UInt64]) throws {
        let payload = [UInt8](repeating: 0x61, count: payloadBytes)
        for _ in 0..<iterations {
            let start = MonotonicClock.nowNanoseconds()
            _ = try roundTrip(payload)
            samples.append(MonotonicClock.nowNanoseconds() - start)
        }
    }

    /// Messages echoed per second with `inFlight` requests outstanding at all times.
    func measureThroughput(requests: Int, inFlight: Int, payloadBytes: Int) throws -> Double {
        let payload = [UInt8](repeating: 0x62, count: payloadBytes)
        let window = min(inFlight, requests)
        let start = MonotonicClock.nowNanoseconds()
        var sent = 0
        while sent < window {
            try client.send([payload])
            sent += 1
        }
        var received = 0
        while received < requests {
            guard let frames = try client.receive() else {
                throw BenchError(.invalidResult, function: "raw echo", message: "no echo within 5 s")
            }
            guard frames.count == 1, frames[0].count == payloadBytes else {
                throw BenchError(.invalidResult, function: "raw echo", message: "echo differs from the request")
            }
            received += 1
            if sent < requests {
                try client.send([payload])
                sent += 1
            }
        }
        let seconds = Double(MonotonicClock.nowNanoseconds() - start) / 1e9
        return Double(requests) / seconds
    }

    /// Tells the echo thread to end (an empty frame), joins it and closes the DEALER. Idempotent.
    func stop() {
        guard !stopped else { return }
        stopped = true
        _ = try? client.send([[]])
        echo.join()
        client.close()
        clientContext.terminate()
    }

    /// The echo thread's failure, if it had one.
    var failure: String? { echoFailure.message }

    private func roundTrip(_ payload: [UInt8]) throws -> [UInt8] {
        try client.send([payload])
        guard let frames = try client.receive(), frames.count == 1 else {
            throw BenchError(.invalidResult, function: "raw echo",
                             message: "no echo within 5 s" + (echoFailure.message.map { ": \($0)" } ?? ""))
        }
        guard frames[0] == payload else {
            throw BenchError(.invalidResult, function: "raw echo", message: "echo differs from the request")
        }
        return frames[0]
    }

    /// The ROUTER side: its own context and socket, on its own thread; echoes until it receives an empty frame.
    private static func serveEcho(bound: (Result<String, ZMQError>) -> Void, failure: EchoFailureBox) {
        let context: ZMQContext
        let socket: ZMQSocket
        do {
            context = try ZMQContext()
            socket = try context.socket(.router)
            try socket.bind("tcp://127.0.0.1:*")
            bound(.success(try socket.lastEndpoint()))
        } catch {
            bound(.failure(error))
            return
        }
        defer {
            socket.close()
            context.terminate()
        }
        do {
            while let frames = try socket.receive() {
                try socket.send(frames)
                if frames.count == 2 && frames[1].isEmpty { return }
            }
        } catch {
            failure.record("\(error)")
        }
    }
}

/// The echo thread's error, read by the measuring thread. `Mutex` makes it safe to share.
final class EchoFailureBox: Sendable {
    private let storage = Mutex<String?>(nil)
    func record(_ message: String) { storage.withLock { $0 = message } }
    var message: String? { storage.withLock { $0 } }
}
