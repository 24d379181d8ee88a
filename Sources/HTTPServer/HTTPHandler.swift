/// Answers HTTP requests. The server calls `handle` on one of its own threads; the handler answers by calling
/// `respond`, at once or later from any thread.
public protocol HTTPHandler: Sendable {
    /// Called once per complete request (body fully read) on a libmicrohttpd thread. Call `respond` exactly once,
    /// either before returning (fast path) or later from ANY thread: the connection is then suspended while waiting
    /// and resumed when `respond` is called, so a slow reply never holds a pool thread. Calls after the first, and
    /// calls after the client went away or the server stopped, are ignored.
    func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void)
}

/// An `HTTPHandler` made from a closure; handy for tests and small tools.
public struct ClosureHTTPHandler: HTTPHandler {
    private let body: @Sendable (HTTPRequest, @escaping @Sendable (HTTPResponse) -> Void) -> Void

    public init(_ body: @escaping @Sendable (HTTPRequest, @escaping @Sendable (HTTPResponse) -> Void) -> Void) {
        self.body = body
    }

    public func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        body(request, respond)
    }
}
