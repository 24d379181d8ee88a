import CSodium
import KYCCore

/// Random bytes and identifiers from the operating system's CSPRNG (libsodium's `randombytes_buf`).
public enum SecureRandom {
    public static func bytes(_ count: Int) -> [UInt8] {
        Sodium.requireReady()
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return bytes
    }

    /// `prefix` followed by `byteCount` random bytes in lowercase hex (96 bits by default): unguessable, so an id
    /// alone reveals nothing about other records.
    public static func identifier(prefix: String, byteCount: Int = 12) -> String {
        prefix + Hex.encode(bytes(byteCount))
    }
}
