// The HTTP baseline: libmicrohttpd with nothing of ours in the way. An epoll internal thread with a pool of 2
// threads, the response queued on the second access-handler call (answering on the first makes libmicrohttpd close
// keep-alive connections), and one static response created at start and reused for every request. No routing, no
// auth, no JSON encoding: the most plain libmicrohttpd can serve on this machine.
import CMicroHTTPD
import Foundation

/// Owns one libmicrohttpd daemon and its shared response; `close()` stops the daemon and frees the response once.
final class BareHTTPServer {
    /// The body every request gets (about the size of a short JSON answer).
    static let body = #"{"message":"hello","service":"bare-http"}"#

    private var daemon: OpaquePointer?
    private var response: OpaquePointer?
    /// Keeps the body's bytes alive: the response points into them (`MHD_RESPMEM_PERSISTENT`, no copy).
    private let bodyBytes: UnsafeMutableBufferPointer<UInt8>

    /// Listens on 127.0.0.1:`port` with `threads` pool threads.
    init(port: Int, threads: Int) throws {
        let utf8 = Array(Self.body.utf8)
        bodyBytes = .allocate(capacity: utf8.count)
        _ = bodyBytes.initialize(from: utf8)
        guard let response = MHD_create_response_from_buffer(bodyBytes.count, UnsafeMutableRawPointer(bodyBytes.baseAddress),
                                                              MHD_ResponseMemoryMode.RESPMEM_PERSISTENT) else {
            bodyBytes.deallocate()
            throw BenchError(.systemCall, function: "MHD_create_response_from_buffer", message: "out of memory")
        }
        self.response = response
        guard MHD_add_response_header(response, "Content-Type", "application/json") == .YES else {
            close()
            throw BenchError(.systemCall, function: "MHD_add_response_header", message: "refused Content-Type")
        }
        do {
            daemon = try Self.startDaemon(port: port, threads: threads, response: response)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Stops the daemon (joining its threads), then frees the response and body. Idempotent.
    func close() {
        if let daemon {
            self.daemon = nil
            MHD_stop_daemon(daemon)
        }
        if let response {
            self.response = nil
            MHD_destroy_response(response)
            bodyBytes.deallocate()
        }
    }

    private static func startDaemon(port: Int, threads: Int, response: OpaquePointer) throws -> OpaquePointer {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_ERROR_LOG.rawValue
        // A literal closure without captures, as a C function pointer must be. The response arrives as `cls`.
        let handler: MHD_AccessHandlerCallback = { cls, connection, _, _, _, _, uploadDataSize, requestState in
            BareHTTPServer.answer(cls, connection, uploadDataSize, requestState)
        }
        return try withUnsafePointer(to: &address) { addressPointer in
            // libmicrohttpd binds inside MHD_start_daemon_va, so the address only has to outlive this call.
            let options: [any CVarArg] = [
                MHD_OPTION.SOCK_ADDR.rawValue, OpaquePointer(addressPointer),
                MHD_OPTION.THREAD_POOL_SIZE.rawValue, UInt32(threads),
                MHD_OPTION.CONNECTION_LIMIT.rawValue, UInt32(1024),
                MHD_OPTION.END.rawValue,
            ]
            errno = 0
            let daemon = withVaList(options) { arguments in
                MHD_start_daemon_va(flags, UInt16(port), nil, nil, handler, UnsafeMutableRawPointer(response), arguments)
            }
            guard let daemon else {
                throw BenchError(.systemCall, function: "MHD_start_daemon_va",
                                 message: "could not listen on 127.0.0.1:\(port)", errorNumber: errno)
            }
            return daemon
        }
    }

    /// The access handler. First call of a request: mark it seen and return. Later calls: drop any body and queue
    /// the shared response. A plain static function, so nothing main-actor-isolated runs on libmicrohttpd's threads.
    private static func answer(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                               _ uploadDataSize: UnsafeMutablePointer<Int>?,
                               _ requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result {
        guard let cls, let connection, let uploadDataSize, let requestState else { return .NO }
        if requestState.pointee == nil {
            // Any non-nil marker; libmicrohttpd resets it for each request and never dereferences it.
            requestState.pointee = UnsafeMutableRawPointer(bitPattern: 1)
            return .YES
        }
        if uploadDataSize.pointee != 0 {
            uploadDataSize.pointee = 0
            return .YES
        }
        return MHD_queue_response(connection, UInt32(MHD_HTTP_OK), OpaquePointer(cls))
    }
}
