import Foundation
import KYCMessages
import Messaging
import Testing
import ZeroMQ
import TestSupport

/// Plays the broker with a raw ROUTER socket against the real AppointmentService executable: valid, malformed and
/// oversized REQUEST frames, garbage frames, and checks each reply and that the worker keeps serving.
@Suite("Raw frames to a running AppointmentService", .serialized)
struct RawFramesToWorkerTests {
    static let maxMessageBytes = 65_536

    static func executable(_ name: String) -> URL {
        var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path),
              directory.path != "/" {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent(name)
    }

    /// A ROUTER bound on a free port, the worker process connected to it, and the worker's routing id from READY.
    final class FakeBroker {
        let context: ZMQContext
        let router: ZMQSocket
        let process = Process()
        var workerID: [UInt8] = []
        /// The worker's KYC_DATA_DIR, removed in deinit once the worker has exited.
        let dataDirectory: TemporaryDirectory

        init() throws {
            dataDirectory = try TemporaryDirectory("raw-frames")
            context = try ZMQContext()
            var options = ZMQSocketOptions()
            options.receiveTimeoutMilliseconds = 200
            router = try context.socket(.router, options: options)
            try router.bind("tcp://127.0.0.1:*")
            let endpoint = try router.lastEndpoint()
            process.executableURL = RawFramesToWorkerTests.executable("AppointmentService")
            var environment = ProcessInfo.processInfo.environment
            environment["KYC_BROKER_ENDPOINT"] = endpoint
            environment["KYC_DATA_DIR"] = dataDirectory.path
            environment["KYC_WORKER_THREADS"] = "1"
            environment["KYC_MAX_MESSAGE_BYTES"] = String(RawFramesToWorkerTests.maxMessageBytes)
            environment["LOG_LEVEL"] = "critical"
            process.environment = environment
            // Not the test process's output: `swift test` waits for every holder of that pipe (StackHarness.start).
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        deinit {
            if process.isRunning { process.terminate(); process.waitUntilExit() }
            router.close()
            context.terminate()
            dataDirectory.remove()
        }

        /// Waits for the worker's READY (answering its heartbeats meanwhile) and remembers its routing id.
        func awaitReady(seconds: Double = 15) throws {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                guard let frames = try router.receive() else { continue }
                // [routing id][tag][READY][service][instance][capacity: 4 bytes big-endian]
                if frames.count == 6, frames[1] == WorkerProtocol.tag, frames[2] == WorkerProtocol.Command.ready.frame {
                    #expect(String(decoding: frames[3], as: UTF8.self) == "appointment")
                    #expect(frames[5] == [0, 0, 0, UInt8(ServiceWorkerConfiguration.defaultCapacity)])
                    workerID = frames[0]
                    return
                }
            }
            throw TestFailure("no READY from the worker")
        }

        func sendRequest(ticket: UInt64, envelope: [UInt8]) throws {
            _ = try router.send([workerID] + WorkerProtocol.frames(.request(ticket: ticket, envelope: envelope)))
        }

        func sendRaw(_ frames: [[UInt8]]) throws {
            _ = try router.send([workerID] + frames)
        }

        /// The next REPLY for `ticket`, skipping heartbeats; nil when none comes in time.
        func awaitReply(ticket: UInt64, seconds: Double = 5) throws -> ReplyEnvelope? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                guard let frames = try router.receive() else { continue }
                guard frames.count == 5, frames[2] == WorkerProtocol.Command.reply.frame,
                      WorkerProtocol.ticket(from: frames[3]) == ticket else { continue }
                return try ReplyEnvelope(serialized: frames[4])
            }
            return nil
        }
    }

    static func listCallTypes(requestID: String) -> [UInt8] {
        RequestEnvelope(requestID: requestID, tenant: "acme",
                        deadlineUnixMs: Int64(Date().timeIntervalSince1970 * 1000) + 30_000,
                        method: "appointment.ListCallTypes",
                        payload: ListCallTypesRequest(handler: "KYC").serialized()).serialized()
    }

    @Test func validMalformedAndGarbageFramesGetTheRightAnswers() throws {
        let broker = try FakeBroker()
        try broker.awaitReady()

        try broker.sendRequest(ticket: 1, envelope: Self.listCallTypes(requestID: "valid-1"))
        let valid = try #require(try broker.awaitReply(ticket: 1))
        #expect(valid.status == .ok)
        #expect(valid.requestID == "valid-1")
        #expect(try ListCallTypesReply(serialized: valid.payload).callTypes.count == 3)

        try broker.sendRequest(ticket: 2, envelope: [0x0A, 0x7F, 0x01])
        let malformed = try #require(try broker.awaitReply(ticket: 2))
        #expect(malformed.status == .invalidArgument)

        var unknownMethod = try RequestEnvelope(serialized: Self.listCallTypes(requestID: "unknown-1"))
        unknownMethod.method = "appointment.Nope"
        try broker.sendRequest(ticket: 3, envelope: unknownMethod.serialized())
        #expect(try broker.awaitReply(ticket: 3)?.status == .unimplemented)

        var badPayload = try RequestEnvelope(serialized: Self.listCallTypes(requestID: "bad-payload"))
        badPayload.payload = [0xFF, 0xFF]
        try broker.sendRequest(ticket: 4, envelope: badPayload.serialized())
        #expect(try broker.awaitReply(ticket: 4)?.status == .invalidArgument)

        // Garbage: wrong tag, unknown command, short ticket. Nothing comes back, and the worker keeps serving.
        try broker.sendRaw([Array("NOPE".utf8), [0x02], [0, 0, 0, 0, 0, 0, 0, 5], [1]])
        try broker.sendRaw([WorkerProtocol.tag, [0x7E]])
        try broker.sendRaw([WorkerProtocol.tag, [0x02], [1, 2, 3], [1]])
        try broker.sendRequest(ticket: 6, envelope: Self.listCallTypes(requestID: "after-garbage"))
        #expect(try broker.awaitReply(ticket: 6)?.status == .ok)
        #expect(broker.process.isRunning)
    }

    @Test func anOversizedRequestIsDroppedAndTheWorkerComesBack() throws {
        let broker = try FakeBroker()
        try broker.awaitReady()
        var huge = try RequestEnvelope(serialized: Self.listCallTypes(requestID: "huge"))
        huge.payload = [UInt8](repeating: 0x41, count: Self.maxMessageBytes * 2)
        try broker.sendRequest(ticket: 10, envelope: huge.serialized())
        // libzmq drops the connection that carried the oversized message: no reply for it.
        #expect(try broker.awaitReply(ticket: 10, seconds: 1) == nil)
        #expect(broker.process.isRunning)
        // The worker notices the silent broker, reconnects and announces itself again; then it serves as before.
        try broker.awaitReady(seconds: 20)
        try broker.sendRequest(ticket: 11, envelope: Self.listCallTypes(requestID: "after-huge"))
        #expect(try broker.awaitReply(ticket: 11)?.status == .ok)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
