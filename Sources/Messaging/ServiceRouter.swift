import Foundation
import KYCCore
import KYCMessages

/// The method table of one service: maps `RequestEnvelope.method` to a handler. Build it before starting workers;
/// it is an immutable value once handed to `ServiceWorker`, so every worker thread reads it without locks.
/// Every router also answers `"<service>.Describe"` with a `DescribeReply`.
public struct ServiceRouter: Sendable {
    /// A handler returns the reply payload or throws `ServiceError` for a domain failure.
    public typealias Handler = @Sendable (RequestEnvelope) throws -> [UInt8]

    public let service: String
    public let version: String
    public let instance: String
    public let startedUnixMs: Int64
    private let logger: Logger
    private var handlers: [String: Handler] = [:]

    /// The name of the built-in describe method.
    public var describeMethod: String { "\(service).Describe" }

    public init(service: String, version: String = "0.0.0", instance: String = ServiceRouter.defaultInstance(),
                logger: Logger, startedUnixMs: Int64 = WallClock.nowMilliseconds()) {
        self.service = service
        self.version = version
        self.instance = instance
        self.logger = logger
        self.startedUnixMs = startedUnixMs
    }

    /// `host:pid`, a label that tells instances apart in logs and `Describe` answers.
    public static func defaultInstance() -> String {
        "\(ProcessInfo.processInfo.hostName):\(getpid())"
    }

    /// Adds (or replaces) the handler of `method` (the full name, e.g. `"Appointment.Book"`).
    public mutating func register(_ method: String, _ handler: @escaping Handler) {
        handlers[method] = handler
    }

    /// The registered method names plus the describe method, sorted.
    public var methods: [String] { (Array(handlers.keys) + [describeMethod]).sorted() }

    /// Runs the handler of `envelope.method`. Never throws: unknown method → `.unimplemented`; passed deadline →
    /// `.deadlineExceeded` (the handler does not run); `ServiceError` → its fields; any other error →
    /// `.internalError` "internal error" (the real error is logged with the request id, never sent).
    public func handle(_ envelope: RequestEnvelope, now: Int64 = WallClock.nowMilliseconds()) -> ReplyEnvelope {
        let requestID = envelope.requestID
        if envelope.deadlineUnixMs > 0 && envelope.deadlineUnixMs <= now {
            return .failure(requestID: requestID, status: .deadlineExceeded, reason: "deadline exceeded")
        }
        if envelope.method == describeMethod {
            let reply = DescribeReply(service: service, version: version, instance: instance, methods: methods,
                                      startedUnixMs: startedUnixMs)
            return .success(requestID: requestID, payload: reply.serialized())
        }
        guard let handler = handlers[envelope.method] else {
            return .failure(requestID: requestID, status: .unimplemented, reason: "unknown method")
        }
        do {
            return .success(requestID: requestID, payload: try handler(envelope))
        } catch let error as ServiceError {
            return .failure(requestID: requestID, status: error.status, reason: error.message, errorCode: error.code,
                            violations: error.violations)
        } catch {
            logger.error("handler failed", ["request.id": requestID, "method": envelope.method,
                                             "error": String(describing: error)])
            return .failure(requestID: requestID, status: .internalError, reason: "internal error")
        }
    }
}
