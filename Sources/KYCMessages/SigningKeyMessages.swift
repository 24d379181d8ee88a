// Swift values for the key and signature messages of proto/signing.proto (device keys, platform-issued keys,
// signatures, the platform's seal key). C structs never leave this file.
import CKYCProto
import CProtobufC

/// `signing.EnrolKey`: a device's public key.
public struct EnrolSigningKeyRequest: WireMessage, Equatable {
    /// "ES256" or "Ed25519".
    public var algorithm: String
    /// SPKI DER, PEM text, or the raw key.
    public var publicKey: [UInt8]

    public init(algorithm: String, publicKey: [UInt8]) {
        self.algorithm = algorithm
        self.publicKey = publicKey
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__EnrolSigningKeyRequest.self)
        kyc__v1__enrol_signing_key_request__init(message)
        message.pointee.algorithm = arena.string(algorithm)
        message.pointee.public_key = arena.bytes(publicKey)
        return pack(message, size: { kyc__v1__enrol_signing_key_request__get_packed_size($0) },
                    pack: { kyc__v1__enrol_signing_key_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "EnrolSigningKeyRequest",
                          unpack: { kyc__v1__enrol_signing_key_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__enrol_signing_key_request__free_unpacked($0, nil) }) { m in
            EnrolSigningKeyRequest(algorithm: CRead.string(m.pointee.algorithm),
                                   publicKey: CRead.bytes(m.pointee.public_key))
        }
    }
}

public struct EnrolSigningKeyReply: WireMessage, Equatable {
    public var keyID: String
    public var algorithm: String
    /// Lowercase hex SHA-256 of `publicKey`.
    public var fingerprint: String
    /// False when the same key was enrolled before (the earlier id is answered).
    public var created: Bool
    /// SPKI DER as stored.
    public var publicKey: [UInt8]

    public init(keyID: String, algorithm: String, fingerprint: String, created: Bool, publicKey: [UInt8]) {
        self.keyID = keyID
        self.algorithm = algorithm
        self.fingerprint = fingerprint
        self.created = created
        self.publicKey = publicKey
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__EnrolSigningKeyReply.self)
        kyc__v1__enrol_signing_key_reply__init(message)
        message.pointee.key_id = arena.string(keyID)
        message.pointee.algorithm = arena.string(algorithm)
        message.pointee.fingerprint = arena.string(fingerprint)
        message.pointee.created = created ? 1 : 0
        message.pointee.public_key = arena.bytes(publicKey)
        return pack(message, size: { kyc__v1__enrol_signing_key_reply__get_packed_size($0) },
                    pack: { kyc__v1__enrol_signing_key_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "EnrolSigningKeyReply",
                          unpack: { kyc__v1__enrol_signing_key_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__enrol_signing_key_reply__free_unpacked($0, nil) }) { m in
            let c = m.pointee
            return EnrolSigningKeyReply(keyID: CRead.string(c.key_id), algorithm: CRead.string(c.algorithm),
                                        fingerprint: CRead.string(c.fingerprint), created: c.created != 0,
                                        publicKey: CRead.bytes(c.public_key))
        }
    }
}

/// `signing.IssuePlatformKey`.
public struct IssuePlatformSigningKeyRequest: WireMessage, Equatable {
    public var reference: String

    public init(reference: String) { self.reference = reference }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__IssuePlatformSigningKeyRequest.self)
        kyc__v1__issue_platform_signing_key_request__init(message)
        message.pointee.reference = arena.string(reference)
        return pack(message, size: { kyc__v1__issue_platform_signing_key_request__get_packed_size($0) },
                    pack: { kyc__v1__issue_platform_signing_key_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "IssuePlatformSigningKeyRequest",
                          unpack: { kyc__v1__issue_platform_signing_key_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__issue_platform_signing_key_request__free_unpacked($0, nil) }) { m in
            IssuePlatformSigningKeyRequest(reference: CRead.string(m.pointee.reference))
        }
    }
}

/// A one-time HMAC secret for one signing request.
public struct IssuePlatformSigningKeyReply: WireMessage, Equatable {
    public var keyID: String
    /// "HMAC-SHA256".
    public var algorithm: String
    public var secret: [UInt8]
    public var expiresAtMs: Int64

    public init(keyID: String, algorithm: String, secret: [UInt8], expiresAtMs: Int64) {
        self.keyID = keyID
        self.algorithm = algorithm
        self.secret = secret
        self.expiresAtMs = expiresAtMs
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__IssuePlatformSigningKeyReply.self)
        kyc__v1__issue_platform_signing_key_reply__init(message)
        message.pointee.key_id = arena.string(keyID)
        message.pointee.algorithm = arena.string(algorithm)
        message.pointee.secret = arena.bytes(secret)
        message.pointee.expires_at_ms = expiresAtMs
        return pack(message, size: { kyc__v1__issue_platform_signing_key_reply__get_packed_size($0) },
                    pack: { kyc__v1__issue_platform_signing_key_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "IssuePlatformSigningKeyReply",
                          unpack: { kyc__v1__issue_platform_signing_key_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__issue_platform_signing_key_reply__free_unpacked($0, nil) }) { m in
            let c = m.pointee
            return IssuePlatformSigningKeyReply(keyID: CRead.string(c.key_id), algorithm: CRead.string(c.algorithm),
                                                secret: CRead.bytes(c.secret), expiresAtMs: c.expires_at_ms)
        }
    }
}

/// `signing.Sign`: a device's signature over one document's canonical message.
public struct SignDocumentRequest: WireMessage, Equatable {
    public var reference: String
    public var documentID: String
    public var keyID: String
    public var signature: [UInt8]
    /// The document bytes the device showed, when it sent them.
    public var data: [UInt8]?

    public init(reference: String, documentID: String, keyID: String, signature: [UInt8], data: [UInt8]? = nil) {
        self.reference = reference
        self.documentID = documentID
        self.keyID = keyID
        self.signature = signature
        self.data = data
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__SignDocumentRequest.self)
        kyc__v1__sign_document_request__init(message)
        message.pointee.reference = arena.string(reference)
        message.pointee.document_id = arena.string(documentID)
        message.pointee.key_id = arena.string(keyID)
        message.pointee.signature = arena.bytes(signature)
        message.pointee.data = arena.bytes(data ?? [])
        message.pointee.has_data = data == nil ? 0 : 1
        return pack(message, size: { kyc__v1__sign_document_request__get_packed_size($0) },
                    pack: { kyc__v1__sign_document_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "SignDocumentRequest",
                          unpack: { kyc__v1__sign_document_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__sign_document_request__free_unpacked($0, nil) }) { m in
            let c = m.pointee
            return SignDocumentRequest(reference: CRead.string(c.reference), documentID: CRead.string(c.document_id),
                                       keyID: CRead.string(c.key_id), signature: CRead.bytes(c.signature),
                                       data: c.has_data != 0 ? CRead.bytes(c.data) : nil)
        }
    }
}

public struct SignDocumentReply: WireMessage, Equatable {
    public var reference: String
    public var documentID: String
    public var keyID: String
    public var signedAtMs: Int64
    /// True when this exact signature had been accepted before.
    public var replayed: Bool
    /// The request's documents still unsigned afterwards.
    public var unsignedDocumentIDs: [String]

    public init(reference: String, documentID: String, keyID: String, signedAtMs: Int64, replayed: Bool,
                unsignedDocumentIDs: [String]) {
        self.reference = reference
        self.documentID = documentID
        self.keyID = keyID
        self.signedAtMs = signedAtMs
        self.replayed = replayed
        self.unsignedDocumentIDs = unsignedDocumentIDs
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__SignDocumentReply.self)
        kyc__v1__sign_document_reply__init(message)
        message.pointee.reference = arena.string(reference)
        message.pointee.document_id = arena.string(documentID)
        message.pointee.key_id = arena.string(keyID)
        message.pointee.signed_at_ms = signedAtMs
        message.pointee.replayed = replayed ? 1 : 0
        message.pointee.n_unsigned_document_ids = unsignedDocumentIDs.count
        message.pointee.unsigned_document_ids = arena.stringArray(unsignedDocumentIDs)
        return pack(message, size: { kyc__v1__sign_document_reply__get_packed_size($0) },
                    pack: { kyc__v1__sign_document_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "SignDocumentReply",
                          unpack: { kyc__v1__sign_document_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__sign_document_reply__free_unpacked($0, nil) }) { m in
            let c = m.pointee
            return SignDocumentReply(reference: CRead.string(c.reference), documentID: CRead.string(c.document_id),
                                     keyID: CRead.string(c.key_id), signedAtMs: c.signed_at_ms,
                                     replayed: c.replayed != 0,
                                     unsignedDocumentIDs: CRead.strings(c.n_unsigned_document_ids,
                                                                        c.unsigned_document_ids))
        }
    }
}

/// `signing.GetPlatformKey` (no fields).
public struct GetPlatformSigningKeyRequest: WireMessage, Equatable {
    public init() {}

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__GetPlatformSigningKeyRequest.self)
        kyc__v1__get_platform_signing_key_request__init(message)
        return pack(message, size: { kyc__v1__get_platform_signing_key_request__get_packed_size($0) },
                    pack: { kyc__v1__get_platform_signing_key_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "GetPlatformSigningKeyRequest",
                          unpack: { kyc__v1__get_platform_signing_key_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__get_platform_signing_key_request__free_unpacked($0, nil) }) { _ in
            GetPlatformSigningKeyRequest()
        }
    }
}

/// The platform's Ed25519 seal key.
public struct PlatformSigningKeyReply: WireMessage, Equatable {
    public var algorithm: String
    /// SPKI DER.
    public var publicKey: [UInt8]
    public var fingerprint: String

    public init(algorithm: String, publicKey: [UInt8], fingerprint: String) {
        self.algorithm = algorithm
        self.publicKey = publicKey
        self.fingerprint = fingerprint
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__PlatformSigningKeyReply.self)
        kyc__v1__platform_signing_key_reply__init(message)
        message.pointee.algorithm = arena.string(algorithm)
        message.pointee.public_key = arena.bytes(publicKey)
        message.pointee.fingerprint = arena.string(fingerprint)
        return pack(message, size: { kyc__v1__platform_signing_key_reply__get_packed_size($0) },
                    pack: { kyc__v1__platform_signing_key_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "PlatformSigningKeyReply",
                          unpack: { kyc__v1__platform_signing_key_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__platform_signing_key_reply__free_unpacked($0, nil) }) { m in
            let c = m.pointee
            return PlatformSigningKeyReply(algorithm: CRead.string(c.algorithm), publicKey: CRead.bytes(c.public_key),
                                           fingerprint: CRead.string(c.fingerprint))
        }
    }
}
