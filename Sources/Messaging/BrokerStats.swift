/// A snapshot of the broker's load, for health endpoints and tests.
public struct BrokerStats: Sendable, Equatable {
    /// Registered (live) workers per service name.
    public var workersByService: [String: Int]
    /// Requests waiting for a free worker, per service name.
    public var queuedByService: [String: Int]
    /// Requests currently held by a worker.
    public var inFlight: Int

    public init(workersByService: [String: Int] = [:], queuedByService: [String: Int] = [:], inFlight: Int = 0) {
        self.workersByService = workersByService
        self.queuedByService = queuedByService
        self.inFlight = inFlight
    }
}
