import CMicroHTTPD
import Foundation
import KYCCore
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd 0.9.75: an epoll event loop on a pool of internal threads, connection and
/// per-IP limits, an inactivity timeout, bounded request bodies, and connections suspended while a handler's
/// reply comes back from another thread (so a slow reply never holds a pool thread).
///
/// libmicrohttpd owns the sockets and threads; this class owns the daemon handle and stops it exactly once, in
/// `stop()` or `deinit`. Every C callback goes through `HTTPServerCallbacks`.
public final class HTTPServer: Sendable {
    private enum Lifecycle {
        case idle
        case running(daemon: ConnectionHandle, port: Int)
        case stopped
    }

    private let context: HTTPServerContext
    private let lifecycle = Mutex(Lifecycle.idle)

    /// - Parameters:
    ///   - errorResponder: builds the response for conditions the server answers itself (see `HTTPServerFault`),
    ///     so that error bodies keep the application's shape.
    public init(configuration: HTTPServerConfiguration, handler: any HTTPHandler, logger: Logger,
                errorResponder: @escaping @Sendable (HTTPServerFault) -> HTTPResponse = HTTPServer.plainErrorResponse) {
        context = HTTPServerContext(configuration: configuration, handler: handler, logger: logger,
                                    errorResponder: errorResponder)
    }

    deinit {
        stop()
    }

    /// A plain-text answer for each fault; the default `errorResponder`.
    public static func plainErrorResponse(_ fault: HTTPServerFault) -> HTTPResponse {
        switch fault {
        case .bodyTooLarge(let limit):
            HTTPResponse(status: fault.suggestedStatus, text: "request body larger than \(limit) bytes\n")
        case .shuttingDown:
            HTTPResponse(status: fault.suggestedStatus, text: "server is shutting down\n")
        }
    }

    /// The port the server listens on (the ephemeral one when configured with 0); 0 when not running.
    public var port: Int {
        lifecycle.withLock { state in
            if case .running(_, let port) = state { return port }
            return 0
        }
    }

    /// Binds and starts serving. Throws `HTTPServerError` for bad configuration, a second start, or when
    /// libmicrohttpd cannot start (for example, the port is in use).
    public func start() throws {
        try lifecycle.withLock { state in
            guard case .idle = state else {
                throw HTTPServerError(code: .invalidState, message: "start() called on a server that already started")
            }
            let daemon = try startDaemon()
            let configuration = context.configuration
            guard let port = configuration.port != 0 ? configuration.port : MicroHTTPDCall.boundPort(of: daemon) else {
                MHD_stop_daemon(daemon)
                throw HTTPServerError(code: .startFailed, function: "MHD_get_daemon_info",
                                      message: "could not read the bound port")
            }
            state = .running(daemon: ConnectionHandle(pointer: daemon), port: port)
            context.logger.info("http server listening", [
                "http.host": configuration.host, "http.port": "\(port)",
                "http.threads": "\(configuration.threadPoolSize)",
            ])
        }
    }

    /// Stops intake, answers requests still waiting for a reply with the `shuttingDown` fault, and stops the
    /// daemon. Idempotent; also called by `deinit`. Replies given after this are ignored.
    public func stop() {
        let daemon: OpaquePointer? = lifecycle.withLock { state in
            defer { state = .stopped }
            if case .running(let daemon, _) = state { return daemon.pointer }
            return nil
        }
        guard let daemon else { return }
        context.drainSuspendedConnections()
        MHD_stop_daemon(daemon)
        context.logger.info("http server stopped")
    }

    /// Requests whose per-request state is still in memory; 0 once every request was completed and released.
    var openRequestCount: Int { context.liveRequests.value }

    private func startDaemon() throws -> OpaquePointer {
        let configuration = context.configuration
        let problems = configuration.problems
        guard problems.isEmpty else {
            throw HTTPServerError(code: .invalidConfiguration, message: problems.joined(separator: "; "))
        }
        guard let address = ListenAddress(host: configuration.host, port: configuration.port) else {
            throw HTTPServerError(code: .invalidConfiguration, message: "host \(configuration.host) is not an IP address")
        }
        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
            | MHD_USE_ERROR_LOG.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }

        let contextPointer = Unmanaged.passUnretained(context).toOpaque()
        // Literal closures without captures, as C function pointers must be; each forwards to the Swift side.
        let requestStarted: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?)
            -> UnsafeMutableRawPointer? = { HTTPServerCallbacks.requestStarted($0, $1, $2) }
        let requestCompleted: MHD_RequestCompletedCallback = { HTTPServerCallbacks.requestCompleted($0, $1, $2, $3) }
        let log: MHD_LogCallback = { HTTPServerCallbacks.log($0, $1, $2) }
        let accessHandler: MHD_AccessHandlerCallback = {
            HTTPServerCallbacks.accessHandler($0, $1, $2, $3, $4, $5, $6, $7)
        }
        let contextArgument = OpaquePointer(contextPointer)

        return try address.withSockaddrPointer { sockaddrPointer in
            var options: [any CVarArg] = [
                // The logger goes first so that start-up messages reach it too.
                MHD_OPTION.EXTERNAL_LOGGER.rawValue, unsafeBitCast(log, to: OpaquePointer.self), contextArgument,
                MHD_OPTION.SOCK_ADDR.rawValue, OpaquePointer(sockaddrPointer),
                MHD_OPTION.URI_LOG_CALLBACK.rawValue, unsafeBitCast(requestStarted, to: OpaquePointer.self),
                contextArgument,
                MHD_OPTION.NOTIFY_COMPLETED.rawValue, unsafeBitCast(requestCompleted, to: OpaquePointer.self),
                contextArgument,
                MHD_OPTION.CONNECTION_LIMIT.rawValue, UInt32(configuration.connectionLimit),
                MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(configuration.connectionTimeoutSeconds),
                MHD_OPTION.LISTEN_BACKLOG_SIZE.rawValue, UInt32(configuration.listenBacklog),
            ]
            if let perIP = configuration.perIPConnectionLimit {
                options += [MHD_OPTION.PER_IP_CONNECTION_LIMIT.rawValue, UInt32(perIP)]
            }
            if configuration.threadPoolSize > 1 {
                options += [MHD_OPTION.THREAD_POOL_SIZE.rawValue, UInt32(configuration.threadPoolSize)]
            }
            options.append(MHD_OPTION.END.rawValue)
            errno = 0
            let daemon = withVaList(options) { arguments in
                MHD_start_daemon_va(flags, 0, nil, nil, accessHandler, contextPointer, arguments)
            }
            return try MicroHTTPDCall.require(daemon, "MHD_start_daemon_va", .startFailed,
                                              "could not listen on \(configuration.host):\(configuration.port)")
        }
    }
}
