/// How a device signs the canonical message.
public enum SigningAlgorithm: String, Sendable, CaseIterable {
    /// ECDSA over NIST P-256 with SHA-256, as phones' secure hardware makes (Secure Enclave, StrongBox).
    case es256 = "ES256"
    /// Ed25519 (pure, over the message itself).
    case ed25519 = "Ed25519"
    /// HMAC-SHA256 under a platform-issued one-time secret: proves possession of the secret, not who held it.
    case hmacSHA256 = "HMAC-SHA256"

    /// Accepts the documented names and the common aliases (case-insensitive): `ES256`, `ECDSA-P256`, `P-256`,
    /// `ECDSA_P256_SHA256`; `Ed25519`, `EdDSA`.
    public init?(name: String) {
        switch name.uppercased() {
        case "ES256", "ECDSA-P256", "ECDSA_P256", "P-256", "P256", "ECDSA-P256-SHA256", "ECDSA_P256_SHA256": self = .es256
        case "ED25519", "EDDSA": self = .ed25519
        case "HMAC-SHA256", "HS256": self = .hmacSHA256
        default: return nil
        }
    }

    /// Algorithms a device may enrol a public key for.
    public static let deviceAlgorithms: [SigningAlgorithm] = [.es256, .ed25519]
}
