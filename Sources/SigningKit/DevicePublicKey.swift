// A device's public key parsed and checked by OpenSSL libcrypto (EVP), and signature verification over the canonical
// message. The EVP_PKEY is owned by this class and freed once. Accepted key forms: SPKI DER (what
// `openssl ec -pubout -outform DER` writes), PEM (`-----BEGIN PUBLIC KEY-----`), and the raw key (65-byte uncompressed
// P-256 point, 32-byte Ed25519 key). Accepted ECDSA signatures: DER (`openssl dgst -sha256 -sign`) and raw r||s
// (64 bytes, what phone secure hardware and WebCrypto return).
import KYCCrypto
import COpenSSL
import Foundation

/// Why a public key was refused; the code goes on the wire.
public struct PublicKeyError: Error, Sendable, Equatable {
    /// `invalid_public_key` or `algorithm_mismatch`.
    public let code: String
    public let message: String
}

/// A verified-well-formed device public key.
public final class DevicePublicKey: @unchecked Sendable {
    // @unchecked: the EVP_PKEY is never mutated after init (verification only reads it; OpenSSL 3 allows concurrent
    // use of a const key), and it is freed once, in deinit.
    public let algorithm: SigningAlgorithm
    /// The key as SPKI DER (normalised: the same key always gives the same bytes).
    public let spkiDER: [UInt8]
    private let key: OpaquePointer

    /// Lowercase hex SHA-256 of `spkiDER`.
    public var fingerprint: String { SHA256.hex(spkiDER) }

    static let p256RawPrefix: [UInt8] = [0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
                                         0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00]
    /// SPKI DER prefix of a raw 32-byte Ed25519 key (RFC 8410).
    public static let ed25519RawPrefix: [UInt8] = [0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21,
                                                   0x00]

    /// Parses `bytes` (SPKI DER, PEM, or raw) as a key of `algorithm`.
    public init(algorithm: SigningAlgorithm, bytes: [UInt8]) throws(PublicKeyError) {
        guard algorithm != .hmacSHA256 else {
            throw PublicKeyError(code: "unknown_algorithm", message: "HMAC-SHA256 keys are issued by the platform")
        }
        guard !bytes.isEmpty, bytes.count <= 8192 else {
            throw PublicKeyError(code: "invalid_public_key", message: "publicKey is empty or too large")
        }
        var der = bytes
        if bytes.starts(with: Array("-----BEGIN".utf8)) {
            guard let decoded = Self.pemBody(bytes) else {
                throw PublicKeyError(code: "invalid_public_key", message: "publicKey is not a PEM PUBLIC KEY block")
            }
            der = decoded
        } else if algorithm == .es256, bytes.count == 65, bytes[0] == 0x04 {
            der = Self.p256RawPrefix + bytes
        } else if algorithm == .ed25519, bytes.count == 32 {
            der = Self.ed25519RawPrefix + bytes
        }
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let parsed else {
            ERR_clear_error()
            throw PublicKeyError(code: "invalid_public_key",
                                 message: "publicKey is not a valid \(algorithm.rawValue) public key")
        }
        let baseID = EVP_PKEY_get_base_id(parsed)
        var matches = false
        switch algorithm {
        case .es256:
            if baseID == EVP_PKEY_EC {
                var name = [CChar](repeating: 0, count: 64)
                var length = 0
                if EVP_PKEY_get_group_name(parsed, &name, name.count, &length) == 1 {
                    let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    matches = group == "prime256v1" || group == "P-256"
                }
            }
        case .ed25519: matches = baseID == EVP_PKEY_ED25519
        case .hmacSHA256: matches = false
        }
        guard matches else {
            EVP_PKEY_free(parsed)
            ERR_clear_error()
            throw PublicKeyError(code: "algorithm_mismatch",
                                 message: "publicKey is not a \(algorithm == .es256 ? "P-256" : "Ed25519") key")
        }
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_PUBKEY(parsed, &out)
        guard length > 0, let out else {
            EVP_PKEY_free(parsed)
            ERR_clear_error()
            throw PublicKeyError(code: "invalid_public_key", message: "publicKey could not be re-encoded")
        }
        spkiDER = Array(UnsafeBufferPointer(start: out, count: Int(length)))
        CRYPTO_free(out, #fileID, #line)
        self.algorithm = algorithm
        self.key = parsed
    }

    deinit { EVP_PKEY_free(key) }

    /// True when `signature` is this key's valid signature of `message` (ES256 hashes with SHA-256; Ed25519 signs the
    /// message itself). Malformed signatures are simply invalid; nothing throws.
    public func verify(signature: [UInt8], message: [UInt8]) -> Bool {
        defer { ERR_clear_error() }
        var signatureDER = signature
        if algorithm == .es256 {
            guard let der = Self.ecdsaDER(signature) else { return false }
            signatureDER = der
        } else if signature.count != 64 {
            return false
        }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        let digest = algorithm == .es256 ? EVP_sha256() : nil
        guard EVP_DigestVerifyInit(context, nil, digest, nil, key) == 1 else { return false }
        let result = signatureDER.withUnsafeBufferPointer { s in
            message.withUnsafeBufferPointer { m in
                // An empty Swift array may have a nil base address; libcrypto wants a pointer even for 0 bytes.
                var empty: UInt8 = 0
                return EVP_DigestVerify(context, s.baseAddress, s.count, m.baseAddress ?? withUnsafePointer(to: &empty) { $0 }, m.count)
            }
        }
        return result == 1
    }

    /// A strict-DER ECDSA signature as given, or a raw 64-byte r||s converted to DER; nil for anything else.
    static func ecdsaDER(_ signature: [UInt8]) -> [UInt8]? {
        guard !signature.isEmpty, signature.count <= 80 else { return nil }
        // Strict DER: parsing consumes every byte and re-encoding gives the same bytes.
        let strict: [UInt8]? = signature.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            guard let parsed = d2i_ECDSA_SIG(nil, &cursor, buffer.count) else { return nil }
            defer { ECDSA_SIG_free(parsed) }
            guard let cursor, cursor - buffer.baseAddress! == buffer.count else { return nil }
            return encode(parsed).flatMap { $0 == signature ? $0 : nil }
        }
        if let strict { return strict }
        ERR_clear_error()
        guard signature.count == 64, let ecdsa = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(ecdsa) }
        let r = signature[0..<32].withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = signature[32..<64].withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        guard let r, let s else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        guard ECDSA_SIG_set0(ecdsa, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        return encode(ecdsa)
    }

    private static func encode(_ signature: OpaquePointer) -> [UInt8]? {
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_ECDSA_SIG(signature, &out)
        guard length > 0, let out else { return nil }
        defer { CRYPTO_free(out, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// The base64 body of a single `PUBLIC KEY` PEM block.
    static func pemBody(_ bytes: [UInt8]) -> [UInt8]? {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.first == "-----BEGIN PUBLIC KEY-----", lines.last == "-----END PUBLIC KEY-----", lines.count >= 3
        else { return nil }
        return SigningCrypto.decodeBase64(lines.dropFirst().dropLast().joined())
    }
}
