import Dispatch
import KYCCore
import KYCMessages
import Synchronization
import ZeroMQ

/// The request broker inside the gateway process: service workers connect to its ROUTER socket (protocol in
/// `WorkerProtocol`), in-process clients hand it requests with `submit`, and other processes (services calling
/// services) send requests to its second ROUTER socket, the client endpoint (protocol in `ClientProtocol`).
///
/// One dedicated thread owns both sockets. Clients on any thread put submissions in a lock-guarded queue and wake that
/// thread through a pipe it polls, so no socket crosses threads. Decisions live in `Broker.StateMachine`.
///
/// Completions run on the broker thread: they must return quickly and never block (resume a continuation, hand
/// the reply to another queue, ...), or every request of the process waits.
public final class Broker: Sendable {
    /// A reply handler; runs on the broker thread.
    public typealias Completion = @Sendable (ReplyEnvelope) -> Void

    struct Submission: Sendable {
        let service: String
        let requestID: String
        let envelope: [UInt8]
        let deadline: Int64
        let completion: Completion
    }

    struct Intake: Sendable {
        var accepting = false
        var stopRequested = false
        var submissions: [Submission] = []
    }

    enum Lifecycle: Sendable {
        case idle
        case running(DedicatedThread, endpoint: String, clientEndpoint: String?)
        case stopped
    }

    /// Who waits for a ticket's reply.
    private enum Waiter {
        /// An in-process `submit` caller.
        case completion(Completion)
        /// A client on the client socket: its routing id and the service it named (echoed in the reply).
        case client(routingID: [UInt8], service: String)
    }

    public let configuration: BrokerConfiguration
    private let context: ZMQContext
    private let logger: Logger
    private let intake = Mutex(Intake())
    private let wakeup: EventNotifier
    private let lifecycle = Mutex(Lifecycle.idle)
    private let snapshot = Mutex(BrokerStats())

    /// Creates a stopped broker; `start()` binds and runs it.
    public init(configuration: BrokerConfiguration = BrokerConfiguration(), context: ZMQContext, logger: Logger)
        throws
    {
        self.configuration = configuration
        self.context = context
        self.logger = logger
        self.wakeup = try EventNotifier()
    }

    /// Binds the worker endpoint on a new broker thread and returns the bound endpoint (wildcards resolved).
    /// Throws the bind error; calling it twice throws.
    @discardableResult
    public func start() throws -> String {
        try lifecycle.withLock { state in
            guard case .idle = state else {
                throw ZMQError(code: ZMQError.Code.operationNotSupported.rawValue, function: "Broker.start")
            }
            let started = Mutex<Result<(String, String?), any Error>?>(nil)
            let ready = DispatchSemaphore(value: 0)
            let thread = DedicatedThread(name: "broker") { [self] in
                run { result in
                    started.withLock { $0 = result }
                    ready.signal()
                }
            }
            ready.wait()
            let result = started.withLock { $0 }!
            switch result {
            case let .success((endpoint, clientEndpoint)):
                state = .running(thread, endpoint: endpoint, clientEndpoint: clientEndpoint)
                intake.withLock { $0.accepting = true }
                logger.info("broker started", ["endpoint": endpoint, "client.endpoint": clientEndpoint ?? "none"])
                return endpoint
            case let .failure(error):
                thread.join()
                state = .stopped
                throw error
            }
        }
    }

    /// The bound worker endpoint while running, e.g. `tcp://127.0.0.1:41234`.
    public var endpoint: String? {
        lifecycle.withLock { if case let .running(_, endpoint, _) = $0 { endpoint } else { nil } }
    }

    /// The bound client endpoint while running (nil when none is configured), e.g. `tcp://127.0.0.1:41235`.
    public var clientEndpoint: String? {
        lifecycle.withLock { if case let .running(_, _, client) = $0 { client } else { nil } }
    }

    /// Hands `envelope` to a worker of `service`; `completion` gets the worker's reply, or a reply the broker made:
    /// `.unavailable` (no worker, broker stopped), `.deadlineExceeded` (past `envelope.deadlineUnixMs`, or the
    /// default timeout when that is 0), `.resourceExhausted` (envelope larger than `maxMessageBytes`).
    /// Thread-safe. Runs `completion` on the caller's thread for immediate refusals, otherwise on the broker thread.
    public func submit(service: String, envelope: RequestEnvelope, completion: @escaping Completion) {
        let bytes = envelope.serialized()
        let requestID = envelope.requestID
        guard Int64(bytes.count) + 64 <= configuration.maxMessageBytes else {
            completion(.failure(requestID: requestID, status: .resourceExhausted, reason: "request too large",
                                errorCode: "payload_too_large"))
            return
        }
        let deadline = envelope.deadlineUnixMs > 0 ? envelope.deadlineUnixMs
            : WallClock.nowMilliseconds() + configuration.defaultRequestTimeoutMilliseconds
        let submission = Submission(service: service, requestID: requestID, envelope: bytes, deadline: deadline,
                                    completion: completion)
        let wake: Bool? = intake.withLock { intake in
            guard intake.accepting else { return nil }
            intake.submissions.append(submission)
            return intake.submissions.count == 1  // otherwise a wake-up is already pending
        }
        guard let wake else {
            completion(.failure(requestID: requestID, status: .unavailable, reason: "broker is not running"))
            return
        }
        if wake { wakeup.notify() }
    }

    /// `submit` for async callers. The reply arrives at the latest at the request's deadline.
    public func request(service: String, envelope: RequestEnvelope) async -> ReplyEnvelope {
        await withCheckedContinuation { continuation in
            submit(service: service, envelope: envelope) { continuation.resume(returning: $0) }
        }
    }

    /// Workers, queue depths and in-flight requests as of the broker thread's last loop turn.
    public func stats() -> BrokerStats { snapshot.withLock { $0 } }

    /// Graceful stop: refuse new submissions, fail pending ones with `.unavailable`, tell workers to DISCONNECT,
    /// close the socket and join the thread. Idempotent; returns once the broker thread has ended.
    /// Never call it from a completion (that runs on the broker thread, which would wait for itself).
    public func stop() {
        let thread: DedicatedThread? = lifecycle.withLock { state in
            defer { state = .stopped }
            if case let .running(thread, _, _) = state { return thread }
            return nil
        }
        guard let thread else { return }
        intake.withLock {
            $0.accepting = false
            $0.stopRequested = true
        }
        wakeup.notify()
        thread.join()
        logger.info("broker stopped")
    }

    // MARK: The broker thread

    /// Everything the broker thread owns.
    private struct Loop: ~Copyable {
        let socket: ZMQSocket
        /// The client endpoint's ROUTER socket, if configured.
        let clientSocket: ZMQSocket?
        var machine: StateMachine
        var pending: [StateMachine.Ticket: (requestID: String, waiter: Waiter)] = [:]
        var nextTicket: StateMachine.Ticket = 1
    }

    private func run(started: (Result<(String, String?), any Error>) -> Void) {
        var options = ZMQSocketOptions()
        options.maxMessageBytes = configuration.maxMessageBytes
        options.routerMandatory = true  // sends to a vanished worker fail, so its request is retried at once
        options.lingerMilliseconds = configuration.shutdownLingerMilliseconds
        var clientOptions = ZMQSocketOptions()
        clientOptions.maxMessageBytes = configuration.maxMessageBytes
        clientOptions.lingerMilliseconds = configuration.shutdownLingerMilliseconds
        let socket: ZMQSocket
        var clientSocket: ZMQSocket? = nil
        do {
            socket = try context.socket(.router, options: options)
        } catch {
            started(.failure(error))
            return
        }
        defer { socket.close() }
        do {
            try socket.bind(configuration.workerEndpoint)
            var clientBound: String? = nil
            if let clientEndpoint = configuration.clientEndpoint {
                let made = try context.socket(.router, options: clientOptions)
                clientSocket = made
                try made.bind(clientEndpoint)
                clientBound = try made.lastEndpoint()
            }
            started(.success((try socket.lastEndpoint(), clientBound)))
        } catch {
            clientSocket?.close()
            started(.failure(error))
            return
        }
        defer { clientSocket?.close() }
        var loop = Loop(socket: socket, clientSocket: clientSocket, machine: StateMachine(
            heartbeatIntervalMilliseconds: configuration.heartbeatIntervalMilliseconds,
            liveness: configuration.liveness))
        var poller = ZMQPoller()
        let socketIndex = poller.add(socket)
        let wakeupIndex = poller.add(fileDescriptor: wakeup.fileDescriptor)
        let clientIndex = clientSocket.map { poller.add($0) }
        let tickInterval = min(MessagingTimings.brokerTickMilliseconds, configuration.heartbeatIntervalMilliseconds)
        var nextTick = WallClock.nowMilliseconds() + tickInterval

        while true {
            let timeout = max(0, nextTick - WallClock.nowMilliseconds())
            do {
                try poller.poll(timeoutMilliseconds: Int(timeout))
            } catch {
                logger.error("broker poll failed", ["error": "\(error)"])
                break
            }
            if poller.isReadable(socketIndex) { receiveFromWorkers(&loop) }
            if let clientIndex, poller.isReadable(clientIndex) { receiveFromClients(&loop) }
            if poller.isReadable(wakeupIndex) {
                wakeup.drain()
                let (submissions, stopping) = intake.withLock { intake in
                    defer { intake.submissions = [] }
                    return (intake.submissions, intake.stopRequested)
                }
                if stopping {
                    refuse(submissions)
                    break
                }
                let now = WallClock.nowMilliseconds()
                for submission in submissions {
                    let ticket = loop.nextTicket
                    loop.nextTicket += 1
                    loop.pending[ticket] = (submission.requestID, .completion(submission.completion))
                    perform(loop.machine.submit(ticket: ticket, service: submission.service,
                                                envelope: submission.envelope, deadline: submission.deadline,
                                                now: now), &loop)
                }
            }
            let now = WallClock.nowMilliseconds()
            if now >= nextTick {
                perform(loop.machine.tick(now: now), &loop)
                nextTick = now + tickInterval
                // Published once per tick rather than per message: building it allocates, and readers
                // (readiness, metrics) are fine with a view at most one tick old.
                let stats = loop.machine.stats
                snapshot.withLock { $0 = stats }
            }
        }
        // However the loop ended, every accepted request completes exactly once.
        refuse(intake.withLock { intake in
            intake.accepting = false
            defer { intake.submissions = [] }
            return intake.submissions
        })
        perform(loop.machine.shutdown(), &loop)
        for (requestID, waiter) in loop.pending.values {
            deliver(.failure(requestID: requestID, status: .unavailable, reason: "broker is stopping"), to: waiter,
                    &loop)
        }
        loop.pending = [:]
        snapshot.withLock { $0 = BrokerStats() }
    }

    private func refuse(_ submissions: [Submission]) {
        for submission in submissions {
            submission.completion(.failure(requestID: submission.requestID, status: .unavailable,
                                           reason: "broker is stopping"))
        }
    }

    /// Handles the worker messages already queued, a bounded batch so submissions and ticks are not starved.
    private func receiveFromWorkers(_ loop: inout Loop) {
        for _ in 0..<512 {
            let now = WallClock.nowMilliseconds()
            let actions: [StateMachine.Action]?
            do {
                actions = try loop.socket.withReceivedMessage(dontWait: true) { frames -> [StateMachine.Action] in
                    guard frames.count >= 3, let message = WorkerProtocol.parse(frames[1...]) else {
                        logger.debug("dropped malformed worker message", ["frames": "\(frames.count)"])
                        return []
                    }
                    let worker = [UInt8](frames[0])
                    switch message {
                    case let .ready(service, instance, capacity):
                        logger.debug("worker ready", ["service": service, "instance": instance,
                                                      "capacity": "\(capacity)"])
                        return loop.machine.workerReady(worker, service: service, instance: instance,
                                                        capacity: capacity, now: now)
                    case .heartbeat:
                        return loop.machine.workerHeartbeat(worker, now: now)
                    case let .reply(ticket, envelope):
                        return loop.machine.workerReply(worker, ticket: ticket, reply: envelope, now: now)
                    case .disconnect:
                        return loop.machine.workerDisconnected(worker, now: now)
                    case .request:
                        logger.debug("dropped REQUEST sent by a worker")
                        return []
                    }
                }
            } catch {
                logger.error("broker receive failed", ["error": "\(error)"])
                return
            }
            guard let actions else { return }  // nothing more queued
            perform(actions, &loop)
        }
    }

    /// Carries out the state machine's actions; a worker found unreachable feeds a disconnect back in.
    private func perform(_ actions: [StateMachine.Action], _ loop: inout Loop) {
        var work = actions[...]
        while let action = work.popFirst() {
            switch action {
            case let .sendRequest(worker, ticket, envelope):
                if !send([worker, WorkerProtocol.tag, WorkerProtocol.Command.request.frame,
                          WorkerProtocol.ticketFrame(ticket), envelope], loop.socket) {
                    work.append(contentsOf: loop.machine.workerDisconnected(worker, now: WallClock.nowMilliseconds()))
                }
            case let .sendHeartbeat(worker):
                if !send([worker, WorkerProtocol.tag, WorkerProtocol.Command.heartbeat.frame], loop.socket) {
                    work.append(contentsOf: loop.machine.workerDisconnected(worker, now: WallClock.nowMilliseconds()))
                }
            case let .sendDisconnect(worker):
                _ = send([worker, WorkerProtocol.tag, WorkerProtocol.Command.disconnect.frame], loop.socket)
            case let .complete(ticket, outcome):
                guard let (requestID, waiter) = loop.pending.removeValue(forKey: ticket) else { continue }
                deliver(reply(for: outcome, requestID: requestID), to: waiter, &loop)
            }
        }
    }

    /// Hands a reply to whoever waits for it: runs the completion, or sends it to the client socket.
    private func deliver(_ reply: ReplyEnvelope, to waiter: Waiter, _ loop: inout Loop) {
        switch waiter {
        case let .completion(completion):
            completion(reply)
        case let .client(routingID, service):
            guard let clientSocket = loop.clientSocket else { return }
            if !send([routingID] + ClientProtocol.frames(service: service, envelope: reply.serialized()), clientSocket) {
                logger.debug("client gone before its reply", ["request.id": reply.requestID])
            }
        }
    }

    /// Handles the client messages already queued (a bounded batch, as for workers): each well-formed request
    /// becomes a ticket like a `submit`; a malformed envelope is answered INVALID_ARGUMENT; other garbage is dropped.
    private func receiveFromClients(_ loop: inout Loop) {
        guard let clientSocket = loop.clientSocket else { return }
        for _ in 0..<512 {
            let frames: [[UInt8]]?
            do {
                frames = try clientSocket.receive(dontWait: true)
            } catch {
                logger.error("broker client receive failed", ["error": "\(error)"])
                return
            }
            guard let frames else { return }
            guard frames.count >= 2, let request = ClientProtocol.parse(frames[1...]) else {
                logger.debug("dropped malformed client message", ["frames": "\(frames.count)"])
                continue
            }
            let routingID = frames[0]
            guard let envelope = try? RequestEnvelope(serialized: request.envelope) else {
                let refusal = ReplyEnvelope.failure(requestID: "", status: .invalidArgument,
                                                    reason: "malformed request envelope")
                deliver(refusal, to: .client(routingID: routingID, service: request.service), &loop)
                continue
            }
            let now = WallClock.nowMilliseconds()
            let deadline = envelope.deadlineUnixMs > 0 ? envelope.deadlineUnixMs
                : now + configuration.defaultRequestTimeoutMilliseconds
            let ticket = loop.nextTicket
            loop.nextTicket += 1
            loop.pending[ticket] = (envelope.requestID, .client(routingID: routingID, service: request.service))
            perform(loop.machine.submit(ticket: ticket, service: request.service, envelope: request.envelope,
                                        deadline: deadline, now: now), &loop)
        }
    }

    /// Sends without blocking; `false` when the worker is gone or its queue is full.
    private func send(_ frames: [[UInt8]], _ socket: ZMQSocket) -> Bool {
        do {
            return try socket.send(frames, dontWait: true)
        } catch {
            if error.code != .hostUnreachable { logger.warning("broker send failed", ["error": "\(error)"]) }
            return false
        }
    }

    private func reply(for outcome: StateMachine.Outcome, requestID: String) -> ReplyEnvelope {
        switch outcome {
        case let .reply(bytes):
            guard var reply = try? ReplyEnvelope(serialized: bytes) else {
                logger.warning("malformed reply from worker", ["request.id": requestID])
                return .failure(requestID: requestID, status: .internalError, reason: "internal error")
            }
            if reply.requestID.isEmpty { reply.requestID = requestID }
            return reply
        case .failed(.deadlineExceeded):
            return .failure(requestID: requestID, status: .deadlineExceeded, reason: "deadline exceeded")
        case let .failed(status):
            return .failure(requestID: requestID, status: status, reason: "service unavailable")
        }
    }
}
