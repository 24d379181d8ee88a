// Waits on several sockets and raw file descriptors at once with `zmq_poll` (an eventfd or pipe lets other threads
// wake a socket-owning thread without touching its sockets).
import CZeroMQ

/// Readiness a poll item waits for or reports.
public struct ZMQPollEvents: OptionSet, Sendable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    public static let readable = ZMQPollEvents(rawValue: Int16(ZMQ_POLLIN))
    public static let writable = ZMQPollEvents(rawValue: Int16(ZMQ_POLLOUT))
    public static let error = ZMQPollEvents(rawValue: Int16(ZMQ_POLLERR))
}

/// A set of sockets and file descriptors polled together. Like its sockets, a poller stays on one thread.
public struct ZMQPoller {
    private var items: [zmq_pollitem_t] = []
    /// Keeps polled sockets alive and lets `poll` detect a socket closed after it was added.
    private var sockets: [ZMQSocket?] = []

    public init() {}

    /// Adds `socket`; returns its index for `events(at:)`.
    @discardableResult
    public mutating func add(_ socket: ZMQSocket, events: ZMQPollEvents = .readable) -> Int {
        items.append(zmq_pollitem_t(socket: socket.handle, fd: -1, events: events.rawValue, revents: 0))
        sockets.append(socket)
        return items.count - 1
    }

    /// Adds a file descriptor (eventfd, pipe, TCP socket, ...); returns its index for `events(at:)`.
    @discardableResult
    public mutating func add(fileDescriptor: Int32, events: ZMQPollEvents = .readable) -> Int {
        items.append(zmq_pollitem_t(socket: nil, fd: fileDescriptor, events: events.rawValue, revents: 0))
        sockets.append(nil)
        return items.count - 1
    }

    /// Waits up to `timeoutMilliseconds` (`-1` = forever, `0` = just check) and returns how many items are ready.
    /// An interrupted wait (EINTR) returns 0 so the caller's loop re-checks its deadlines.
    @discardableResult
    public mutating func poll(timeoutMilliseconds: Int) throws(ZMQError) -> Int {
        for index in items.indices {
            items[index].revents = 0
            if let socket = sockets[index] {
                guard let handle = socket.handle else {
                    throw ZMQError(code: ENOTSOCK, function: "zmq_poll", message: "a polled socket is closed")
                }
                items[index].socket = handle
            }
        }
        let count = items.count
        let rc = items.withUnsafeMutableBufferPointer { zmq_poll($0.baseAddress, Int32(count), timeoutMilliseconds) }
        if rc >= 0 { return Int(rc) }
        let code = zmq_errno()
        if code == EINTR || code == EAGAIN { return 0 }
        throw ZMQError(code: code, function: "zmq_poll")
    }

    /// What the last `poll` reported for the item at `index`.
    public func events(at index: Int) -> ZMQPollEvents { ZMQPollEvents(rawValue: items[index].revents) }

    /// Whether the item at `index` was readable in the last `poll`.
    public func isReadable(_ index: Int) -> Bool { events(at: index).contains(.readable) }
}
