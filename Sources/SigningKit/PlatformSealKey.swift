import KYCCrypto
import Storage

/// The platform's Ed25519 key that seals evidence bundles. Generated on first start and kept in the signing database
/// (table `platform_seal_key`, one row); only the public half ever leaves the service.
public struct PlatformSealKey: Sendable {
    /// Raw 32-byte public key.
    public let publicKey: [UInt8]
    let secretKey: [UInt8]

    /// The public key as SPKI DER (what `openssl pkey -pubin -inform DER` reads).
    public var spkiDER: [UInt8] { DevicePublicKey.ed25519RawPrefix + publicKey }
    /// Lowercase hex SHA-256 of `spkiDER`.
    public var fingerprint: String { SHA256.hex(spkiDER) }

    /// Reads the key, creating it if the database has none. Safe when two processes start at once: the first insert
    /// wins and both read the same row.
    public static func loadOrCreate(_ database: Database, now: Int64) throws -> PlatformSealKey {
        let fresh = SigningCrypto.ed25519KeyPair()
        _ = try database.execute("""
            INSERT OR IGNORE INTO platform_seal_key (id, public_key, secret_key, created_at_ms) VALUES (1, ?, ?, ?)
            """, [.blob(fresh.publicKey), .blob(fresh.secretKey), .integer(now)])
        guard let row = try database.queryOne("SELECT public_key, secret_key FROM platform_seal_key WHERE id = 1") else {
            throw SigningStoreError("platform seal key missing after insert")
        }
        return PlatformSealKey(publicKey: try row.blob("public_key"), secretKey: try row.blob("secret_key"))
    }

    /// A key from its parts (tests).
    public init(publicKey: [UInt8], secretKey: [UInt8]) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    func sign(_ message: [UInt8]) -> [UInt8] { SigningCrypto.ed25519Sign(message, secretKey: secretKey) }
}

/// An internal storage inconsistency (never sent to clients: the router answers "internal error").
struct SigningStoreError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
