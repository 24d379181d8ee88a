/// Settings of the in-process broker. Every field has a default.
public struct BrokerConfiguration: Sendable {
    /// Where workers connect; `"tcp://127.0.0.1:*"` picks a free port (read `Broker.endpoint`).
    public var workerEndpoint: String = "tcp://127.0.0.1:5555"
    /// Largest message accepted from a worker, and largest request envelope forwarded to one (ZMQ_MAXMSGSIZE).
    public var maxMessageBytes: Int64 = 16 * 1024 * 1024
    /// Deadline of requests whose envelope names none (`deadlineUnixMs == 0`).
    public var defaultRequestTimeoutMilliseconds: Int64 = MessagingTimings.defaultRequestTimeoutMilliseconds
    public var heartbeatIntervalMilliseconds: Int64 = MessagingTimings.heartbeatIntervalMilliseconds
    public var liveness: Int64 = MessagingTimings.liveness
    /// How long DISCONNECTs sent at shutdown may take to leave (ZMQ_LINGER of the broker socket).
    public var shutdownLingerMilliseconds: Int32 = 200

    public init(workerEndpoint: String = "tcp://127.0.0.1:5555") {
        self.workerEndpoint = workerEndpoint
    }
}
