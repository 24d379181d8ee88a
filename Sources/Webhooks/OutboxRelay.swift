import Dispatch
import KYCCore
import KYCMessages
import Messaging
import Storage
import Synchronization
import ZeroMQ

/// Timings of an `OutboxRelay`. Every field has a default.
public struct OutboxRelayConfiguration: Sendable {
    /// How often the outbox is checked when idle (`wake()` checks at once).
    public var pollIntervalMilliseconds: Int64 = 250
    /// How long one `webhook.Publish` may take before it counts as failed.
    public var requestTimeoutMilliseconds: Int64 = 3_000
    /// First pause after a failed Publish (WebhookService or broker down); doubles up to the maximum.
    public var retryInitialMilliseconds: Int64 = 500
    public var retryMaxMilliseconds: Int64 = 30_000
    /// Events read per round.
    public var batchSize = 50

    public init() {}
}

/// Forwards a service's un-relayed outbox events to WebhookService (`webhook.Publish` through the broker's client
/// endpoint) on a dedicated thread, marking each relayed once WebhookService acknowledged it.
///
/// Delivery to WebhookService is at least once: a crash between the acknowledgement and the mark sends the event
/// again, and WebhookService de-duplicates by event id. Events go out in outbox order; a failed Publish pauses the
/// relay (back-off `retryInitialMilliseconds` doubling to `retryMaxMilliseconds`) and the same event is tried again.
/// An event WebhookService refuses as invalid is marked rejected (kept, with the reason) so it cannot block the rest.
public final class OutboxRelay: BackgroundWorker, Sendable {
    /// The service that receives the events.
    public static let targetService = "webhook"
    public static let publishMethod = "webhook.Publish"

    private enum Lifecycle { case idle, running(DedicatedThread), stopped }

    private let database: Database
    private let service: String
    private let clientEndpoint: String
    private let logger: Logger
    private let configuration: OutboxRelayConfiguration
    private let providedContext: ZMQContext?
    private let lifecycle = Mutex(Lifecycle.idle)
    private let isStopping = Atomic<Bool>(false)
    private let wakeup = DispatchSemaphore(value: 0)

    /// `service` names the source in events and logs; `clientEndpoint` is the broker's client endpoint
    /// (`ServiceProcessConfiguration.brokerClientEndpoint`).
    public convenience init(database: Database, service: String, clientEndpoint: String, logger: Logger) {
        self.init(database: database, service: service, clientEndpoint: clientEndpoint, logger: logger,
                  configuration: OutboxRelayConfiguration(), context: nil)
    }

    /// As above, with timings and a shared ZeroMQ context (by default the relay makes its own).
    public init(database: Database, service: String, clientEndpoint: String, logger: Logger,
                configuration: OutboxRelayConfiguration, context: ZMQContext? = nil) {
        self.database = database
        self.service = service
        self.clientEndpoint = clientEndpoint
        self.logger = logger.with(["component": "outbox-relay"])
        self.configuration = configuration
        self.providedContext = context
    }

    deinit { stop() }

    /// Starts the relay thread. Calling it again (or after `stop`) does nothing.
    public func start() {
        lifecycle.withLock { state in
            guard case .idle = state else { return }
            state = .running(DedicatedThread(name: "\(service)-outbox-relay") { [self] in run() })
        }
        logger.info("outbox relay started", ["broker.client": clientEndpoint])
    }

    /// Checks the outbox now instead of at the next poll (e.g. right after a transaction that enqueued an event).
    public func wake() { wakeup.signal() }

    /// Stops the relay and waits for its thread; a Publish in flight finishes or times out first. Idempotent.
    public func stop() {
        let thread: DedicatedThread? = lifecycle.withLock { state in
            defer { state = .stopped }
            if case let .running(thread) = state { return thread }
            return nil
        }
        guard let thread else { return }
        isStopping.store(true, ordering: .releasing)
        wakeup.signal()
        thread.join()
        logger.info("outbox relay stopped")
    }

    // MARK: The relay thread

    private struct PendingEvent {
        let sequence: Int64
        let eventID: String
        let tenant: String
        let type: String
        let payload: [UInt8]
        let createdAt: Int64
    }

    private enum Outcome { case relayed, rejected(String), failed(String) }

    private func run() {
        let context: ZMQContext
        do {
            context = try providedContext ?? ZMQContext()
        } catch {
            logger.error("outbox relay cannot create a ZeroMQ context", ["error": "\(error)"])
            return
        }
        let client = ServiceClient(context: context, endpoint: clientEndpoint)
        defer { client.close() }
        var backoff = configuration.retryInitialMilliseconds
        while !isStopping.load(ordering: .acquiring) {
            let batch: [PendingEvent]
            do {
                batch = try pendingEvents()
            } catch {
                logger.error("outbox read failed", ["error": "\(error)"])
                pause(backoff)
                backoff = min(backoff * 2, configuration.retryMaxMilliseconds)
                continue
            }
            if batch.isEmpty {
                pause(configuration.pollIntervalMilliseconds)
                continue
            }
            var failed = false
            for event in batch {
                if isStopping.load(ordering: .acquiring) { return }
                let outcome = publish(event, client)
                do {
                    try record(outcome, for: event)
                } catch {
                    logger.error("outbox update failed", ["event.id": event.eventID, "error": "\(error)"])
                    failed = true
                    break
                }
                if case let .failed(reason) = outcome {
                    logger.warning("event not relayed yet", ["event.id": event.eventID, "reason": reason,
                                                             "retry.ms": "\(backoff)"])
                    failed = true
                    break
                }
            }
            if failed {
                pause(backoff)
                backoff = min(backoff * 2, configuration.retryMaxMilliseconds)
            } else {
                backoff = configuration.retryInitialMilliseconds
            }
        }
    }

    /// Waits up to `milliseconds`, or less when woken or stopped.
    private func pause(_ milliseconds: Int64) {
        guard !isStopping.load(ordering: .acquiring) else { return }
        _ = wakeup.wait(timeout: .now() + .milliseconds(Int(milliseconds)))
    }

    private func pendingEvents() throws -> [PendingEvent] {
        try database.query(
            """
            SELECT sequence, event_id, tenant, type, payload, created_at_ms FROM webhook_outbox
            WHERE relayed_at_ms IS NULL AND rejected_at_ms IS NULL ORDER BY sequence LIMIT ?
            """, [.integer(Int64(configuration.batchSize))]
        ).map { row in
            PendingEvent(sequence: try row.int("sequence"), eventID: try row.string("event_id"),
                         tenant: try row.string("tenant"), type: try row.string("type"),
                         payload: try row.blob("payload"), createdAt: try row.int("created_at_ms"))
        }
    }

    private func publish(_ event: PendingEvent, _ client: ServiceClient) -> Outcome {
        let request = PublishRequest(eventID: event.eventID, type: event.type, data: event.payload,
                                     occurredAtUnixMs: event.createdAt, sourceService: service)
        let envelope = RequestEnvelope(
            requestID: "relay-\(event.eventID)", tenant: event.tenant,
            principal: Principal(kind: .unspecified, id: "service:\(service)"),
            deadlineUnixMs: WallClock.nowMilliseconds() + configuration.requestTimeoutMilliseconds,
            method: Self.publishMethod, payload: request.serialized())
        let reply: ReplyEnvelope
        do {
            reply = try client.request(service: Self.targetService, envelope: envelope,
                                       timeoutMilliseconds: configuration.requestTimeoutMilliseconds)
        } catch {
            return .failed("\(error)")
        }
        switch reply.status {
        case .ok:
            return .relayed
        case .invalidArgument, .permissionDenied, .resourceExhausted, .alreadyExists:
            // Sending it again cannot succeed; keep it for inspection instead of blocking the outbox.
            return .rejected("\(reply.errorCode): \(reply.reason)")
        default:
            return .failed("\(reply.status) \(reply.errorCode): \(reply.reason)")
        }
    }

    private func record(_ outcome: Outcome, for event: PendingEvent) throws {
        let now = WallClock.nowMilliseconds()
        switch outcome {
        case .relayed:
            try database.execute("UPDATE webhook_outbox SET relayed_at_ms = ?, relay_attempts = relay_attempts + 1, "
                                 + "last_error = NULL WHERE sequence = ?", [.integer(now), .integer(event.sequence)])
            logger.debug("event relayed", ["event.id": event.eventID, "event.type": event.type])
        case let .rejected(reason):
            try database.execute("UPDATE webhook_outbox SET rejected_at_ms = ?, relay_attempts = relay_attempts + 1, "
                                 + "last_error = ? WHERE sequence = ?",
                                 [.integer(now), .text(reason), .integer(event.sequence)])
            logger.error("event rejected by WebhookService", ["event.id": event.eventID, "reason": reason])
        case let .failed(reason):
            try database.execute("UPDATE webhook_outbox SET relay_attempts = relay_attempts + 1, last_error = ? "
                                 + "WHERE sequence = ?", [.text(reason), .integer(event.sequence)])
        }
    }
}

extension Outbox {
    /// Events neither relayed nor rejected yet (for readiness checks and tests).
    public static func unrelayedCount(_ database: Database) throws -> Int {
        let row = try database.queryOne(
            "SELECT count(*) AS n FROM webhook_outbox WHERE relayed_at_ms IS NULL AND rejected_at_ms IS NULL")
        return Int(try row?.int("n") ?? 0)
    }
}
