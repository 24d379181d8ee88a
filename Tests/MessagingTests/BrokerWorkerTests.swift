import Foundation
import KYCCore
import KYCMessages
import Synchronization
import Testing
import ZeroMQ
@testable import Messaging

/// Broker and workers in one process over loopback tcp with ephemeral ports. Tests that touch raw sockets are
/// synchronous so that each socket stays on the test's thread.
@Suite struct BrokerWorkerTests {
    let context: ZMQContext

    init() throws { context = try ZMQContext() }

    func workers(_ broker: Broker, service: String = "Echo") -> Int { broker.stats().workersByService[service] ?? 0 }

    @Test func requestIsAnsweredThroughBrokerAndWorker() throws {
        let broker = try startBroker(context: context)
        defer { broker.stop() }
        let worker = try startWorker(echoRouter(), broker: try #require(broker.endpoint), context: context)
        defer { worker.stop() }
        #expect(eventually { workers(broker) == 1 })

        let request = envelope(payload: [1, 2, 3], id: "req-1")
        let reply = try #require(requestSync(broker, request))
        #expect(reply == .success(requestID: "req-1", payload: [3, 2, 1]))

        let describe = try #require(requestSync(broker, envelope("Echo.Describe")))
        #expect(try DescribeReply(serialized: describe.payload).methods == ["Echo.Describe", "Echo.Say"])
    }

    @Test func asyncRequestReturnsTheReply() async throws {
        let broker = try startBroker(context: context)
        defer { broker.stop() }
        let worker = try startWorker(echoRouter(), broker: try #require(broker.endpoint), context: context)
        defer { worker.stop() }
        #expect(eventually { workers(broker) == 1 })
        let reply = await broker.request(service: "Echo", envelope: envelope(payload: [9, 8], id: "a"))
        #expect(reply == .success(requestID: "a", payload: [8, 9]))
    }

    @Test func twoWorkerThreadsShareTheLoad() throws {
        let threadsSeen = Mutex<Set<String>>([])
        let bothBusy = Gate()
        let arrived = Atomic<Int>(0)
        let broker = try startBroker(context: context)
        defer { broker.stop() }
        let router = echoRouter {
            threadsSeen.withLock { _ = $0.insert("\(pthread_self())") }
            // The first two requests wait for each other: only two parallel workers can get both through.
            switch arrived.add(1, ordering: .relaxed).newValue {
            case 1: bothBusy.wait(seconds: 3)
            case 2: bothBusy.open()
            default: break
            }
        }
        let worker = try startWorker(router, broker: try #require(broker.endpoint), context: context, threads: 2)
        defer { worker.stop() }
        #expect(eventually { workers(broker) == 2 })

        let replies = Mutex<[ReplyEnvelope]>([])
        let group = DispatchGroup()
        for index in 0..<10 {
            group.enter()
            broker.submit(service: "Echo", envelope: envelope(id: "r\(index)")) { reply in
                replies.withLock { $0.append(reply) }
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(replies.withLock { $0.map(\.status) } == Array(repeating: .ok, count: 10))
        #expect(threadsSeen.withLock { $0.count } == 2)
    }

    @Test func noWorkerMeansUnavailableAtOnce() throws {
        let broker = try startBroker(context: context)
        defer { broker.stop() }
        let reply = try #require(requestSync(broker, service: "Nobody", envelope(id: "x", timeoutMilliseconds: 60_000)))
        #expect(reply.status == .unavailable)
        #expect(reply.requestID == "x")
    }

    @Test func slowHandlerPastTheDeadlineGivesDeadlineExceeded() throws {
        let release = Gate()
        let broker = try startBroker(context: context)
        defer { broker.stop() }
        let worker = try startWorker(echoRouter { release.wait() }, broker: try #require(broker.endpoint),
                                     context: context)
        defer { worker.stop() }
        #expect(eventually { workers(broker) == 1 })
        let reply = try #require(requestSync(broker, envelope(id: "slow", timeoutMilliseconds: 150)))
        release.open()
        #expect(reply.status == .deadlineExceeded)
        #expect(reply.requestID == "slow")
    }

    @Test func requestSwallowedByAStuckWorkerIsRetriedOnAHealthyOne() throws {
        let broker = try startBroker(context: context)
        defer { broker.stop() }
        let endpoint = try #require(broker.endpoint)
        // The stuck worker registers first, so least-recently-used order hands it the request.
        let stuck = try context.socket(.dealer)
        try stuck.connect(endpoint)
        try stuck.send(WorkerProtocol.frames(.ready(service: "Echo", instance: "stuck")))
        #expect(eventually { workers(broker) == 1 })
        let healthy = try startWorker(echoRouter(), broker: endpoint, context: context)
        defer { healthy.stop() }
        #expect(eventually { workers(broker) == 2 })

        let result = Mutex<ReplyEnvelope?>(nil)
        broker.submit(service: "Echo", envelope: envelope(payload: [1, 2], id: "retry")) { reply in
            result.withLock { $0 = reply }
        }
        let swallowed = try receive(stuck) { command($0, at: 1) == .request }
        #expect(swallowed != nil)  // the stuck worker got it, and never answers
        #expect(eventually { result.withLock { $0 } != nil })
        #expect(result.withLock { $0 } == .success(requestID: "retry", payload: [2, 1]))
    }

    @Test func garbageFromARawDealerDoesNotDisturbService() throws {
        let broker = try startBroker(context: context)
        defer { broker.stop() }
        let endpoint = try #require(broker.endpoint)
        let worker = try startWorker(echoRouter(), broker: endpoint, context: context)
        defer { worker.stop() }
        #expect(eventually { workers(broker) == 1 })

        let rogue = try context.socket(.dealer)
        try rogue.connect(endpoint)
        let tag = WorkerProtocol.tag
        let garbage: [[[UInt8]]] = [
            [[0xFF]], [tag], [tag, [0x99]], [Array("HTTP/1.1".utf8), [0x01]], [tag, [0x01], [], []],
            [tag, [0x01], Array("Echo".utf8)], [tag, [0x03], [1, 2], [3]], [tag, [0x02], WorkerProtocol.ticketFrame(1), []],
            [tag, [0x03], WorkerProtocol.ticketFrame(1), [0xDE, 0xAD]], [tag, [0x05]],
        ]
        for frames in garbage { try rogue.send(frames) }
        // A well-formed non-READY message from an unknown worker is answered with DISCONNECT.
        try rogue.send(WorkerProtocol.frames(.heartbeat))
        #expect(try receive(rogue) { command($0, at: 1) == .disconnect } != nil)

        let reply = try #require(requestSync(broker, envelope(payload: [5, 6], id: "still-fine")))
        #expect(reply == .success(requestID: "still-fine", payload: [6, 5]))
        #expect(workers(broker) == 1)
    }

    @Test func workerAnswersValidMalformedAndSurvivesOversizedRequests() throws {
        let router = try context.socket(.router)
        try router.bind("tcp://127.0.0.1:*")
        let worker = try startWorker(echoRouter(), broker: try router.lastEndpoint(), context: context,
                                     maxMessageBytes: 4_096)
        defer { worker.stop() }
        let ready = try #require(try receive(router) { command($0, at: 2) == .ready })
        #expect(ready[1] == WorkerProtocol.tag)
        #expect(ready[3] == Array("Echo".utf8))
        var identity = ready[0]

        func request(ticket: UInt64, _ body: [UInt8]) throws {
            try router.send([identity, WorkerProtocol.tag, WorkerProtocol.Command.request.frame,
                             WorkerProtocol.ticketFrame(ticket), body])
        }
        func reply(ticket: UInt64) throws -> ReplyEnvelope? {
            let frames = try receive(router) {
                command($0, at: 2) == .reply && $0.count == 5 && WorkerProtocol.ticket(from: $0[3]) == ticket
            }
            return try frames.map { try ReplyEnvelope(serialized: $0[4]) }
        }

        try request(ticket: 1, envelope(payload: [1, 2], id: "ok").serialized())
        #expect(try reply(ticket: 1) == .success(requestID: "ok", payload: [2, 1]))

        try request(ticket: 2, [0xFF, 0xFF, 0xFF, 0x01])
        #expect(try reply(ticket: 2)?.status == .invalidArgument)

        // Malformed frame sets are dropped without an answer; the worker keeps serving.
        try router.send([identity, WorkerProtocol.tag, WorkerProtocol.Command.request.frame, [1, 2], [3]])
        try router.send([identity, Array("junk".utf8)])

        // Oversized: libzmq drops the connection; the worker reconnects (new routing id) and keeps heartbeating.
        try request(ticket: 3, envelope(payload: Array(repeating: 0xAB, count: 8_192), id: "big").serialized())
        let fresh = try #require(try receive(router) { $0[0] != identity })
        identity = fresh[0]
        try request(ticket: 4, envelope(payload: [7, 8, 9], id: "after").serialized())
        #expect(try reply(ticket: 4) == .success(requestID: "after", payload: [9, 8, 7]))
    }

    @Test func workerReRegistersWhenTheBrokerSaysDisconnect() throws {
        let router = try context.socket(.router)
        try router.bind("tcp://127.0.0.1:*")
        let worker = try startWorker(echoRouter(), broker: try router.lastEndpoint(), context: context)
        defer { worker.stop() }
        let ready = try #require(try receive(router) { command($0, at: 2) == .ready })
        try router.send([ready[0]] + WorkerProtocol.frames(.disconnect))
        #expect(try receive(router) { command($0, at: 2) == .ready } != nil)
    }

    @Test func workerReconnectsToABrokerThatWentSilent() throws {
        let first = try context.socket(.router)
        try first.bind("tcp://127.0.0.1:*")
        let endpoint = try first.lastEndpoint()
        let worker = try startWorker(echoRouter(), broker: endpoint, context: context)
        defer { worker.stop() }
        #expect(try receive(first) { command($0, at: 2) == .ready } != nil)
        // The broker never answers: after 3 silent intervals the worker opens a new connection and says READY again.
        #expect(try receive(first) { command($0, at: 2) == .ready } != nil)
    }

    @Test func stoppedWorkerDisconnectsAndLeavesTheBroker() throws {
        // A slow broker clock (expiry after 30 s): only the worker's DISCONNECT can remove it within the test.
        let broker = try startBroker(context: context, heartbeatMilliseconds: 10_000)
        defer { broker.stop() }
        let worker = try startWorker(echoRouter(), broker: try #require(broker.endpoint), context: context, threads: 2)
        #expect(eventually { workers(broker) == 2 })
        worker.stop()
        worker.stop()
        #expect(eventually(within: 2) { workers(broker) == 0 })
        #expect(requestSync(broker, envelope())?.status == .unavailable)
    }

    @Test func stoppedBrokerFailsPendingAndLaterRequestsUnavailable() throws {
        let release = Gate()
        let broker = try startBroker(context: context)
        let worker = try startWorker(echoRouter { release.wait() }, broker: try #require(broker.endpoint),
                                     context: context)
        defer { worker.stop() }
        #expect(eventually { workers(broker) == 1 })
        let pending = Mutex<ReplyEnvelope?>(nil)
        broker.submit(service: "Echo", envelope: envelope(id: "pending")) { reply in pending.withLock { $0 = reply } }
        #expect(eventually { broker.stats().inFlight == 1 })
        let raw = try context.socket(.dealer)
        try raw.connect(try #require(broker.endpoint))
        try raw.send(WorkerProtocol.frames(.ready(service: "Other", instance: "raw")))
        #expect(eventually { workers(broker, service: "Other") == 1 })
        broker.stop()
        #expect(try receive(raw) { command($0, at: 1) == .disconnect } != nil)
        release.open()
        #expect(pending.withLock { $0 }?.status == .unavailable)
        #expect(pending.withLock { $0 }?.requestID == "pending")
        #expect(requestSync(broker, envelope(id: "late"))?.status == .unavailable)
        broker.stop()
    }

    @Test func oversizedSubmissionIsRefusedByTheBroker() throws {
        var configuration = BrokerConfiguration(workerEndpoint: "tcp://127.0.0.1:*")
        configuration.maxMessageBytes = 1_024
        let broker = try Broker(configuration: configuration, context: context, logger: testLogger())
        try broker.start()
        defer { broker.stop() }
        let reply = requestSync(broker, envelope(payload: Array(repeating: 1, count: 2_048)))
        #expect(reply?.status == .resourceExhausted)
    }

    @Test func bindFailureIsThrownByStart() throws {
        let broker = try Broker(configuration: BrokerConfiguration(workerEndpoint: "bogus://x"), context: context,
                                logger: testLogger())
        let error = #expect(throws: ZMQError.self) { try broker.start() }
        #expect(error?.function == "zmq_bind")
        #expect(requestSync(broker, envelope())?.status == .unavailable)
    }
}
