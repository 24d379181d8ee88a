// Owns one libzmq socket (`zmq_socket` / `zmq_close`). libzmq sockets are not thread-safe, so a `ZMQSocket` is not
// `Sendable`: it is created, used and closed on one thread, and debug builds check that on every call.
import CZeroMQ
#if canImport(Glibc)
import Glibc
#endif

/// One libzmq socket. Create it with `ZMQContext.socket(_:options:)`; use and close it on the creating thread.
///
/// Would-block results are values: `receive…` returns `nil` and `send` returns `false` when nothing could be done
/// without blocking (or the configured timeout expired). Every other failure throws `ZMQError`.
public final class ZMQSocket {
    /// `nil` once closed.
    private(set) var handle: UnsafeMutableRawPointer?
    /// The socket pattern.
    public let type: ZMQSocketType
    /// Keeps the context alive: `zmq_ctx_term` must not run while this socket is open.
    private let context: ZMQContext
    #if DEBUG
    private let owningThread = pthread_self()
    #endif

    init(handle: UnsafeMutableRawPointer, type: ZMQSocketType, context: ZMQContext) {
        self.handle = handle
        self.type = type
        self.context = context
    }

    deinit { close() }

    /// Closes the socket once; later calls do nothing. Unsent messages are kept for the linger period.
    public func close() {
        guard let handle else { return }
        assertOwningThread()
        self.handle = nil
        zmq_close(handle)
    }

    /// Whether `close()` has run.
    public var isClosed: Bool { handle == nil }

    // MARK: Endpoints

    /// Binds to `endpoint`, e.g. `"tcp://127.0.0.1:*"` (ephemeral port; read `lastEndpoint`) or `"inproc://name"`.
    public func bind(_ endpoint: String) throws(ZMQError) {
        let socket = try open("zmq_bind")
        try ZMQCall.check("zmq_bind") { zmq_bind(socket, endpoint) }
    }

    /// Connects to `endpoint`; libzmq connects (and reconnects) in the background.
    public func connect(_ endpoint: String) throws(ZMQError) {
        let socket = try open("zmq_connect")
        try ZMQCall.check("zmq_connect") { zmq_connect(socket, endpoint) }
    }

    /// Stops listening on an endpoint given to `bind` (use `lastEndpoint` for wildcard binds).
    public func unbind(_ endpoint: String) throws(ZMQError) {
        let socket = try open("zmq_unbind")
        try ZMQCall.check("zmq_unbind") { zmq_unbind(socket, endpoint) }
    }

    /// Drops the connection made by `connect(endpoint)`.
    public func disconnect(_ endpoint: String) throws(ZMQError) {
        let socket = try open("zmq_disconnect")
        try ZMQCall.check("zmq_disconnect") { zmq_disconnect(socket, endpoint) }
    }

    /// The endpoint last bound or connected, with wildcards resolved (ZMQ_LAST_ENDPOINT), e.g. `tcp://127.0.0.1:41234`.
    public func lastEndpoint() throws(ZMQError) -> String {
        let socket = try open("zmq_getsockopt")
        var buffer = [CChar](repeating: 0, count: 1024)
        var size = buffer.count
        try ZMQCall.check("zmq_getsockopt") { zmq_getsockopt(socket, ZMQ_LAST_ENDPOINT, &buffer, &size) }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    // MARK: Sending

    /// Sends `frames` as one multipart message (delivered all-or-nothing). With `dontWait`, or when the send timeout
    /// expires before the first frame is queued, returns `false` and nothing was sent.
    @discardableResult
    public func send(_ frames: [[UInt8]], dontWait: Bool = false) throws(ZMQError) -> Bool {
        guard !frames.isEmpty else {
            throw ZMQError(code: EINVAL, function: "zmq_send", message: "a message needs at least one frame")
        }
        let last = frames.count - 1
        for index in 0...last {
            // libzmq accepts the remaining frames once the first is queued, so only the first may would-block.
            let outcome = frames[index].withUnsafeBytes { bytes in
                Result { () throws(ZMQError) -> Bool in
                    try sendFrame(bytes, more: index < last, dontWait: dontWait && index == 0)
                }
            }
            let sent = try outcome.get()
            if !sent {
                if index == 0 { return false }
                throw ZMQError(code: EAGAIN, function: "zmq_send", message: "timed out in the middle of a message")
            }
        }
        return true
    }

    /// Sends one frame straight from `bytes` (copied once, by libzmq). `more` marks that further frames of the same
    /// message follow. Returns `false` when the frame would block. The hot-path building block for `send(_:)`.
    public func sendFrame(_ bytes: UnsafeRawBufferPointer, more: Bool, dontWait: Bool = false) throws(ZMQError)
        -> Bool
    {
        let socket = try open("zmq_send")
        let flags = (more ? ZMQ_SNDMORE : 0) | (dontWait ? ZMQ_DONTWAIT : 0)
        return try ZMQCall.result("zmq_send") { zmq_send(socket, bytes.baseAddress, bytes.count, flags) } != nil
    }

    // MARK: Receiving

    /// Receives one whole multipart message, each frame copied once into its own array. Returns `nil` when no message
    /// is ready (`dontWait`) or the receive timeout expired.
    public func receive(dontWait: Bool = false) throws(ZMQError) -> [[UInt8]]? {
        var messages: [zmq_msg_t] = []
        defer { Self.closeAll(&messages) }
        guard try receiveParts(dontWait: dontWait, into: &messages) else { return nil }
        var frames: [[UInt8]] = []
        frames.reserveCapacity(messages.count)
        for index in messages.indices {
            let size = zmq_msg_size(&messages[index])
            let data = zmq_msg_data(&messages[index])
            frames.append([UInt8](UnsafeRawBufferPointer(start: data, count: size)))
        }
        return frames
    }

    /// Receives one whole multipart message and lends its frames to `body` without copying them. The buffers are
    /// valid only inside `body`. Returns `nil` (and does not call `body`) when no message is ready.
    public func withReceivedMessage<Result>(
        dontWait: Bool = false, _ body: ([UnsafeRawBufferPointer]) throws -> Result
    ) throws -> Result? {
        var messages: [zmq_msg_t] = []
        defer { Self.closeAll(&messages) }
        guard try receiveParts(dontWait: dontWait, into: &messages) else { return nil }
        var frames: [UnsafeRawBufferPointer] = []
        frames.reserveCapacity(messages.count)
        for index in messages.indices {
            frames.append(UnsafeRawBufferPointer(start: zmq_msg_data(&messages[index]),
                                                 count: zmq_msg_size(&messages[index])))
        }
        return try body(frames)
    }

    /// Receives every frame of one message into `messages` (which the caller closes). `false` = nothing ready.
    private func receiveParts(dontWait: Bool, into messages: inout [zmq_msg_t]) throws(ZMQError) -> Bool {
        let socket = try open("zmq_msg_recv")
        messages.reserveCapacity(4)
        var more = true
        while more {
            messages.append(zmq_msg_t())
            let index = messages.count - 1
            zmq_msg_init(&messages[index])
            // A message is delivered atomically: once its first frame arrived the rest are already queued.
            let flags = (dontWait && index == 0) ? ZMQ_DONTWAIT : 0
            let received = try ZMQCall.result("zmq_msg_recv") { zmq_msg_recv(&messages[index], socket, flags) }
            if received == nil {
                if index == 0 { return false }
                throw ZMQError(code: EAGAIN, function: "zmq_msg_recv", message: "timed out in the middle of a message")
            }
            more = zmq_msg_more(&messages[index]) != 0
        }
        return true
    }

    private static func closeAll(_ messages: inout [zmq_msg_t]) {
        for index in messages.indices { zmq_msg_close(&messages[index]) }
    }

    // MARK: Internals

    /// The open handle, or `ENOTSOCK` naming `function` when the socket was closed.
    @inline(__always)
    func open(_ function: StaticString) throws(ZMQError) -> UnsafeMutableRawPointer {
        assertOwningThread()
        guard let handle else {
            throw ZMQError(code: ENOTSOCK, function: String(describing: function), message: "socket is closed")
        }
        return handle
    }

    @inline(__always)
    private func assertOwningThread() {
        #if DEBUG
        assert(pthread_equal(owningThread, pthread_self()) != 0,
               "a ZMQSocket must be used on the thread that created it")
        #endif
    }
}
