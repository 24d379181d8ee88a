// The secret keys that authenticate tracker states. Every CaptureService process that may serve a stream must hold
// the same current key, or a state issued by one is refused by the next.
import Foundation
import KYCCore
import KYCCrypto

/// The HMAC keys of tracker states: `current` seals new states and opens them; `previous` (during a key rotation)
/// only opens states sealed before the rotation, so streams in flight survive it.
public struct TrackerStateKeys: Sendable {
    /// Shortest accepted key: 32 bytes, HMAC-SHA256's output size.
    public static let minimumByteCount = HMACSHA256.keyByteCount
    /// Longest accepted key (a longer HMAC key is hashed down anyway; this only bounds configuration input).
    public static let maximumByteCount = 1024

    public let current: [UInt8]
    public let previous: [UInt8]?

    /// Refuses a key shorter than `minimumByteCount` or longer than `maximumByteCount`.
    public init(current: [UInt8], previous: [UInt8]? = nil) throws(CaptureConfigurationError) {
        for (name, key) in [("current", current), ("previous", previous ?? current)] {
            guard (Self.minimumByteCount...Self.maximumByteCount).contains(key.count) else {
                throw CaptureConfigurationError(description: "the \(name) tracker state key must be "
                                                + "\(Self.minimumByteCount)…\(Self.maximumByteCount) bytes")
            }
        }
        self.current = current
        self.previous = previous
    }

    /// A fresh random key, known to this value only: for tests and for a single process that shares no streams.
    public static func random() -> TrackerStateKeys {
        // 32 random bytes always satisfy the length rule.
        try! TrackerStateKeys(current: SecureRandom.bytes(minimumByteCount))
    }

    /// The bytes of a hex key (upper or lower case; surrounding whitespace ignored), or nil when `text` is not an
    /// even number of hex digits.
    static func bytes(fromHex text: String) -> [UInt8]? {
        Hex.decode(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
    }
}
