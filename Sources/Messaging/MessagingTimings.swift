/// The timings of the worker protocol in one place (zguide's Paranoid Pirate values). Both ends must agree on them.
public enum MessagingTimings {
    /// How often each side sends HEARTBEAT to an otherwise silent peer.
    public static let heartbeatIntervalMilliseconds: Int64 = 1_000
    /// How many heartbeat intervals of silence make a peer dead: a worker is expired, a broker is reconnected to.
    public static let liveness: Int64 = 3
    /// First delay before a worker reconnects to a broker it lost.
    public static let reconnectInitialMilliseconds: Int64 = 1_000
    /// Upper bound of the doubling reconnect delay.
    public static let reconnectMaxMilliseconds: Int64 = 32_000
    /// How long a request may wait when its envelope names no deadline.
    public static let defaultRequestTimeoutMilliseconds: Int64 = 30_000
    /// How often the broker scans for expired workers and passed deadlines (bounds deadline precision).
    public static let brokerTickMilliseconds: Int64 = 25
}
