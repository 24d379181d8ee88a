/// The life of one request's reply, from the handler being called to the response being queued, as a pure value.
/// Each event returns the action its caller must perform, so the rules can be tested without libmicrohttpd.
///
/// The states exist because a reply can arrive from any thread at any moment relative to the libmicrohttpd thread:
/// while the handler still runs (fast path), while the connection is being suspended, after it is suspended, or
/// after the client left and the request was completed. libmicrohttpd allows resuming only a suspended connection,
/// and a connection that was completed must never be touched again.
struct ReplyStateMachine {
    enum State {
        /// The handler is running on the libmicrohttpd thread.
        case handling
        /// The reply arrived while the handler was still running.
        case replied(HTTPResponse)
        /// The handler returned without a reply; the libmicrohttpd thread is suspending the connection.
        case suspending
        /// The reply arrived while the connection was being suspended; the libmicrohttpd thread resumes it.
        case repliedWhileSuspending(HTTPResponse)
        /// The connection is suspended, waiting for the reply.
        case suspended
        /// `MHD_resume_connection` was (or is being) called; the next handler call queues the reply.
        case resuming(HTTPResponse)
        /// The reply was handed to libmicrohttpd.
        case delivered
        /// libmicrohttpd completed the request (sent, client gone or server stopped); nothing may touch it again.
        case finished
    }

    private(set) var state: State = .handling

    enum HandlerReturnedAction: Equatable {
        /// Queue this response now, on the libmicrohttpd thread.
        case queue(HTTPResponseValue)
        /// Suspend the connection, then report `suspendCompleted()`.
        case suspend
        /// Nothing to do (the request was already completed).
        case none
    }

    enum SuspendCompletedAction: Equatable {
        /// Stay suspended until `respond` arrives.
        case wait
        /// The reply raced in: resume the connection now, from this (the libmicrohttpd) thread.
        case resume
    }

    enum RespondAction: Equatable {
        /// Kept; the libmicrohttpd thread queues it when the handler returns.
        case stored
        /// Call `MHD_resume_connection`: the connection is suspended and waiting for this reply.
        case resume
        /// Dropped: a reply was already given.
        case ignoredDuplicate
        /// Dropped: the request is over (client gone or server stopped).
        case ignoredFinished
    }

    /// The handler returned to the libmicrohttpd thread.
    mutating func handlerReturned() -> HandlerReturnedAction {
        switch state {
        case .handling:
            state = .suspending
            return .suspend
        case .replied(let response):
            state = .delivered
            return .queue(HTTPResponseValue(response))
        case .suspending, .repliedWhileSuspending, .suspended, .resuming, .delivered, .finished:
            return .none
        }
    }

    /// `MHD_suspend_connection` returned.
    mutating func suspendCompleted() -> SuspendCompletedAction {
        switch state {
        case .suspending:
            state = .suspended
            return .wait
        case .repliedWhileSuspending(let response):
            state = .resuming(response)
            return .resume
        case .handling, .replied, .suspended, .resuming, .delivered, .finished:
            return .wait
        }
    }

    /// The connection could not be suspended because the server is stopping: answer now with the reply if one
    /// raced in, else with `fallback`.
    mutating func suspensionRefused(fallback: HTTPResponse) -> HTTPResponse? {
        switch state {
        case .suspending:
            state = .delivered
            return fallback
        case .repliedWhileSuspending(let response):
            state = .delivered
            return response
        case .handling, .replied, .suspended, .resuming, .delivered, .finished:
            return nil
        }
    }

    /// The handler (or the server, when stopping) supplied the reply, from any thread.
    mutating func respond(_ response: HTTPResponse) -> RespondAction {
        switch state {
        case .handling:
            state = .replied(response)
            return .stored
        case .suspending:
            state = .repliedWhileSuspending(response)
            return .stored
        case .suspended:
            state = .resuming(response)
            return .resume
        case .replied, .repliedWhileSuspending, .resuming, .delivered:
            return .ignoredDuplicate
        case .finished:
            return .ignoredFinished
        }
    }

    /// libmicrohttpd called the access handler again after the connection was resumed: the reply to queue, if any.
    mutating func resumed() -> HTTPResponse? {
        guard case .resuming(let response) = state else { return nil }
        state = .delivered
        return response
    }

    /// libmicrohttpd completed the request; every later event is ignored.
    mutating func requestCompleted() {
        state = .finished
    }
}

/// An `HTTPResponse` compared by value, so that state-machine actions can be checked with `==` in tests.
struct HTTPResponseValue: Equatable {
    let response: HTTPResponse

    init(_ response: HTTPResponse) { self.response = response }

    static func == (lhs: HTTPResponseValue, rhs: HTTPResponseValue) -> Bool {
        lhs.response.status == rhs.response.status && lhs.response.body == rhs.response.body
            && lhs.response.headers.map(\.name) == rhs.response.headers.map(\.name)
            && lhs.response.headers.map(\.value) == rhs.response.headers.map(\.value)
    }
}
