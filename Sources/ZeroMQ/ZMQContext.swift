// Owns one libzmq context (`zmq_ctx_new` / `zmq_ctx_term`). Sockets keep their context alive, so the context is
// terminated only once every socket made from it has been closed or released.
import CZeroMQ
import Synchronization

/// A libzmq context: the I/O threads and the registry of sockets. Thread-safe; share one per process.
///
/// `@unchecked Sendable` is safe: the context pointer never changes and libzmq documents contexts as thread-safe;
/// the only mutable state (whether the context was terminated) lives behind `state`'s lock, which also guards socket
/// creation so that `zmq_socket` never runs on a terminated (freed) context.
public final class ZMQContext: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer
    private let terminated = Mutex<Bool>(false)

    /// Creates a context with `ioThreads` I/O threads (libzmq's default is 1).
    public init(ioThreads: Int32 = 1) throws(ZMQError) {
        guard let handle = zmq_ctx_new() else { throw ZMQError(code: zmq_errno(), function: "zmq_ctx_new") }
        self.handle = handle
        if ioThreads != 1 {
            do {
                try ZMQCall.check("zmq_ctx_set") { zmq_ctx_set(handle, ZMQ_IO_THREADS, ioThreads) }
            } catch {
                zmq_ctx_term(handle)
                throw error
            }
        }
    }

    deinit { terminate() }

    /// Whether `terminate()` has run.
    public var isTerminated: Bool { terminated.withLock { $0 } }

    /// Creates a socket of `type` with `options` applied before it is returned. The socket must be used and closed
    /// on the calling thread.
    public func socket(_ type: ZMQSocketType, options: ZMQSocketOptions = ZMQSocketOptions()) throws(ZMQError)
        -> ZMQSocket
    {
        let raw: UnsafeMutableRawPointer? = terminated.withLock { isTerminated in
            isTerminated ? nil : zmq_socket(handle, type.rawValue)
        }
        guard let raw else {
            let code = isTerminated ? ETERM : zmq_errno()
            throw ZMQError(code: code, function: "zmq_socket")
        }
        let socket = ZMQSocket(handle: raw, type: type, context: self)
        try socket.apply(options)
        return socket
    }

    /// Terminates the context once: blocking calls on its sockets fail with `ETERM`; this call blocks until every
    /// socket of the context has been closed (linger applies). Later calls return at once.
    public func terminate() {
        let first = terminated.withLock { isTerminated in
            defer { isTerminated = true }
            return !isTerminated
        }
        guard first else { return }
        while zmq_ctx_term(handle) != 0 && zmq_errno() == EINTR {}
    }
}
