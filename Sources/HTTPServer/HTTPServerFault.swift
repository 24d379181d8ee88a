/// Conditions the server answers by itself, before or instead of the handler. The server asks the
/// `errorResponder` given at construction for the response, so that error bodies keep the application's shape.
public enum HTTPServerFault: Sendable, Equatable {
    /// The body is longer than `HTTPServerConfiguration.maxBodyBytes` (answer 413).
    case bodyTooLarge(limit: Int)
    /// The server is stopping and will not wait for the handler's reply (answer 503).
    case shuttingDown

    /// The status code that fits the fault; a responder may use it or choose its own.
    public var suggestedStatus: Int {
        switch self {
        case .bodyTooLarge: 413
        case .shuttingDown: 503
        }
    }
}
