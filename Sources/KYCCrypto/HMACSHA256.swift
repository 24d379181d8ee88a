// The platform's one HMAC-SHA256 (RFC 2104), through libsodium's `crypto_auth_hmacsha256_*`. The init/update/final
// form is used because it takes a key of any length (RFC 4231's vectors use 4- to 131-byte keys), where the one-shot
// `crypto_auth_hmacsha256` and `_verify` insist on exactly 32 bytes. Verification compares in constant time
// (`sodium_memcmp`), so timing does not tell an attacker how many leading bytes of a forged tag were right.
import CSodium

/// HMAC-SHA256 tags: computing them and checking them in constant time.
public enum HMACSHA256 {
    /// Bytes in a tag.
    public static let tagByteCount = Int(crypto_auth_hmacsha256_BYTES)
    /// Bytes in a generated key (the hash's output size: RFC 2104's recommended minimum).
    public static let keyByteCount = Int(crypto_auth_hmacsha256_KEYBYTES)

    /// The 32-byte tag of `message` under `key` (any length; an empty key is legal HMAC, if useless).
    public static func tag(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        Sodium.requireReady()
        var state = crypto_auth_hmacsha256_state()
        defer { sodium_memzero(&state, MemoryLayout<crypto_auth_hmacsha256_state>.size) }
        var tag = [UInt8](repeating: 0, count: tagByteCount)
        // libsodium reads `keylen` bytes only; a one-byte buffer gives it a valid pointer for an empty key.
        let keyStorage = key.isEmpty ? [0] : key
        _ = keyStorage.withUnsafeBufferPointer { crypto_auth_hmacsha256_init(&state, $0.baseAddress!, key.count) }
        if !message.isEmpty {
            _ = message.withUnsafeBufferPointer {
                crypto_auth_hmacsha256_update(&state, $0.baseAddress, UInt64($0.count))
            }
        }
        _ = crypto_auth_hmacsha256_final(&state, &tag)
        return tag
    }

    /// Whether `tag` is the tag of `message` under `key`, compared in constant time. A tag of the wrong length
    /// simply does not verify.
    public static func isValid(_ tag: [UInt8], for message: [UInt8], key: [UInt8]) -> Bool {
        guard tag.count == tagByteCount else { return false }
        var expected = self.tag(for: message, key: key)
        defer { sodium_memzero(&expected, expected.count) }
        return sodium_memcmp(tag, expected, tagByteCount) == 0
    }
}
