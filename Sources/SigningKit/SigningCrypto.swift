// libsodium primitives for signing: HMAC-SHA256 with platform-issued keys (KYCCrypto's HMACSHA256), constant-time
// comparison and the platform's Ed25519 seal (crypto_sign_*); SHA-256, hex and random bytes come from KYCCrypto.
// Every call first makes sure libsodium is initialised.
import CSodium
import Foundation
import KYCCrypto

/// The libsodium half of SigningKit's cryptography (OpenSSL verifies device signatures: `DevicePublicKey`).
public enum SigningCrypto {
    /// Initialises libsodium once per process (safe from any thread).
    private static let sodiumReady: Bool = { sodium_init() >= 0 }()

    /// Bytes of a platform-issued HMAC key.
    public static let hmacKeyBytes = Int(crypto_auth_hmacsha256_KEYBYTES)

    /// HMAC-SHA256 of `message` under a `hmacKeyBytes`-byte `key`.
    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        precondition(key.count == hmacKeyBytes, "HMAC key must be \(hmacKeyBytes) bytes")
        return HMACSHA256.tag(for: message, key: key)
    }

    /// True when `mac` is the HMAC-SHA256 of `message` under `key`, compared in constant time.
    public static func verifyHMACSHA256(_ mac: [UInt8], key: [UInt8], message: [UInt8]) -> Bool {
        key.count == hmacKeyBytes && HMACSHA256.isValid(mac, for: message, key: key)
    }

    /// Constant-time equality of two byte strings (lengths are not secret).
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return sodium_memcmp(a, b, a.count) == 0
    }

    // MARK: Ed25519 (the platform seal)

    /// A new Ed25519 key pair: 32-byte public key, 64-byte secret key (libsodium's seed || public form).
    public static func ed25519KeyPair() -> (publicKey: [UInt8], secretKey: [UInt8]) {
        precondition(sodiumReady, "libsodium failed to initialise")
        var publicKey = [UInt8](repeating: 0, count: Int(crypto_sign_PUBLICKEYBYTES))
        var secretKey = [UInt8](repeating: 0, count: Int(crypto_sign_SECRETKEYBYTES))
        _ = crypto_sign_keypair(&publicKey, &secretKey)
        return (publicKey, secretKey)
    }

    /// The detached Ed25519 signature of `message`.
    public static func ed25519Sign(_ message: [UInt8], secretKey: [UInt8]) -> [UInt8] {
        precondition(sodiumReady && secretKey.count == Int(crypto_sign_SECRETKEYBYTES), "bad Ed25519 secret key")
        var signature = [UInt8](repeating: 0, count: Int(crypto_sign_BYTES))
        _ = message.withUnsafeBufferPointer { m in
            crypto_sign_detached(&signature, nil, m.baseAddress, UInt64(m.count), secretKey)
        }
        return signature
    }

    /// True when `signature` is a valid Ed25519 signature of `message` under the raw 32-byte `publicKey`.
    public static func ed25519Verify(_ signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard sodiumReady, signature.count == Int(crypto_sign_BYTES),
              publicKey.count == Int(crypto_sign_PUBLICKEYBYTES) else { return false }
        return message.withUnsafeBufferPointer { m in
            crypto_sign_verify_detached(signature, m.baseAddress, UInt64(m.count), publicKey) == 0
        }
    }

    // MARK: Encodings

    /// Standard base64 with padding.
    public static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    /// Strict standard base64 (RFC 4648 §4, padded, no whitespace); nil for anything else, so a value never depends on
    /// how lenient a decoder is.
    public static func decodeBase64(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        guard bytes.count % 4 == 0 else { return nil }
        var padding = 0
        while padding < 2, padding < bytes.count, bytes[bytes.count - 1 - padding] == UInt8(ascii: "=") { padding += 1 }
        let isAlphabet: (UInt8) -> Bool = { byte in
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
        }
        guard bytes.dropLast(padding).allSatisfy(isAlphabet), let data = Data(base64Encoded: text) else { return nil }
        // Non-canonical trailing bits ("QR==" vs "QQ==") would give two spellings of one value.
        guard data.base64EncodedString() == text else { return nil }
        return Array(data)
    }
}
