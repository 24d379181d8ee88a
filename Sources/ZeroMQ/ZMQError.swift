// The single error funnel for libzmq calls. Every C call in this module goes through `ZMQCall`, which retries EINTR,
// turns EAGAIN (would-block, timeouts) into a value and throws `ZMQError` for everything else, so that no caller has
// to remember errno conventions and every failure names the C function that produced it.
import CZeroMQ

/// A libzmq call failed. Carries the C function name, its errno and libzmq's description of it.
public struct ZMQError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The errno value libzmq reported (`zmq_errno()`), e.g. `EINVAL`, `ETERM`, `EHOSTUNREACH`.
    public struct Code: RawRepresentable, Sendable, Hashable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let invalidArgument = Code(rawValue: EINVAL)
        public static let contextTerminated = Code(rawValue: ETERM)
        public static let notSocket = Code(rawValue: ENOTSOCK)
        public static let hostUnreachable = Code(rawValue: EHOSTUNREACH)
        public static let addressInUse = Code(rawValue: EADDRINUSE)
        public static let protocolNotSupported = Code(rawValue: EPROTONOSUPPORT)
        public static let notSupported = Code(rawValue: ENOTSUP)
        public static let operationNotSupported = Code(rawValue: EFSM)
    }

    /// The errno value.
    public let code: Code
    /// The libzmq function that failed, e.g. `"zmq_bind"`.
    public let function: String
    /// `zmq_strerror(code)`.
    public let message: String

    public init(code: Int32, function: String) {
        self.code = Code(rawValue: code)
        self.function = function
        self.message = String(cString: zmq_strerror(code))
    }

    /// A misuse detected before calling into C (the socket was already closed, ...).
    init(code: Int32, function: String, message: String) {
        self.code = Code(rawValue: code)
        self.function = function
        self.message = message
    }

    public var description: String { "\(function) failed: \(message) (errno \(code.rawValue))" }
}

/// The funnel. `body` returns libzmq's result code (`-1` on failure, errno in `zmq_errno()`).
enum ZMQCall {
    /// Runs `body`, retrying on EINTR. Returns the non-negative result, or `nil` on EAGAIN (would block / timed out).
    @inline(__always)
    static func result(_ function: StaticString, _ body: () -> Int32) throws(ZMQError) -> Int32? {
        while true {
            let rc = body()
            if rc >= 0 { return rc }
            let code = zmq_errno()
            if code == EINTR { continue }
            if code == EAGAIN { return nil }
            throw ZMQError(code: code, function: String(describing: function))
        }
    }

    /// Like `result`, for calls where EAGAIN is itself an error (bind, setsockopt, ...).
    @inline(__always)
    static func check(_ function: StaticString, _ body: () -> Int32) throws(ZMQError) {
        while true {
            let rc = body()
            if rc >= 0 { return }
            let code = zmq_errno()
            if code == EINTR { continue }
            throw ZMQError(code: code, function: String(describing: function))
        }
    }
}
