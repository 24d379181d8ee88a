import KYCCore
import KYCCrypto

/// Identifiers like `evt_4f9c…` and `dlv_…`: a prefix that says what they name, then 128 random bits in lowercase
/// hex, from libsodium's CSPRNG (unguessable, so a tenant cannot probe another's ids).
public enum WebhookIdentifier {
    /// `<prefix>_<32 hex digits>`.
    public static func make(prefix: String) -> String {
        SecureRandom.identifier(prefix: prefix + "_", byteCount: 16)
    }

    /// Whether `value` looks like `make(prefix:)` output (cheap input validation before a lookup).
    public static func isWellFormed(_ value: String, prefix: String) -> Bool {
        let utf8 = Array(value.utf8)
        let head = Array(prefix.utf8) + [0x5F]
        guard utf8.count == head.count + 32, Array(utf8.prefix(head.count)) == head else { return false }
        return Hex.isLowercaseHex(utf8.dropFirst(head.count))
    }
}
