import Dispatch
import KYCCore
import KYCMessages
import Messaging
import Synchronization
import Webhooks

/// Milliseconds since the Unix epoch; injectable so tests can move time.
public typealias WebhookClock = @Sendable () -> Int64

/// Settings of the delivery loop. Every field has a default.
public struct WebhookDispatcherConfiguration: Sendable {
    /// Back-off and dead-letter window.
    public var retry = RetrySchedule()
    /// Per-attempt HTTP timeout.
    public var requestTimeoutMilliseconds = 10_000
    /// Threads sending deliveries (a slow endpoint holds one of them for up to the timeout).
    public var threads = 4
    /// Longest sleep between checks for due deliveries (`wake()` checks at once).
    public var pollIntervalMilliseconds: Int64 = 1_000
    /// How long a claimed delivery is reserved for the attempt in progress; if the process dies, it is due again
    /// after this.
    public var leaseMilliseconds: Int64 = 60_000

    public init() {}
}

/// Sends due deliveries: signs each with the tenant's secret (Standard Webhooks headers), POSTs exactly the stored
/// body bytes, and records the attempt: 2xx → delivered; anything else → retried per `RetrySchedule`, or
/// dead-lettered once past the retry window. All state is in the `WebhookStore`, so a restarted dispatcher picks up
/// where the last one stopped.
public final class WebhookDispatcher: BackgroundWorker, Sendable {
    public let configuration: WebhookDispatcherConfiguration
    private let store: WebhookStore
    private let transport: any WebhookTransport
    private let clock: WebhookClock
    private let random: @Sendable () -> Double
    private let logger: Logger
    private let threads = Mutex<[DedicatedThread]?>(nil)
    private let isStopping = Atomic<Bool>(false)
    private let wakeup = DispatchSemaphore(value: 0)

    /// `random` (0..<1) picks each retry's jitter.
    public init(store: WebhookStore, transport: any WebhookTransport = CurlWebhookTransport(),
                configuration: WebhookDispatcherConfiguration = WebhookDispatcherConfiguration(),
                clock: @escaping WebhookClock = { WallClock.nowMilliseconds() },
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, logger: Logger) {
        self.store = store
        self.transport = transport
        self.configuration = configuration
        self.clock = clock
        self.random = random
        self.logger = logger.with(["component": "webhook-dispatcher"])
    }

    /// Starts the delivery threads. Calling it again does nothing.
    public func start() {
        threads.withLock { threads in
            guard threads == nil, !isStopping.load(ordering: .acquiring) else { return }
            threads = (0..<max(1, configuration.threads)).map { index in
                DedicatedThread(name: "webhook-delivery-\(index)") { [self] in loop() }
            }
        }
        logger.info("webhook dispatcher started", ["threads": "\(configuration.threads)"])
    }

    /// Makes the threads look for due deliveries now (after a Publish or Redeliver).
    public func wake() {
        for _ in 0..<max(1, configuration.threads) { wakeup.signal() }
    }

    /// Stops taking deliveries, lets attempts in progress finish, joins the threads. Idempotent.
    public func stop() {
        guard !isStopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let started = threads.withLock { $0 ?? [] }
        for _ in started { wakeup.signal() }
        for thread in started { thread.join() }
        logger.info("webhook dispatcher stopped")
    }

    private func loop() {
        while !isStopping.load(ordering: .acquiring) {
            let sent: Int
            do {
                sent = try deliverDue(limit: 1)
            } catch {
                logger.error("delivery round failed", ["error": "\(error)"])
                sent = 0
            }
            if sent > 0 { continue }
            var sleep = configuration.pollIntervalMilliseconds
            if let due = try? store.nextDueTime() { sleep = max(0, min(sleep, due - clock())) }
            if sleep > 0 { _ = wakeup.wait(timeout: .now() + .milliseconds(Int(sleep))) }
        }
    }

    /// Claims and attempts up to `limit` deliveries due now (by the injected clock), on the calling thread; returns
    /// how many were attempted. The threads call this; tests call it directly to step through time.
    @discardableResult
    public func deliverDue(limit: Int = 100) throws -> Int {
        let claimed = try store.claimDue(now: clock(), limit: limit, leaseMilliseconds: configuration.leaseMilliseconds)
        for delivery in claimed {
            // Not attempted when stopping: due again when the lease ends (the next run resumes it).
            if isStopping.load(ordering: .acquiring) { break }
            try attempt(delivery)
        }
        return claimed.count
    }

    private func attempt(_ delivery: WebhookStore.ClaimedDelivery) throws {
        let started = clock()
        let startedMonotonic = MonotonicClock.nowMilliseconds()
        let timestamp = started / 1000
        let signature = WebhookSignature.sign(secret: delivery.secret, id: delivery.eventID, timestamp: timestamp,
                                              body: delivery.body)
        let headers: [(name: String, value: String)] = [
            ("content-type", "application/json"),
            ("webhook-id", delivery.eventID),
            ("webhook-timestamp", String(timestamp)),
            ("webhook-signature", signature),
        ]
        let outcome = transport.post(url: delivery.url, headers: headers, body: delivery.body,
                                     timeoutMilliseconds: configuration.requestTimeoutMilliseconds)
        let finished = clock()
        let number = delivery.attemptCount + 1
        let attempt = DeliveryAttempt(number: Int32(number), attemptedAtUnixMs: started,
                                      httpStatus: Int32(outcome.httpStatus), error: outcome.attemptError,
                                      durationMs: max(0, MonotonicClock.nowMilliseconds() - startedMonotonic),
                                      url: delivery.url)
        let consequence: WebhookStore.AttemptConsequence
        if outcome.isSuccess {
            consequence = .delivered(at: finished)
        } else {
            switch configuration.retry.decision(afterFailedAttempts: number, now: finished,
                                                windowStart: delivery.windowStart, random: random()) {
            case let .retry(at): consequence = .retry(at: at)
            case .deadLetter: consequence = .deadLetter(at: finished)
            }
        }
        try store.recordAttempt(delivery, attempt: attempt, outcome: consequence)
        let metadata = ["delivery.id": delivery.deliveryID, "event.id": delivery.eventID, "tenant": delivery.tenant,
                        "attempt": String(number), "http.status": String(outcome.httpStatus)]
        switch consequence {
        case .delivered: logger.info("webhook delivered", metadata)
        case let .retry(at): logger.notice("webhook attempt failed; will retry",
                                           metadata.merging(["error": attempt.error, "retry.at": String(at)]) { $1 })
        case .deadLetter: logger.warning("webhook dead-lettered", metadata.merging(["error": attempt.error]) { $1 })
        }
    }
}
