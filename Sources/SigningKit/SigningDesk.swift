import KYCCrypto
import Foundation
import KYCCore
import KYCMessages
import Messaging
import Storage
import Webhooks

/// Signing requests, keys, signatures and sealing for every tenant, over `signing.sqlite`. Each operation runs in
/// one IMMEDIATE transaction, so a failure leaves nothing half-written, and every state change appends its evidence
/// log entry (and, when sealing, its `signing.completed` webhook event) in that same transaction.
///
/// Every operation reads and writes only `envelope.tenant`. A session principal (the device) may only touch requests
/// whose session id is its own; anything else answers "not found", exactly like a missing request.
public final class SigningDesk: Sendable {
    let database: Database
    let limits: SigningLimits
    let sealKey: PlatformSealKey
    let now: @Sendable () -> Int64
    let logger: Logger

    public init(database: Database, limits: SigningLimits = SigningLimits(), logger: Logger,
                now: @escaping @Sendable () -> Int64 = { WallClock.nowMilliseconds() }) throws {
        try database.migrate(SigningSchema.migrations)
        self.database = database
        self.limits = limits
        self.logger = logger
        self.now = now
        self.sealKey = try PlatformSealKey.loadOrCreate(database, now: now())
    }

    /// The platform's seal key (public half).
    public var platformKey: PlatformSigningKeyReply {
        PlatformSigningKeyReply(algorithm: "Ed25519", publicKey: sealKey.spkiDER, fingerprint: sealKey.fingerprint)
    }

    // MARK: Requests

    static func isValidReference(_ reference: String) -> Bool {
        (1...100).contains(reference.utf8.count) && reference.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: ":")
        }
    }

    static func isValidContentType(_ value: String) -> Bool {
        let parts = value.split(separator: "/", omittingEmptySubsequences: false)
        let token: (Substring) -> Bool = { part in
            !part.isEmpty && part.utf8.allSatisfy { b in
                (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b)
                    || "!#$&-^_.+".utf8.contains(b)
            }
        }
        return value.utf8.count <= 100 && parts.count == 2 && token(parts[0]) && token(parts[1])
    }

    public func createRequest(_ request: CreateSigningRequest, envelope: RequestEnvelope) throws -> SigningRequestReply {
        let tenant = envelope.tenant
        guard envelope.principal.kind != .session else {
            throw ServiceError(status: .permissionDenied, code: "api_key_required",
                               message: "signing requests are created by the customer backend")
        }
        var violations: [FieldViolation] = []
        let reference = request.reference.isEmpty ? SecureRandom.identifier(prefix: "sig_") : request.reference
        if !Self.isValidReference(reference) {
            violations.append(FieldViolation(field: "reference", code: "invalid_reference",
                                             message: "reference must be 1-100 of A-Z a-z 0-9 - _ . :"))
        }
        if !request.sessionID.hasPrefix("ses_") || request.sessionID.utf8.count > 64 {
            violations.append(FieldViolation(field: "sessionId", code: "invalid_session",
                                             message: "sessionId must be the id of a mobile session (ses_…)"))
        }
        if request.documents.isEmpty {
            violations.append(FieldViolation(field: "documents", code: "required", message: "at least one document"))
        } else if request.documents.count > limits.maxDocuments {
            violations.append(FieldViolation(field: "documents", code: "too_many",
                                             message: "at most \(limits.maxDocuments) documents"))
        }
        for (index, document) in request.documents.enumerated() {
            let path = "documents[\(index)]"
            if document.name.isEmpty || document.name.count > 200 || document.name.contains(where: \.isNewline) {
                violations.append(FieldViolation(field: "\(path).name", code: "invalid_name",
                                                 message: "name must be 1-200 characters on one line"))
            }
            if !Self.isValidContentType(document.contentType) {
                violations.append(FieldViolation(field: "\(path).contentType", code: "invalid_content_type",
                                                 message: "contentType must be a MIME type such as application/pdf"))
            }
            if document.content.isEmpty {
                violations.append(FieldViolation(field: "\(path).content", code: "empty", message: "content is empty"))
            }
        }
        if !request.callbackURL.isEmpty {
            let url = URL(string: request.callbackURL)
            if request.callbackURL.utf8.count > 2000 || !(url?.scheme == "https" || url?.scheme == "http")
                || url?.host == nil {
                violations.append(FieldViolation(field: "callbackUrl", code: "invalid_url",
                                                 message: "callbackUrl must be an absolute http(s) URL"))
            }
        }
        let ttl = request.ttlSeconds == 0 ? limits.defaultTTLSeconds : request.ttlSeconds
        if !(60...limits.maxTTLSeconds).contains(ttl) {
            violations.append(FieldViolation(field: "ttlSeconds", code: "out_of_range",
                                             message: "ttlSeconds must be between 60 and \(limits.maxTTLSeconds)"))
        }
        if !violations.isEmpty {
            throw violations.count == 1
                ? ServiceError.invalidArgument(field: violations[0].field, code: violations[0].code,
                                               message: violations[0].message)
                : ServiceError(status: .invalidArgument, code: "invalid_fields", message: "several fields are invalid",
                               violations: violations)
        }
        if let large = request.documents.firstIndex(where: { $0.content.count > limits.maxDocumentBytes }) {
            throw ServiceError(status: .resourceExhausted, code: "payload_too_large",
                               message: "documents[\(large)] is larger than \(limits.maxDocumentBytes) bytes",
                               violations: [FieldViolation(field: "documents[\(large)].content",
                                                           code: "payload_too_large", message: "document too large")])
        }
        guard request.documents.reduce(0, { $0 + $1.content.count }) <= limits.maxRequestBytes else {
            throw ServiceError(status: .resourceExhausted, code: "payload_too_large",
                               message: "the documents together are larger than \(limits.maxRequestBytes) bytes")
        }
        let hashes = request.documents.map { SHA256.hex($0.content) }
        let time = now()
        return try database.transaction { tx in
            // A broker retry of the same request answers the first result.
            if !envelope.requestID.isEmpty,
               let row = try tx.queryOne("SELECT reference FROM signing_requests WHERE tenant = ? AND request_id = ?",
                                         [.text(tenant), .text(envelope.requestID)]) {
                return try self.reply(tx, tenant: tenant, reference: try row.string("reference"), created: true)
            }
            if let existing = try tx.queryOne(
                "SELECT session_id FROM signing_requests WHERE tenant = ? AND reference = ?",
                [.text(tenant), .text(reference)]) {
                let storedHashes = try tx.query(
                    "SELECT sha256 FROM signing_documents WHERE tenant = ? AND reference = ? ORDER BY position",
                    [.text(tenant), .text(reference)]).map { try $0.string("sha256") }
                guard try existing.string("session_id") == request.sessionID, storedHashes == hashes else {
                    throw ServiceError.conflict(code: "reference_in_use",
                                                message: "this reference is used by a signing request with other "
                                                    + "documents or another session", resourceExists: true)
                }
                return try self.reply(tx, tenant: tenant, reference: reference, created: false)
            }
            try tx.execute("""
                INSERT INTO signing_requests (tenant, reference, session_id, callback_url, request_id, created_at_ms,
                                              expires_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [.text(tenant), .text(reference), .text(request.sessionID), .text(request.callbackURL),
                      .text(envelope.requestID), .integer(time), .integer(time + ttl * 1000)])
            var logged: [CanonicalJSON] = []
            for (index, document) in request.documents.enumerated() {
                let documentID = SecureRandom.identifier(prefix: "doc_")
                try tx.execute("""
                    INSERT INTO signing_documents (tenant, reference, document_id, position, name, content_type, sha256,
                                                   size_bytes, content) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.text(tenant), .text(reference), .text(documentID), .integer(Int64(index)),
                          .text(document.name), .text(document.contentType), .text(hashes[index]),
                          .integer(Int64(document.content.count)), .blob(document.content)])
                logged.append(.object(["documentId": .string(documentID), "sha256": .string(hashes[index]),
                                       "sizeBytes": .integer(Int64(document.content.count))]))
            }
            try EvidenceLog.append(tx, tenant: tenant, event: "request.created", reference: reference,
                                   details: .object(["sessionId": .string(request.sessionID),
                                                     "expiresAtMs": .integer(time + ttl * 1000),
                                                     "documents": .array(logged)]), now: time)
            return try self.reply(tx, tenant: tenant, reference: reference, created: true)
        }
    }

    public func getRequest(_ reference: String, envelope: RequestEnvelope) throws -> SigningRequestReply {
        try database.transaction(.deferred) { tx in
            _ = try self.loadRequest(tx, envelope: envelope, reference: reference)
            return try self.reply(tx, tenant: envelope.tenant, reference: reference, created: false)
        }
    }

    public func documentContent(_ request: GetSigningDocumentContentRequest,
                                envelope: RequestEnvelope) throws -> SigningDocumentContentReply {
        try database.transaction(.deferred) { tx in
            _ = try self.loadRequest(tx, envelope: envelope, reference: request.reference)
            guard let row = try tx.queryOne("""
                SELECT * FROM signing_documents WHERE tenant = ? AND reference = ? AND document_id = ?
                """, [.text(envelope.tenant), .text(request.reference), .text(request.documentID)]) else {
                throw ServiceError(status: .notFound, code: "document_not_found",
                                   message: "this signing request has no such document")
            }
            return SigningDocumentContentReply(documentID: request.documentID, name: try row.string("name"),
                                               contentType: try row.string("content_type"),
                                               sha256: try row.string("sha256"), content: try row.blob("content"))
        }
    }

    // MARK: Keys

    public func enrolKey(_ request: EnrolSigningKeyRequest, envelope: RequestEnvelope) throws -> EnrolSigningKeyReply {
        let principal = try requireSession(envelope)
        guard let algorithm = SigningAlgorithm(name: request.algorithm),
              SigningAlgorithm.deviceAlgorithms.contains(algorithm) else {
            throw ServiceError.invalidArgument(field: "algorithm", code: "unknown_algorithm",
                                               message: "algorithm must be ES256 (ECDSA P-256) or Ed25519")
        }
        let key: DevicePublicKey
        do {
            key = try DevicePublicKey(algorithm: algorithm, bytes: request.publicKey)
        } catch {
            throw ServiceError.invalidArgument(field: "publicKey", code: error.code, message: error.message)
        }
        let tenant = envelope.tenant
        let identity = principal.identity ?? Identity()
        let time = now()
        return try database.transaction { tx in
            // The same key enrolled again by the same session or the same person answers the first enrolment.
            for row in try tx.query("SELECT * FROM signing_keys WHERE tenant = ? AND fingerprint = ? AND mode = 'device'",
                                    [.text(tenant), .text(key.fingerprint)]) {
                let sameSession = try row.string("session_id") == principal.id
                let storedNumber = try row.string("identity_no")
                let storedType = try row.string("identity_type")
                let samePerson = !identity.identityNo.isEmpty && storedNumber == identity.identityNo
                    && storedType == identity.identityType
                if sameSession || samePerson {
                    return EnrolSigningKeyReply(keyID: try row.string("key_id"), algorithm: try row.string("algorithm"),
                                                fingerprint: key.fingerprint, created: false, publicKey: key.spkiDER)
                }
            }
            let keyID = SecureRandom.identifier(prefix: "key_")
            try tx.execute("""
                INSERT INTO signing_keys (tenant, key_id, mode, algorithm, public_key, fingerprint, session_id,
                                          identity_type, identity_no, request_id, created_at_ms)
                VALUES (?, ?, 'device', ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(tenant), .text(keyID), .text(algorithm.rawValue), .blob(key.spkiDER),
                      .text(key.fingerprint), .text(principal.id), .text(identity.identityType),
                      .text(identity.identityNo), .text(envelope.requestID), .integer(time)])
            try EvidenceLog.append(tx, tenant: tenant, event: "key.enrolled", reference: "",
                                   details: .object(["keyId": .string(keyID), "algorithm": .string(algorithm.rawValue),
                                                     "fingerprint": .string(key.fingerprint),
                                                     "publicKey": .string(SigningCrypto.base64(key.spkiDER)),
                                                     "sessionId": .string(principal.id),
                                                     "identityType": .string(identity.identityType),
                                                     "identityNo": .string(identity.identityNo)]), now: time)
            return EnrolSigningKeyReply(keyID: keyID, algorithm: algorithm.rawValue, fingerprint: key.fingerprint,
                                        created: true, publicKey: key.spkiDER)
        }
    }

    public func issuePlatformKey(_ reference: String, envelope: RequestEnvelope) throws -> IssuePlatformSigningKeyReply {
        let principal = try requireSession(envelope)
        let tenant = envelope.tenant
        let time = now()
        return try database.transaction { tx in
            let request = try self.loadRequest(tx, envelope: envelope, reference: reference)
            if let row = try tx.queryOne(
                "SELECT * FROM signing_keys WHERE tenant = ? AND reference = ? AND mode = 'platform'",
                [.text(tenant), .text(reference)]) {
                // Only a retry of the very request that issued it may see the secret again (its reply was lost).
                guard !envelope.requestID.isEmpty, try row.string("request_id") == envelope.requestID else {
                    throw ServiceError.conflict(code: "key_already_issued",
                                                message: "a key was already issued for this request; it is shown once")
                }
                return IssuePlatformSigningKeyReply(keyID: try row.string("key_id"), algorithm: "HMAC-SHA256",
                                                    secret: try row.blob("secret"), expiresAtMs: request.expiresAtMs)
            }
            try self.requireOpen(request, at: time)
            let keyID = SecureRandom.identifier(prefix: "pk_")
            let secret = SecureRandom.bytes(SigningCrypto.hmacKeyBytes)
            let identity = principal.identity ?? Identity()
            try tx.execute("""
                INSERT INTO signing_keys (tenant, key_id, mode, algorithm, fingerprint, secret, reference, session_id,
                                          identity_type, identity_no, request_id, created_at_ms)
                VALUES (?, ?, 'platform', 'HMAC-SHA256', ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(tenant), .text(keyID), .text(SHA256.hex(secret)), .blob(secret),
                      .text(reference), .text(principal.id), .text(identity.identityType), .text(identity.identityNo),
                      .text(envelope.requestID), .integer(time)])
            try EvidenceLog.append(tx, tenant: tenant, event: "key.issued", reference: reference,
                                   details: .object(["keyId": .string(keyID), "algorithm": .string("HMAC-SHA256"),
                                                     "sessionId": .string(principal.id)]), now: time)
            return IssuePlatformSigningKeyReply(keyID: keyID, algorithm: "HMAC-SHA256", secret: secret,
                                                expiresAtMs: request.expiresAtMs)
        }
    }
}
