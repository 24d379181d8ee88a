import CMicroHTTPD
import Foundation
import KYCCore
import Synchronization

/// What the libmicrohttpd callbacks need, reachable from their `void *cls` argument. Immutable apart from
/// lock-guarded and atomic members, so any libmicrohttpd thread may use it. `HTTPServer` keeps it alive until
/// `MHD_stop_daemon` has returned, so the unretained pointer handed to libmicrohttpd never dangles.
final class HTTPServerContext: Sendable {
    let configuration: HTTPServerConfiguration
    let handler: any HTTPHandler
    let logger: Logger
    let errorResponder: @Sendable (HTTPServerFault) -> HTTPResponse
    let suspensions = SuspensionRegistry()
    /// Requests whose per-request state is alive; for tests and diagnostics.
    let liveRequests = LiveRequestCount()

    init(configuration: HTTPServerConfiguration, handler: any HTTPHandler, logger: Logger,
         errorResponder: @escaping @Sendable (HTTPServerFault) -> HTTPResponse) {
        self.configuration = configuration
        self.handler = handler
        self.logger = logger
        self.errorResponder = errorResponder
    }

    // MARK: Per-request flow, on the libmicrohttpd thread that owns the connection

    /// One call of libmicrohttpd's access handler; see `HTTPServerCallbacks.accessHandler`.
    func advance(_ exchange: RequestExchange, connection: OpaquePointer, method: String, version: String,
                 uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>) -> MHD_Result {
        switch exchange.phase {
        case .started:
            return headersArrived(exchange, connection: connection, method: method, version: version)
        case .readingBody:
            if uploadDataSize.pointee > 0 {
                collectBody(exchange, uploadData: uploadData, size: uploadDataSize)
                return .YES
            }
            // Dispatching on this second call (not the first) keeps keep-alive connections open in libmicrohttpd.
            return dispatch(exchange, connection: connection)
        case .discardingBody:
            if uploadDataSize.pointee > 0 {
                uploadDataSize.pointee = 0
                return .YES
            }
            exchange.phase = .answered
            return queue(errorResponder(.bodyTooLarge(limit: configuration.maxBodyBytes)), on: connection)
        case .dispatched:
            // Called again after MHD_resume_connection: the reply is waiting in the slot.
            guard let response = exchange.slot?.resumed() else { return .YES }
            return queue(response, on: connection)
        case .answered:
            uploadDataSize.pointee = 0
            return .YES
        }
    }

    private func headersArrived(_ exchange: RequestExchange, connection: OpaquePointer, method: String,
                                version: String) -> MHD_Result {
        exchange.method = method
        exchange.version = version
        exchange.headers = RequestExchange.headerFields(of: connection)
        exchange.remoteAddress = MicroHTTPDCall.clientAddress(of: connection)
        let limit = configuration.maxBodyBytes
        if let declared = exchange.headers["content-length"] {
            // Refuse before reading a byte of body. A length that does not parse is left to libmicrohttpd, which
            // answers 400 by itself.
            if let length = UInt64(declared.trimmingHTTPWhitespace()), length > UInt64(limit) {
                exchange.phase = .answered
                logger.debug("request body over limit", ["http.declared_length": declared, "http.limit": "\(limit)"])
                return queue(errorResponder(.bodyTooLarge(limit: limit)), on: connection)
            }
            if let length = Int(declared.trimmingHTTPWhitespace()), length > 0 {
                exchange.body.reserveCapacity(length)
            }
        }
        exchange.phase = .readingBody
        return .YES
    }

    private func collectBody(_ exchange: RequestExchange, uploadData: UnsafePointer<CChar>?,
                             size: UnsafeMutablePointer<Int>) {
        let count = size.pointee
        size.pointee = 0
        guard let uploadData else { return }
        if exchange.body.count + count > configuration.maxBodyBytes {
            // Only a chunked upload gets here (a declared length was checked up front). Drop what we have and
            // keep draining without storing, then answer 413 when the upload ends.
            exchange.body = []
            exchange.phase = .discardingBody
            logger.debug("chunked request body over limit", ["http.limit": "\(configuration.maxBodyBytes)"])
            return
        }
        uploadData.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
            exchange.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        }
    }

    private func dispatch(_ exchange: RequestExchange, connection: OpaquePointer) -> MHD_Result {
        let slot = ReplySlot(connection: connection)
        exchange.slot = slot
        exchange.phase = .dispatched
        let request = exchange.makeRequest()
        exchange.body = []
        handler.handle(request) { [self] response in
            self.deliver(response, to: slot)
        }
        switch slot.handlerReturned() {
        case .queue(let value):
            return queue(value.response, on: connection)
        case .none:
            return .YES
        case .suspend:
            guard suspensions.admit(slot) else {
                // Stopping: the daemon must not be left with a suspended connection, so answer now.
                guard let response = slot.suspensionRefused(fallback: errorResponder(.shuttingDown)) else {
                    return .YES
                }
                return queue(response, on: connection)
            }
            exchange.admittedForSuspension = true
            MHD_suspend_connection(connection)
            if slot.suspendCompleted() == .resume {
                MHD_resume_connection(connection)
                suspensions.remove(slot)
            }
            return .YES
        }
    }

    /// Hands `response` to the request behind `slot`; any thread. Resumes the connection when it waits suspended.
    func deliver(_ response: HTTPResponse, to slot: ReplySlot) {
        switch slot.respond(response) {
        case .stored:
            break
        case .resume:
            // The slot is still in `suspensions`, so `stop()` cannot free the daemon before this call returns.
            MHD_resume_connection(slot.connection.pointer)
            suspensions.remove(slot)
        case .ignoredDuplicate:
            logger.debug("reply ignored: the request was already answered")
        case .ignoredFinished:
            logger.debug("reply ignored: the request is over (client gone or server stopped)")
        }
    }

    /// Queues `response` on the connection; call only on the libmicrohttpd thread that owns it.
    func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let status = (100...999).contains(response.status) ? response.status : 500
        let created = response.body.withUnsafeBytes { bytes in
            // MUST_COPY: the Swift array may be freed as soon as this returns.
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                            MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
        guard let created else {
            logger.error("MHD_create_response_from_buffer failed", ["http.status": "\(status)"])
            return .NO
        }
        defer { MHD_destroy_response(created) }
        for field in response.headers where field.name.lowercased() != "content-length" {
            if MHD_add_response_header(created, field.name, field.value) != .YES {
                logger.info("response header dropped (libmicrohttpd refused it)", ["http.header": field.name])
            }
        }
        let queued = MHD_queue_response(connection, UInt32(status), created)
        if queued != .YES {
            logger.info("MHD_queue_response refused the response", ["http.status": "\(status)"])
        }
        return queued
    }

    // MARK: Request bookkeeping

    func exchangeStarted(rawTarget: String) -> RequestExchange {
        RequestExchange(rawTarget: rawTarget, liveCount: liveRequests)
    }

    func exchangeCompleted(_ exchange: RequestExchange, termination: MHD_RequestTerminationCode) {
        exchange.slot?.requestCompleted()
        if termination != .REQUEST_TERMINATED_COMPLETED_OK {
            logger.debug("request ended early", ["http.termination": "\(termination.rawValue)"])
        }
    }

    // MARK: Shutdown

    /// Answers every request still waiting for its handler with the `shuttingDown` fault, then waits until no
    /// connection is suspended, after which `MHD_stop_daemon` is safe.
    func drainSuspendedConnections() {
        let waiting = suspensions.beginStopping()
        if !waiting.isEmpty {
            logger.info("answering waiting requests before stopping", ["http.waiting": "\(waiting.count)"])
            let response = errorResponder(.shuttingDown)
            for slot in waiting { deliver(response, to: slot) }
        }
        if !suspensions.waitUntilEmpty() {
            logger.error("requests still suspended after answering them; stopping anyway",
                         ["http.suspended": "\(suspensions.count)"])
        }
    }
}
