import CMicroHTTPD
import Synchronization

/// Everything about one request that lives on the libmicrohttpd thread serving its connection: the raw target,
/// headers and the body as it accumulates. Owned by libmicrohttpd's per-request pointer (`*con_cls`) through
/// `Unmanaged`: retained when the request line arrives, released exactly once in the request-completed callback.
/// Not `Sendable`: libmicrohttpd calls back for one connection on one thread at a time.
final class RequestExchange {
    enum Phase {
        /// The request line arrived; headers not seen yet.
        case started
        /// Headers checked; body bytes (if any) are being collected.
        case readingBody
        /// The body went over the limit while streaming in; the 413 is queued once the upload ends.
        case discardingBody
        /// The handler was called; the reply goes through `slot`.
        case dispatched
        /// The server answered by itself (for example 413); nothing more to do.
        case answered
    }

    let rawTarget: String
    var phase: Phase = .started
    var method = ""
    var version = ""
    var headers: [String: String] = [:]
    var remoteAddress = ""
    var body: [UInt8] = []
    var slot: ReplySlot?
    /// The slot went through `SuspensionRegistry.admit`.
    var admittedForSuspension = false

    private let liveCount: LiveRequestCount

    init(rawTarget: String, liveCount: LiveRequestCount) {
        self.rawTarget = rawTarget
        self.liveCount = liveCount
        liveCount.increment()
    }

    deinit {
        liveCount.decrement()
    }

    /// The request as handlers see it.
    func makeRequest() -> HTTPRequest {
        let target = RequestTarget(raw: rawTarget)
        return HTTPRequest(method: method, path: target.path, rawQuery: target.rawQuery,
                           queryItems: target.queryItems.map { ($0.name, $0.value) }, headers: headers, body: body,
                           remoteAddress: remoteAddress, version: version)
    }

    /// Collects the request's header fields with lower-cased names.
    static func headerFields(of connection: OpaquePointer) -> [String: String] {
        var fields: [String: String] = [:]
        withUnsafeMutablePointer(to: &fields) { pointer in
            _ = MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, { context, _, key, value in
                guard let context, let key else { return .YES }
                let fields = context.assumingMemoryBound(to: [String: String].self)
                let name = String(cString: key).lowercased()
                let text = value.map { String(cString: $0) } ?? ""
                if let existing = fields.pointee[name] {
                    fields.pointee[name] = existing + ", " + text
                } else {
                    fields.pointee[name] = text
                }
                return .YES
            }, pointer)
        }
        return fields
    }
}

/// How many `RequestExchange` objects are alive: 0 once every request's state was released. For tests and
/// diagnostics (a leak or a missed completion callback shows up here).
final class LiveRequestCount: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .relaxed) }
    func decrement() { count.subtract(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
