import KYCMessages

/// What the broker looks like from the HTTP side: hand a request to a service, get its reply later, and read the
/// broker's state for readiness and metrics. `Messaging.Broker` conforms.
public protocol ServiceDispatcher: Sendable {
    /// Sends `envelope` to a worker of `service`; `completion` runs exactly once, on the broker's thread, with the
    /// worker's reply or the broker's own (`unavailable`, `deadlineExceeded`).
    func dispatch(service: String, envelope: RequestEnvelope,
                  completion: @escaping @Sendable (ReplyEnvelope) -> Void)
    func snapshot() -> BrokerSnapshot
}

/// The broker's state at one moment.
public struct BrokerSnapshot: Sendable, Equatable {
    public var liveWorkers: [String: Int]
    public var queueDepth: [String: Int]
    public var inFlight: Int

    public init(liveWorkers: [String: Int] = [:], queueDepth: [String: Int] = [:], inFlight: Int = 0) {
        self.liveWorkers = liveWorkers
        self.queueDepth = queueDepth
        self.inFlight = inFlight
    }
}
