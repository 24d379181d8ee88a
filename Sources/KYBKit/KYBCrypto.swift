// SHA-256 digests and random identifiers through libsodium. Every call first makes sure libsodium is initialised.
import CSodium

/// libsodium's SHA-256 and random bytes, the two primitives KYB needs.
public enum KYBCrypto {
    /// Initialises libsodium once per process (safe from any thread).
    private static let sodiumReady: Bool = { sodium_init() >= 0 }()

    /// The lower-case hex SHA-256 of `bytes`.
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        precondition(sodiumReady, "libsodium failed to initialise")
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        _ = bytes.withUnsafeBufferPointer { crypto_hash_sha256(&digest, $0.baseAddress, UInt64($0.count)) }
        return hex(digest)
    }

    /// `prefix` followed by 96 random bits in hex, e.g. `biz_3f9c0a…`: unguessable, so an id alone reveals nothing
    /// about other records.
    public static func identifier(prefix: String) -> String {
        precondition(sodiumReady, "libsodium failed to initialise")
        var bytes = [UInt8](repeating: 0, count: 12)
        randombytes_buf(&bytes, bytes.count)
        return prefix + hex(bytes)
    }

    private static let digits = Array("0123456789abcdef".utf8)

    static func hex(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
