// The platform's one SHA-256, through libsodium (every service used to carry its own copy of this wrapper).
import CSodium
import KYCCore

public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        Sodium.requireReady()
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        _ = bytes.withUnsafeBufferPointer { crypto_hash_sha256(&digest, $0.baseAddress, UInt64($0.count)) }
        return digest
    }

    /// The digest as 64 lowercase hex digits.
    public static func hex(_ bytes: [UInt8]) -> String { Hex.encode(digest(bytes)) }
}

/// libsodium's one-time initialisation, shared by every wrapper here.
enum Sodium {
    private static let ready: Bool = { sodium_init() >= 0 }()

    static func requireReady() {
        precondition(ready, "libsodium failed to initialise")
    }
}
