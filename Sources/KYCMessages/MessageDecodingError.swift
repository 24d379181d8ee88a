/// Bytes that are not a valid encoding of the expected message. Services answer it with `invalid_argument`.
public struct MessageDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public let messageName: String
    public let byteCount: Int

    public init(messageName: String, byteCount: Int) {
        self.messageName = messageName
        self.byteCount = byteCount
    }

    public var description: String { "malformed \(messageName) (\(byteCount) bytes)" }
}

/// A message with a protobuf wire encoding.
public protocol WireMessage: Sendable {
    /// The protobuf encoding of this value.
    func serialized() -> [UInt8]
    /// Decodes a protobuf encoding; throws `MessageDecodingError` for malformed bytes.
    init(serialized bytes: [UInt8]) throws
}
