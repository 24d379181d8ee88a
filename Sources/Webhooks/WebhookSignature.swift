// Standard Webhooks signatures (https://www.standardwebhooks.com): HMAC-SHA256 over "id.timestamp.body" with the
// endpoint's secret, through KYCCrypto's HMACSHA256 (libsodium's `crypto_auth_hmacsha256_*`, any key length).
// Comparisons of signatures run in constant time (`sodium_memcmp`).
import CSodium
import Foundation
import KYCCrypto

/// Signing and verifying webhook requests the Standard Webhooks way.
///
/// A secret is `whsec_` followed by the base64 of 32 random bytes; the HMAC key is the decoded bytes. The signed
/// content is `"<id>.<timestamp>.<body>"` (timestamp in whole Unix seconds, body exactly as sent), and the
/// `webhook-signature` header is `v1,<base64 of the HMAC-SHA256>`. A header may carry several space-separated
/// signatures (during a secret rotation); any one that matches verifies.
public enum WebhookSignature {
    /// The prefix of every secret.
    public static let secretPrefix = "whsec_"
    /// The signature scheme version written before each signature.
    public static let version = "v1"
    /// Random bytes in a generated secret.
    public static let secretByteCount = 32

    private static let sodiumReady: Bool = { sodium_init() >= 0 }()

    /// A new secret: `whsec_<base64(32 random bytes)>`, from libsodium's CSPRNG.
    public static func generateSecret() -> String {
        precondition(sodiumReady, "libsodium failed to initialise")
        var bytes = [UInt8](repeating: 0, count: secretByteCount)
        randombytes_buf(&bytes, bytes.count)
        defer { sodium_memzero(&bytes, bytes.count) }
        return secretPrefix + Data(bytes).base64EncodedString()
    }

    /// The key bytes of `secret` (`whsec_` prefix optional, as other Standard Webhooks libraries accept), or nil
    /// when it is not valid base64 or is empty.
    public static func keyBytes(ofSecret secret: String) -> [UInt8]? {
        let encoded = secret.hasPrefix(secretPrefix) ? String(secret.dropFirst(secretPrefix.count)) : secret
        guard let data = Data(base64Encoded: encoded), !data.isEmpty else { return nil }
        return [UInt8](data)
    }

    /// The `webhook-signature` header value for one message: `v1,<base64>`. A secret that is not valid base64 is
    /// used as raw UTF-8 bytes, so this never fails; `WebhookEndpoint` only ever stores generated secrets.
    public static func sign(secret: String, id: String, timestamp: Int64, body: [UInt8]) -> String {
        let key = keyBytes(ofSecret: secret) ?? Array(secret.utf8)
        return version + "," + Data(hmac(key: key, id: id, timestamp: timestamp, body: body)).base64EncodedString()
    }

    /// Whether `signatureHeader` holds a valid `v1` signature of this message under `secret`, and `timestamp` (Unix
    /// seconds) lies within `toleranceSeconds` of `now` (Unix seconds) either way, which bounds replays.
    /// Malformed headers, unknown versions and bad base64 simply do not verify.
    public static func verify(secret: String, id: String, timestamp: Int64, body: [UInt8], signatureHeader: String,
                              now: Int64, toleranceSeconds: Int64 = 300) -> Bool {
        guard toleranceSeconds >= 0, let key = keyBytes(ofSecret: secret) else { return false }
        // Attacker-chosen timestamps may be extreme: an overflowing difference is simply out of tolerance.
        let (difference, overflow) = now.subtractingReportingOverflow(timestamp)
        guard !overflow, difference.magnitude <= UInt64(toleranceSeconds) else { return false }
        var expected = hmac(key: key, id: id, timestamp: timestamp, body: body)
        defer { sodium_memzero(&expected, expected.count) }
        var matched = false
        for candidate in signatureHeader.split(separator: " ", omittingEmptySubsequences: true) {
            let parts = candidate.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == version, let decoded = Data(base64Encoded: String(parts[1])),
                  decoded.count == expected.count else { continue }
            let given = [UInt8](decoded)
            // Every candidate is compared (no early return) so timing does not tell which one matched.
            if sodium_memcmp(given, expected, expected.count) == 0 { matched = true }
        }
        return matched
    }

    /// HMAC-SHA256(key, "id.timestamp.body").
    static func hmac(key: [UInt8], id: String, timestamp: Int64, body: [UInt8]) -> [UInt8] {
        HMACSHA256.tag(for: Array("\(id).\(timestamp).".utf8) + body, key: key)
    }
}
