import KYCCore
import KYCMessages
import Synchronization
import ZeroMQ

/// Serves one service's requests from the broker on `threads` dedicated threads, each with its own DEALER socket
/// (so each thread is a separate worker to the broker and requests run in parallel).
///
/// Each thread: connects, sends READY, answers REQUESTs through the `ServiceRouter`, heartbeats, and when the broker
/// has been silent for `liveness` heartbeat intervals reconnects with a doubling back-off (1 s → 32 s). A DISCONNECT
/// from the broker makes it send READY again. Each thread announces `capacity`: the broker may send it that many
/// requests before its first reply, so the next one is already waiting when a handler returns. Handlers run on the
/// worker thread, one request at a time per thread;
/// a handler that runs longer than `liveness × heartbeat interval` (3 s) looks dead to the broker, which then
/// retries its request elsewhere.
public final class ServiceWorker: Sendable {
    public let configuration: ServiceWorkerConfiguration
    private let router: ServiceRouter
    private let logger: Logger
    private let providedContext: ZMQContext?
    private let stopping: EventNotifier
    private let threads = Mutex<[DedicatedThread]?>(nil)
    private let isStopping = Atomic<Bool>(false)

    /// `context`: share the process's ZeroMQ context; by default the worker makes its own.
    public init(configuration: ServiceWorkerConfiguration, router: ServiceRouter, logger: Logger,
                context: ZMQContext? = nil) throws {
        self.configuration = configuration
        self.router = router
        self.logger = logger.with(["service": configuration.service])
        self.providedContext = context
        self.stopping = try EventNotifier()
    }

    /// Spawns the worker threads. Calling it again does nothing.
    public func start() throws {
        let context = try providedContext ?? ZMQContext()
        threads.withLock { threads in
            guard threads == nil, !isStopping.load(ordering: .acquiring) else { return }
            threads = (0..<configuration.threads).map { index in
                DedicatedThread(name: "\(configuration.service)-worker-\(index)") { [self] in
                    serve(label: "\(configuration.instance)#\(index)", context: context)
                }
            }
        }
        logger.info("workers started", ["threads": "\(configuration.threads)", "broker": configuration.brokerEndpoint])
    }

    /// Graceful stop: each thread finishes its current request, sends DISCONNECT, closes its socket; then joins.
    /// Idempotent.
    public func stop() {
        guard !isStopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        stopping.notify()  // never drained: stays readable for every thread
        let started = threads.withLock { $0 ?? [] }
        for thread in started { thread.join() }
        logger.info("workers stopped")
    }

    /// Starts, blocks the calling thread until `signal` fires, then stops. For `main` of service executables.
    public func run(until signal: ShutdownSignal) throws {
        try start()
        signal.wait()
        stop()
    }

    // MARK: One worker thread

    private enum SessionEnd { case stop, reconnect, failed }

    private func serve(label: String, context: ZMQContext) {
        var backoff = configuration.reconnectInitialMilliseconds
        while !isStopping.load(ordering: .acquiring) {
            switch session(label: label, context: context, backoff: &backoff) {
            case .stop:
                return
            case .reconnect, .failed:
                logger.warning("broker unreachable, reconnecting", ["instance": label, "delay.ms": "\(backoff)"])
                if waitForStop(milliseconds: backoff) { return }
                backoff = min(backoff * 2, configuration.reconnectMaxMilliseconds)
            }
        }
    }

    /// Sleeps up to `milliseconds` unless stop is requested; returns whether it was.
    private func waitForStop(milliseconds: Int64) -> Bool {
        var poller = ZMQPoller()
        poller.add(fileDescriptor: stopping.fileDescriptor)
        let deadline = MonotonicClock.nowMilliseconds() + milliseconds
        while !isStopping.load(ordering: .acquiring) {
            let remaining = deadline - MonotonicClock.nowMilliseconds()
            if remaining <= 0 { return false }
            _ = try? poller.poll(timeoutMilliseconds: Int(remaining))
        }
        return true
    }

    /// One connection to the broker, until stop or the broker goes silent.
    private func session(label: String, context: ZMQContext, backoff: inout Int64) -> SessionEnd {
        var options = ZMQSocketOptions()
        options.maxMessageBytes = configuration.maxMessageBytes
        options.lingerMilliseconds = configuration.shutdownLingerMilliseconds  // lets the final DISCONNECT leave
        let socket: ZMQSocket
        do {
            socket = try context.socket(.dealer, options: options)
            try socket.connect(configuration.brokerEndpoint)
        } catch {
            logger.error("worker socket failed", ["instance": label, "error": "\(error)"])
            return .failed
        }
        defer { socket.close() }
        let ready = WorkerProtocol.frames(.ready(service: configuration.service, instance: label,
                                                 capacity: configuration.capacity))
        send(ready, socket)

        var poller = ZMQPoller()
        let socketIndex = poller.add(socket)
        let stopIndex = poller.add(fileDescriptor: stopping.fileDescriptor)
        let interval = configuration.heartbeatIntervalMilliseconds
        let silenceLimit = interval * configuration.liveness
        var lastHeard = MonotonicClock.nowMilliseconds()
        var nextHeartbeat = lastHeard + interval

        while true {
            let now = MonotonicClock.nowMilliseconds()
            let timeout = max(0, min(nextHeartbeat, lastHeard + silenceLimit) - now)
            do {
                try poller.poll(timeoutMilliseconds: Int(timeout))
            } catch {
                logger.error("worker poll failed", ["instance": label, "error": "\(error)"])
                return .failed
            }
            if poller.isReadable(stopIndex) || isStopping.load(ordering: .acquiring) {
                send(WorkerProtocol.frames(.disconnect), socket)
                return .stop
            }
            if poller.isReadable(socketIndex) {
                while let message = receive(socket, label: label) {
                    lastHeard = MonotonicClock.nowMilliseconds()
                    backoff = configuration.reconnectInitialMilliseconds
                    handle(message, socket: socket, label: label, ready: ready)
                }
            }
            let after = MonotonicClock.nowMilliseconds()
            if after - lastHeard >= silenceLimit { return .reconnect }
            if after >= nextHeartbeat {
                send(WorkerProtocol.frames(.heartbeat), socket)
                nextHeartbeat = after + interval
            }
        }
    }

    /// The next queued message parsed from borrowed frames: `nil` when none is queued, `.some(nil)` when malformed.
    private func receive(_ socket: ZMQSocket, label: String) -> WorkerProtocol.Message?? {
        do {
            return try socket.withReceivedMessage(dontWait: true) { frames in WorkerProtocol.parse(frames[...]) }
        } catch {
            logger.error("worker receive failed", ["instance": label, "error": "\(error)"])
            return nil
        }
    }

    private func handle(_ message: WorkerProtocol.Message?, socket: ZMQSocket, label: String, ready: [[UInt8]]) {
        switch message {
        case let .request(ticket, bytes):
            let reply: ReplyEnvelope
            if let envelope = try? RequestEnvelope(serialized: bytes) {
                reply = router.handle(envelope)
            } else {
                logger.debug("malformed request envelope", ["instance": label, "bytes": "\(bytes.count)"])
                reply = .failure(requestID: "", status: .invalidArgument, reason: "malformed request envelope")
            }
            send(WorkerProtocol.frames(.reply(ticket: ticket, envelope: reply.serialized())), socket)
        case .heartbeat:
            break
        case .disconnect:
            logger.info("broker asked to re-register", ["instance": label])
            send(ready, socket)
        case .ready, .reply, nil:
            logger.debug("dropped malformed broker message", ["instance": label])
        }
    }

    /// Sends without blocking: with no broker connected the message is dropped (the heartbeat logic reconnects).
    private func send(_ frames: [[UInt8]], _ socket: ZMQSocket) {
        do {
            if try !socket.send(frames, dontWait: true) { logger.debug("worker send would block; dropped") }
        } catch {
            logger.warning("worker send failed", ["error": "\(error)"])
        }
    }
}
