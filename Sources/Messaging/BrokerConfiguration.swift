/// Settings of the in-process broker. Every field has a default.
public struct BrokerConfiguration: Sendable {
    /// Where workers connect; `"tcp://127.0.0.1:*"` picks a free port (read `Broker.endpoint`).
    public var workerEndpoint: String = "tcp://127.0.0.1:5555"
    /// Where services connect as clients ("KYC/C1", `ServiceClient`) to call other services; nil: no client socket.
    /// By default the worker endpoint's port + 1 (`tcp://127.0.0.1:5556`), or a free port when the worker endpoint
    /// names none (read `Broker.clientEndpoint`).
    public var clientEndpoint: String? = "tcp://127.0.0.1:5556"
    /// Largest message accepted from a worker, and largest request envelope forwarded to one (ZMQ_MAXMSGSIZE).
    public var maxMessageBytes: Int64 = 16 * 1024 * 1024
    /// Deadline of requests whose envelope names none (`deadlineUnixMs == 0`).
    public var defaultRequestTimeoutMilliseconds: Int64 = MessagingTimings.defaultRequestTimeoutMilliseconds
    public var heartbeatIntervalMilliseconds: Int64 = MessagingTimings.heartbeatIntervalMilliseconds
    public var liveness: Int64 = MessagingTimings.liveness
    /// How long DISCONNECTs sent at shutdown may take to leave (ZMQ_LINGER of the broker socket).
    public var shutdownLingerMilliseconds: Int32 = 200

    /// `clientEndpoint` nil: derived from `workerEndpoint` (see `defaultClientEndpoint(forWorkerEndpoint:)`).
    public init(workerEndpoint: String = "tcp://127.0.0.1:5555", clientEndpoint: String? = nil) {
        self.workerEndpoint = workerEndpoint
        self.clientEndpoint = clientEndpoint ?? Self.defaultClientEndpoint(forWorkerEndpoint: workerEndpoint)
    }

    /// `tcp://host:N` → `tcp://host:N+1`; `tcp://host:*` → `tcp://host:*`; anything else → nil (no client socket).
    public static func defaultClientEndpoint(forWorkerEndpoint endpoint: String) -> String? {
        guard endpoint.hasPrefix("tcp://"), let colon = endpoint.lastIndex(of: ":") else { return nil }
        let host = endpoint[..<colon]
        let port = endpoint[endpoint.index(after: colon)...]
        if port == "*" { return "\(host):*" }
        guard let number = Int(port), number > 0, number < 65535 else { return nil }
        return "\(host):\(number + 1)"
    }
}
