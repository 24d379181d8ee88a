/// The client protocol "KYC/C1": how a service (or any other process) asks the broker, on its client endpoint, to
/// run a request on another service's workers. docs/protocol.md ("Client protocol") has the prose.
///
/// ```
/// request  C→B  [tag "KYC/C1"][service name][RequestEnvelope]
/// reply    B→C  [tag "KYC/C1"][service name][ReplyEnvelope]
/// ```
/// The client is a DEALER, the broker a ROUTER (which also sees the client's routing id first). Replies are matched
/// to requests by the envelope's `request_id`. A message with another tag, a wrong frame count or an empty service
/// name is dropped; an undecodable envelope is answered with INVALID_ARGUMENT. Broker-made failures (no worker,
/// deadline passed, too large) come back as replies with the matching status, as for the gateway.
public enum ClientProtocol {
    /// Frame 0 of every message.
    public static let tag: [UInt8] = Array("KYC/C1".utf8)

    /// Longest accepted service name; longer ones are treated as malformed.
    public static let maxServiceNameBytes = 64

    /// The frames of a request (or reply) for `service`.
    public static func frames(service: String, envelope: [UInt8]) -> [[UInt8]] {
        [tag, Array(service.utf8), envelope]
    }

    /// Reads `[tag][service][envelope]`; `nil` when the frames do not have that shape.
    public static func parse(_ frames: ArraySlice<[UInt8]>) -> (service: String, envelope: [UInt8])? {
        guard frames.count == 3 else { return nil }
        let start = frames.startIndex
        guard frames[start] == tag else { return nil }
        let name = frames[start + 1]
        guard !name.isEmpty, name.count <= maxServiceNameBytes,
              let service = String(validating: name, as: UTF8.self) else { return nil }
        return (service, frames[start + 2])
    }
}
