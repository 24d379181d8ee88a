/// How a delivery attempt reaches the customer's endpoint. `CurlWebhookTransport` in production; tests may
/// substitute their own.
public protocol WebhookTransport: Sendable {
    /// POSTs `body` to `url` with `headers` and returns what happened. Never throws: failures are outcomes.
    func post(url: String, headers: [(name: String, value: String)], body: [UInt8], timeoutMilliseconds: Int)
        -> WebhookTransportOutcome
}

/// The result of one POST.
public struct WebhookTransportOutcome: Sendable, Equatable {
    /// The HTTP status, 0 when none was received.
    public var httpStatus: Int
    /// Empty when an HTTP status was received; else `timeout`, `connection_failed`, `dns_failed`, `tls_failed`,
    /// `send_failed` or `transport_error`.
    public var error: String

    public init(httpStatus: Int, error: String = "") {
        self.httpStatus = httpStatus
        self.error = error
    }

    /// 2xx: the endpoint accepted the event.
    public var isSuccess: Bool { error.isEmpty && (200...299).contains(httpStatus) }

    /// What is recorded on the attempt: empty on success, the transport error, or `http_<status>`.
    public var attemptError: String {
        if isSuccess { return "" }
        return error.isEmpty ? "http_\(httpStatus)" : error
    }
}
