/// The worker protocol "KYC/W1" between the broker (ROUTER) and service workers (DEALER); docs/protocol.md has the
/// prose. Every message is `[protocol tag][command byte][body frames…]` (the ROUTER also sees the routing id first):
///
/// ```
/// READY      W→B  [service name][instance label]([capacity: 4 bytes BE])   worker offers to serve `service`,
///                  holding up to `capacity` requests at once (1 when the frame is absent)
/// REQUEST    B→W  [ticket: 8 bytes BE][RequestEnvelope]   worker answers with REPLY
/// REPLY      W→B  [ticket: 8 bytes BE][ReplyEnvelope]     frees one of the worker's places
/// HEARTBEAT  B↔W  (no body)                        sent every heartbeat interval to a silent peer
/// DISCONNECT B↔W  (no body)                        the sender forgets the peer; a worker answers with READY
/// ```
/// Anything else is dropped. A broker answers a non-READY message from a worker it does not know with DISCONNECT.
public enum WorkerProtocol {
    /// Frame 0 of every message.
    public static let tag: [UInt8] = Array("KYC/W1".utf8)

    /// Frame 1 of every message.
    public enum Command: UInt8, Sendable {
        case ready = 0x01
        case request = 0x02
        case reply = 0x03
        case heartbeat = 0x04
        case disconnect = 0x05

        /// The command frame.
        public var frame: [UInt8] { [rawValue] }
    }

    /// The largest capacity a worker may announce; larger announcements are clamped to it.
    public static let maxCapacity = 1024

    /// A broker-assigned request number, unique per broker run; echoed by the worker in its REPLY.
    public typealias Ticket = UInt64

    /// The 8-byte big-endian ticket frame.
    public static func ticketFrame(_ ticket: Ticket) -> [UInt8] {
        withUnsafeBytes(of: ticket.bigEndian) { Array($0) }
    }

    /// Reads a ticket frame; `nil` unless it is exactly 8 bytes.
    public static func ticket(from frame: UnsafeRawBufferPointer) -> Ticket? {
        guard frame.count == 8 else { return nil }
        var value: Ticket = 0
        for byte in frame { value = value << 8 | Ticket(byte) }
        return value
    }

    /// Reads a ticket frame; `nil` unless it is exactly 8 bytes.
    public static func ticket(from frame: [UInt8]) -> Ticket? {
        frame.withUnsafeBytes { ticket(from: $0) }
    }

    /// A parsed message (without routing id). Bodies stay borrowed until the caller copies what it keeps.
    public enum Message: Equatable {
        case ready(service: String, instance: String, capacity: Int = 1)
        case request(ticket: Ticket, envelope: [UInt8])
        case reply(ticket: Ticket, envelope: [UInt8])
        case heartbeat
        case disconnect
    }

    /// Parses the frames after the routing id; `nil` for anything malformed (wrong tag, unknown command, wrong body).
    public static func parse(_ frames: ArraySlice<UnsafeRawBufferPointer>) -> Message? {
        guard frames.count >= 2 else { return nil }
        let tagFrame = frames[frames.startIndex]
        let commandFrame = frames[frames.startIndex + 1]
        guard tagFrame.elementsEqual(tag), commandFrame.count == 1,
              let command = Command(rawValue: commandFrame[0])
        else { return nil }
        let body = frames.dropFirst(2)
        switch command {
        case .ready:
            guard body.count == 2 || body.count == 3,
                  let service = String(validating: body[body.startIndex], as: UTF8.self), !service.isEmpty,
                  let instance = String(validating: body[body.startIndex + 1], as: UTF8.self)
            else { return nil }
            guard body.count == 3 else { return .ready(service: service, instance: instance) }
            let capacityFrame = body[body.startIndex + 2]
            guard capacityFrame.count == 4 else { return nil }
            let capacity = capacityFrame.reduce(0) { $0 << 8 | Int($1) }
            guard (1...maxCapacity).contains(capacity) else { return nil }
            return .ready(service: service, instance: instance, capacity: capacity)
        case .request, .reply:
            guard body.count == 2, let ticket = ticket(from: body[body.startIndex]) else { return nil }
            let envelope = [UInt8](body[body.startIndex + 1])
            return command == .request ? .request(ticket: ticket, envelope: envelope)
                : .reply(ticket: ticket, envelope: envelope)
        case .heartbeat:
            return body.isEmpty ? .heartbeat : nil
        case .disconnect:
            return body.isEmpty ? .disconnect : nil
        }
    }

    /// Frames of a message (without routing id).
    public static func frames(_ message: Message) -> [[UInt8]] {
        switch message {
        case let .ready(service, instance, capacity):
            [tag, Command.ready.frame, Array(service.utf8), Array(instance.utf8),
             withUnsafeBytes(of: UInt32(clamping: capacity).bigEndian) { Array($0) }]
        case let .request(ticket, envelope): [tag, Command.request.frame, ticketFrame(ticket), envelope]
        case let .reply(ticket, envelope): [tag, Command.reply.frame, ticketFrame(ticket), envelope]
        case .heartbeat: [tag, Command.heartbeat.frame]
        case .disconnect: [tag, Command.disconnect.frame]
        }
    }
}
