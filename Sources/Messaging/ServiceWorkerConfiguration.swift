/// Settings of a service's worker threads. Every field but `service` has a default.
public struct ServiceWorkerConfiguration: Sendable {
    /// The service name workers register for, e.g. `"Appointment"`.
    public var service: String
    /// The broker's worker endpoint.
    public var brokerEndpoint: String
    /// How many worker threads (each its own DEALER, a separate worker to the broker).
    public var threads: Int
    /// Requests the broker may hand this worker (each thread) before it replies to the first: they wait in its socket
    /// while it runs one, so it picks up the next without a round trip to the broker and many requests share each
    /// wake-up. 1 gives strict one-at-a-time Majordomo behaviour. A higher value lets one slow request delay the
    /// ones queued behind it on the same thread, and a worker that dies takes that many requests to be retried.
    public var capacity: Int = ServiceWorkerConfiguration.defaultCapacity
    public static let defaultCapacity = 16
    /// Largest message accepted from the broker (ZMQ_MAXMSGSIZE); a larger one drops the connection.
    public var maxMessageBytes: Int64
    /// Label of this process in READY messages; thread `n` registers as `"<instance>#n"`.
    public var instance: String = ServiceRouter.defaultInstance()
    public var heartbeatIntervalMilliseconds: Int64 = MessagingTimings.heartbeatIntervalMilliseconds
    public var liveness: Int64 = MessagingTimings.liveness
    public var reconnectInitialMilliseconds: Int64 = MessagingTimings.reconnectInitialMilliseconds
    public var reconnectMaxMilliseconds: Int64 = MessagingTimings.reconnectMaxMilliseconds
    /// How long a closing socket may take to deliver its last messages (REPLY, DISCONNECT), in ms (ZMQ_LINGER).
    public var shutdownLingerMilliseconds: Int32 = 200

    public init(service: String, brokerEndpoint: String = "tcp://127.0.0.1:5555", threads: Int = 2,
                maxMessageBytes: Int64 = 16 * 1024 * 1024) {
        self.service = service
        self.brokerEndpoint = brokerEndpoint
        self.threads = max(1, threads)
        self.maxMessageBytes = maxMessageBytes
    }
}
