import KYCCore
import KYCMessages
import ZeroMQ

/// A blocking client of the broker's client endpoint ("KYC/C1"): one request at a time, with a timeout.
///
/// Owns one DEALER socket, so it must be created, used and closed on one thread (it is deliberately not `Sendable`);
/// a thread that needs to call other services makes its own. After a timeout the socket is closed and reopened
/// (zguide's Lazy Pirate), so a late reply or a request still queued for an absent broker never reaches the next call.
public final class ServiceClient {
    /// Where the broker's client endpoint listens, e.g. `tcp://127.0.0.1:5556`.
    public let endpoint: String
    private let context: ZMQContext
    private let options: ZMQSocketOptions
    private var socket: ZMQSocket?
    private var sequence: UInt64 = 0

    /// Connects lazily: the socket is made on the first request. `maxMessageBytes` bounds accepted replies.
    public init(context: ZMQContext, endpoint: String, maxMessageBytes: Int64 = 16 << 20) {
        self.context = context
        self.endpoint = endpoint
        var options = ZMQSocketOptions()
        options.maxMessageBytes = maxMessageBytes
        options.lingerMilliseconds = 0  // an unsent request of a closed client is abandoned, never sent later
        self.options = options
    }

    deinit { close() }

    /// Closes the socket. Idempotent; a later request reconnects.
    public func close() {
        socket?.close()
        socket = nil
    }

    /// Sends `envelope` to a worker of `service` through the broker and waits up to `timeoutMilliseconds` for the
    /// reply. An empty `requestID` is filled in; a zero `deadlineUnixMs` is set to the timeout, so the broker gives
    /// up when the caller does. Never throws for a service-side failure: that is a reply with a status. Throws
    /// `ServiceClientError` when no reply came in time or the socket failed.
    public func request(service: String, envelope: RequestEnvelope, timeoutMilliseconds: Int64 = 5_000) throws
        -> ReplyEnvelope
    {
        var envelope = envelope
        if envelope.requestID.isEmpty {
            sequence += 1
            envelope.requestID = "cli-\(ProcessIdentity.label)-\(sequence)"
        }
        if envelope.deadlineUnixMs == 0 { envelope.deadlineUnixMs = WallClock.nowMilliseconds() + timeoutMilliseconds }
        let socket = try connectedSocket()
        let sent: Bool
        do {
            sent = try socket.send(ClientProtocol.frames(service: service, envelope: envelope.serialized()),
                                   dontWait: true)
        } catch {
            reset()
            throw ServiceClientError(kind: .socket, message: error.description)
        }
        guard sent else {
            reset()
            throw ServiceClientError(kind: .unavailable, message: "broker client endpoint not accepting")
        }
        let deadline = MonotonicClock.nowMilliseconds() + timeoutMilliseconds
        let reply: ReplyEnvelope?
        do {
            reply = try awaitReply(on: socket, service: service, requestID: envelope.requestID, deadline: deadline)
        } catch {
            reset()
            throw ServiceClientError(kind: .socket, message: error.description)
        }
        guard let reply else {
            reset()
            throw ServiceClientError(kind: .timeout, message: "no reply from \(service) within \(timeoutMilliseconds) ms")
        }
        return reply
    }

    /// The reply to `requestID`, or nil at `deadline` (monotonic ms). Malformed and stale messages are skipped.
    private func awaitReply(on socket: ZMQSocket, service: String, requestID: String, deadline: Int64)
        throws(ZMQError) -> ReplyEnvelope?
    {
        var poller = ZMQPoller()
        let index = poller.add(socket)
        while true {
            let remaining = deadline - MonotonicClock.nowMilliseconds()
            guard remaining > 0 else { return nil }
            _ = try poller.poll(timeoutMilliseconds: Int(remaining))
            guard poller.isReadable(index) else { continue }
            while let frames = try socket.receive(dontWait: true) {
                guard let message = ClientProtocol.parse(frames[...]), message.service == service,
                      let reply = try? ReplyEnvelope(serialized: message.envelope), reply.requestID == requestID
                else { continue }
                return reply
            }
        }
    }

    private func connectedSocket() throws -> ZMQSocket {
        if let socket { return socket }
        let made: ZMQSocket
        do {
            made = try context.socket(.dealer, options: options)
        } catch {
            throw ServiceClientError(kind: .socket, message: error.description)
        }
        do {
            try made.connect(endpoint)
        } catch {
            made.close()
            throw ServiceClientError(kind: .socket, message: error.description)
        }
        socket = made
        return made
    }

    private func reset() { close() }
}

/// Why a `ServiceClient` request got no reply.
public struct ServiceClientError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No reply within the timeout (broker or service down, or slow).
        case timeout
        /// The message could not be queued.
        case unavailable
        /// A libzmq call failed.
        case socket
    }

    public let kind: Kind
    public let message: String

    public var description: String { "service client \(kind): \(message)" }
}

/// A short label of this process for generated request ids.
enum ProcessIdentity {
    static let label: String = {
        var bytes = [UInt8](repeating: 0, count: 4)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255) }
        return bytes.map { String($0, radix: 16).leftPadded(2) }.joined()
    }()
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
