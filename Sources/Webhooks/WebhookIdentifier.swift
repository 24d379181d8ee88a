import CSodium

/// Identifiers like `evt_4f9c…` and `dlv_…`: a prefix that says what they name, then 128 random bits in lowercase
/// hex, from libsodium's CSPRNG (unguessable, so a tenant cannot probe another's ids).
public enum WebhookIdentifier {
    private static let sodiumReady: Bool = { sodium_init() >= 0 }()
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `<prefix>_<32 hex digits>`.
    public static func make(prefix: String) -> String {
        precondition(sodiumReady, "libsodium failed to initialise")
        var bytes = [UInt8](repeating: 0, count: 16)
        randombytes_buf(&bytes, bytes.count)
        var text = Array(prefix.utf8)
        text.append(0x5F)
        for byte in bytes {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether `value` looks like `make(prefix:)` output (cheap input validation before a lookup).
    public static func isWellFormed(_ value: String, prefix: String) -> Bool {
        let utf8 = Array(value.utf8)
        let head = Array(prefix.utf8) + [0x5F]
        guard utf8.count == head.count + 32, Array(utf8.prefix(head.count)) == head else { return false }
        return utf8.dropFirst(head.count).allSatisfy { hexDigits.contains($0) }
    }
}
