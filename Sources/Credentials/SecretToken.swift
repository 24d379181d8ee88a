// Random secrets and their hashes, through libsodium. API keys and session tokens carry 256 random bits; only their
// SHA-256 is stored, so a copy of the database does not let anyone call the API.
import CSodium
import Foundation
import KYCCrypto

public enum SecretToken {
    /// Initialises libsodium once per process (safe to call many times, from any thread).
    static let sodiumReady: Bool = { sodium_init() >= 0 }()

    /// `prefix` followed by 32 random bytes in URL-safe base64 without padding.
    public static func generate(prefix: String) -> String {
        prefix + base64URL(SecureRandom.bytes(32))
    }

    /// A short random identifier such as `key_3f9c…` (96 bits, hex).
    public static func identifier(prefix: String) -> String {
        SecureRandom.identifier(prefix: prefix)
    }

    /// SHA-256 of the token's UTF-8 bytes, as lowercase hex: the form stored and looked up.
    public static func hash(_ token: String) -> String {
        SHA256.hex(Array(token.utf8))
    }

    /// Compares two secrets in time independent of where they differ.
    public static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return sodium_memcmp(x, y, x.count) == 0
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        let variant = Int32(sodium_base64_VARIANT_URLSAFE_NO_PADDING)
        let capacity = sodium_base64_encoded_len(bytes.count, variant)
        var out = [CChar](repeating: 0, count: capacity)
        _ = sodium_bin2base64(&out, capacity, bytes, bytes.count, variant)
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
