// Swift values for the signing-request messages of proto/signing.proto (create, read, document content, finish,
// evidence). C structs never leave this file.
import CKYCProto
import CProtobufC

/// One document the customer backend asks its user to sign.
public struct SigningDocumentUpload: Sendable, Equatable {
    public var name: String
    public var contentType: String
    public var content: [UInt8]

    public init(name: String, contentType: String, content: [UInt8]) {
        self.name = name
        self.contentType = contentType
        self.content = content
    }
}

/// `signing.CreateRequest`.
public struct CreateSigningRequest: WireMessage, Equatable {
    /// Empty: the service makes one.
    public var reference: String
    public var sessionID: String
    public var documents: [SigningDocumentUpload]
    public var callbackURL: String
    /// 0: the service default.
    public var ttlSeconds: Int64

    public init(reference: String = "", sessionID: String, documents: [SigningDocumentUpload], callbackURL: String = "",
                ttlSeconds: Int64 = 0) {
        self.reference = reference
        self.sessionID = sessionID
        self.documents = documents
        self.callbackURL = callbackURL
        self.ttlSeconds = ttlSeconds
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__CreateSigningRequest.self)
        kyc__v1__create_signing_request__init(message)
        message.pointee.reference = arena.string(reference)
        message.pointee.session_id = arena.string(sessionID)
        let array = arena.pointerArray(of: Kyc__V1__SigningDocumentUpload.self, count: documents.count)
        for (index, document) in documents.enumerated() {
            let item = arena.allocate(Kyc__V1__SigningDocumentUpload.self)
            kyc__v1__signing_document_upload__init(item)
            item.pointee.name = arena.string(document.name)
            item.pointee.content_type = arena.string(document.contentType)
            item.pointee.content = arena.bytes(document.content)
            array![index] = item
        }
        message.pointee.n_documents = documents.count
        message.pointee.documents = array
        message.pointee.callback_url = arena.string(callbackURL)
        message.pointee.ttl_seconds = ttlSeconds
        return pack(message, size: { kyc__v1__create_signing_request__get_packed_size($0) },
                    pack: { kyc__v1__create_signing_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "CreateSigningRequest",
                          unpack: { kyc__v1__create_signing_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__create_signing_request__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            return CreateSigningRequest(
                reference: CRead.string(c.reference), sessionID: CRead.string(c.session_id),
                documents: CRead.messages(c.n_documents, c.documents) { item in
                    SigningDocumentUpload(name: CRead.string(item.pointee.name),
                                          contentType: CRead.string(item.pointee.content_type),
                                          content: CRead.bytes(item.pointee.content))
                },
                callbackURL: CRead.string(c.callback_url), ttlSeconds: c.ttl_seconds)
        }
    }
}

/// `signing.GetRequest`.
public struct GetSigningRequest: WireMessage, Equatable {
    public var reference: String

    public init(reference: String) { self.reference = reference }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__GetSigningRequest.self)
        kyc__v1__get_signing_request__init(message)
        message.pointee.reference = arena.string(reference)
        return pack(message, size: { kyc__v1__get_signing_request__get_packed_size($0) },
                    pack: { kyc__v1__get_signing_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "GetSigningRequest",
                          unpack: { kyc__v1__get_signing_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__get_signing_request__free_unpacked($0, nil) }) { message in
            GetSigningRequest(reference: CRead.string(message.pointee.reference))
        }
    }
}

/// `signing.Finish`.
public struct FinishSigningRequest: WireMessage, Equatable {
    public var reference: String

    public init(reference: String) { self.reference = reference }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__FinishSigningRequest.self)
        kyc__v1__finish_signing_request__init(message)
        message.pointee.reference = arena.string(reference)
        return pack(message, size: { kyc__v1__finish_signing_request__get_packed_size($0) },
                    pack: { kyc__v1__finish_signing_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "FinishSigningRequest",
                          unpack: { kyc__v1__finish_signing_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__finish_signing_request__free_unpacked($0, nil) }) { message in
            FinishSigningRequest(reference: CRead.string(message.pointee.reference))
        }
    }
}

/// `signing.GetEvidence`.
public struct GetSigningEvidenceRequest: WireMessage, Equatable {
    public var reference: String

    public init(reference: String) { self.reference = reference }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__GetSigningEvidenceRequest.self)
        kyc__v1__get_signing_evidence_request__init(message)
        message.pointee.reference = arena.string(reference)
        return pack(message, size: { kyc__v1__get_signing_evidence_request__get_packed_size($0) },
                    pack: { kyc__v1__get_signing_evidence_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "GetSigningEvidenceRequest",
                          unpack: { kyc__v1__get_signing_evidence_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__get_signing_evidence_request__free_unpacked($0, nil) }) { message in
            GetSigningEvidenceRequest(reference: CRead.string(message.pointee.reference))
        }
    }
}

/// The person who signs: the identity the customer backend declared for the mobile session.
public struct SigningSigner: Sendable, Equatable {
    public var identityType: String
    public var identityNo: String
    public var name: String
    public var surname: String
    public var sessionID: String

    public init(identityType: String, identityNo: String, name: String, surname: String, sessionID: String) {
        self.identityType = identityType
        self.identityNo = identityNo
        self.name = name
        self.surname = surname
        self.sessionID = sessionID
    }
}

/// A document of a signing request, without its content.
public struct SigningDocumentSummary: Sendable, Equatable {
    public var documentID: String
    public var name: String
    public var contentType: String
    /// Lowercase hex SHA-256 of the document bytes.
    public var sha256: String
    public var sizeBytes: Int64
    /// 0 while unsigned.
    public var signedAtMs: Int64
    /// Empty while unsigned.
    public var keyID: String

    public init(documentID: String, name: String, contentType: String, sha256: String, sizeBytes: Int64,
                signedAtMs: Int64 = 0, keyID: String = "") {
        self.documentID = documentID
        self.name = name
        self.contentType = contentType
        self.sha256 = sha256
        self.sizeBytes = sizeBytes
        self.signedAtMs = signedAtMs
        self.keyID = keyID
    }
}

/// The state of a signing request (`signing.CreateRequest` and `signing.GetRequest`).
public struct SigningRequestReply: WireMessage, Equatable {
    public var reference: String
    /// "pending", "sealed" or "expired".
    public var status: String
    public var sessionID: String
    public var createdAtMs: Int64
    public var expiresAtMs: Int64
    /// 0 until sealed.
    public var sealedAtMs: Int64
    public var documents: [SigningDocumentSummary]
    public var callbackURL: String
    /// CreateRequest only: false when an identical request already existed.
    public var created: Bool
    /// Nil until the first signature.
    public var signer: SigningSigner?

    public init(reference: String, status: String, sessionID: String, createdAtMs: Int64, expiresAtMs: Int64,
                sealedAtMs: Int64 = 0, documents: [SigningDocumentSummary], callbackURL: String = "",
                created: Bool = false, signer: SigningSigner? = nil) {
        self.reference = reference
        self.status = status
        self.sessionID = sessionID
        self.createdAtMs = createdAtMs
        self.expiresAtMs = expiresAtMs
        self.sealedAtMs = sealedAtMs
        self.documents = documents
        self.callbackURL = callbackURL
        self.created = created
        self.signer = signer
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__SigningRequestReply.self)
        kyc__v1__signing_request_reply__init(message)
        message.pointee.reference = arena.string(reference)
        message.pointee.status = arena.string(status)
        message.pointee.session_id = arena.string(sessionID)
        message.pointee.created_at_ms = createdAtMs
        message.pointee.expires_at_ms = expiresAtMs
        message.pointee.sealed_at_ms = sealedAtMs
        let array = arena.pointerArray(of: Kyc__V1__SigningDocumentSummary.self, count: documents.count)
        for (index, document) in documents.enumerated() {
            let item = arena.allocate(Kyc__V1__SigningDocumentSummary.self)
            kyc__v1__signing_document_summary__init(item)
            item.pointee.document_id = arena.string(document.documentID)
            item.pointee.name = arena.string(document.name)
            item.pointee.content_type = arena.string(document.contentType)
            item.pointee.sha256 = arena.string(document.sha256)
            item.pointee.size_bytes = document.sizeBytes
            item.pointee.signed_at_ms = document.signedAtMs
            item.pointee.key_id = arena.string(document.keyID)
            array![index] = item
        }
        message.pointee.n_documents = documents.count
        message.pointee.documents = array
        message.pointee.callback_url = arena.string(callbackURL)
        message.pointee.created = created ? 1 : 0
        if let signer {
            let item = arena.allocate(Kyc__V1__SigningSigner.self)
            kyc__v1__signing_signer__init(item)
            item.pointee.identity_type = arena.string(signer.identityType)
            item.pointee.identity_no = arena.string(signer.identityNo)
            item.pointee.name = arena.string(signer.name)
            item.pointee.surname = arena.string(signer.surname)
            item.pointee.session_id = arena.string(signer.sessionID)
            message.pointee.signer = item
        }
        return pack(message, size: { kyc__v1__signing_request_reply__get_packed_size($0) },
                    pack: { kyc__v1__signing_request_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "SigningRequestReply",
                          unpack: { kyc__v1__signing_request_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__signing_request_reply__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            let signer = c.signer.map { s in
                SigningSigner(identityType: CRead.string(s.pointee.identity_type),
                              identityNo: CRead.string(s.pointee.identity_no), name: CRead.string(s.pointee.name),
                              surname: CRead.string(s.pointee.surname), sessionID: CRead.string(s.pointee.session_id))
            }
            return SigningRequestReply(
                reference: CRead.string(c.reference), status: CRead.string(c.status),
                sessionID: CRead.string(c.session_id), createdAtMs: c.created_at_ms, expiresAtMs: c.expires_at_ms,
                sealedAtMs: c.sealed_at_ms,
                documents: CRead.messages(c.n_documents, c.documents) { d in
                    SigningDocumentSummary(documentID: CRead.string(d.pointee.document_id),
                                           name: CRead.string(d.pointee.name),
                                           contentType: CRead.string(d.pointee.content_type),
                                           sha256: CRead.string(d.pointee.sha256), sizeBytes: d.pointee.size_bytes,
                                           signedAtMs: d.pointee.signed_at_ms, keyID: CRead.string(d.pointee.key_id))
                },
                callbackURL: CRead.string(c.callback_url), created: c.created != 0, signer: signer)
        }
    }
}

/// `signing.GetDocumentContent`.
public struct GetSigningDocumentContentRequest: WireMessage, Equatable {
    public var reference: String
    public var documentID: String

    public init(reference: String, documentID: String) {
        self.reference = reference
        self.documentID = documentID
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__GetSigningDocumentContentRequest.self)
        kyc__v1__get_signing_document_content_request__init(message)
        message.pointee.reference = arena.string(reference)
        message.pointee.document_id = arena.string(documentID)
        return pack(message, size: { kyc__v1__get_signing_document_content_request__get_packed_size($0) },
                    pack: { kyc__v1__get_signing_document_content_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "GetSigningDocumentContentRequest",
                          unpack: { kyc__v1__get_signing_document_content_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__get_signing_document_content_request__free_unpacked($0, nil) }) { m in
            GetSigningDocumentContentRequest(reference: CRead.string(m.pointee.reference),
                                             documentID: CRead.string(m.pointee.document_id))
        }
    }
}

/// A document's bytes, as the customer backend uploaded them.
public struct SigningDocumentContentReply: WireMessage, Equatable {
    public var documentID: String
    public var name: String
    public var contentType: String
    public var sha256: String
    public var content: [UInt8]

    public init(documentID: String, name: String, contentType: String, sha256: String, content: [UInt8]) {
        self.documentID = documentID
        self.name = name
        self.contentType = contentType
        self.sha256 = sha256
        self.content = content
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__SigningDocumentContentReply.self)
        kyc__v1__signing_document_content_reply__init(message)
        message.pointee.document_id = arena.string(documentID)
        message.pointee.name = arena.string(name)
        message.pointee.content_type = arena.string(contentType)
        message.pointee.sha256 = arena.string(sha256)
        message.pointee.content = arena.bytes(content)
        return pack(message, size: { kyc__v1__signing_document_content_reply__get_packed_size($0) },
                    pack: { kyc__v1__signing_document_content_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "SigningDocumentContentReply",
                          unpack: { kyc__v1__signing_document_content_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__signing_document_content_reply__free_unpacked($0, nil) }) { m in
            let c = m.pointee
            return SigningDocumentContentReply(documentID: CRead.string(c.document_id), name: CRead.string(c.name),
                                               contentType: CRead.string(c.content_type),
                                               sha256: CRead.string(c.sha256), content: CRead.bytes(c.content))
        }
    }
}

/// `signing.Finish`'s answer: sealed, or the documents still unsigned.
public struct FinishSigningReply: WireMessage, Equatable {
    public var reference: String
    public var sealed: Bool
    public var unsignedDocumentIDs: [String]
    public var sealedAtMs: Int64
    public var alreadySealed: Bool

    public init(reference: String, sealed: Bool, unsignedDocumentIDs: [String] = [], sealedAtMs: Int64 = 0,
                alreadySealed: Bool = false) {
        self.reference = reference
        self.sealed = sealed
        self.unsignedDocumentIDs = unsignedDocumentIDs
        self.sealedAtMs = sealedAtMs
        self.alreadySealed = alreadySealed
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__FinishSigningReply.self)
        kyc__v1__finish_signing_reply__init(message)
        message.pointee.reference = arena.string(reference)
        message.pointee.sealed = sealed ? 1 : 0
        message.pointee.n_unsigned_document_ids = unsignedDocumentIDs.count
        message.pointee.unsigned_document_ids = arena.stringArray(unsignedDocumentIDs)
        message.pointee.sealed_at_ms = sealedAtMs
        message.pointee.already_sealed = alreadySealed ? 1 : 0
        return pack(message, size: { kyc__v1__finish_signing_reply__get_packed_size($0) },
                    pack: { kyc__v1__finish_signing_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "FinishSigningReply",
                          unpack: { kyc__v1__finish_signing_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__finish_signing_reply__free_unpacked($0, nil) }) { m in
            let c = m.pointee
            return FinishSigningReply(reference: CRead.string(c.reference), sealed: c.sealed != 0,
                                      unsignedDocumentIDs: CRead.strings(c.n_unsigned_document_ids,
                                                                         c.unsigned_document_ids),
                                      sealedAtMs: c.sealed_at_ms, alreadySealed: c.already_sealed != 0)
        }
    }
}

/// The sealed evidence bundle, exactly as sealed.
public struct SigningEvidenceReply: WireMessage, Equatable {
    public var bundleJSON: [UInt8]

    public init(bundleJSON: [UInt8]) { self.bundleJSON = bundleJSON }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__SigningEvidenceReply.self)
        kyc__v1__signing_evidence_reply__init(message)
        message.pointee.bundle_json = arena.bytes(bundleJSON)
        return pack(message, size: { kyc__v1__signing_evidence_reply__get_packed_size($0) },
                    pack: { kyc__v1__signing_evidence_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "SigningEvidenceReply",
                          unpack: { kyc__v1__signing_evidence_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__signing_evidence_reply__free_unpacked($0, nil) }) { m in
            SigningEvidenceReply(bundleJSON: CRead.bytes(m.pointee.bundle_json))
        }
    }
}
