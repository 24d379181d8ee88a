import KYCCrypto
import Foundation
import KYCMessages
import Messaging
import Storage
import Webhooks

/// The stored header of a signing request.
struct StoredSigningRequest {
    let reference: String
    let sessionID: String
    let callbackURL: String
    let createdAtMs: Int64
    let expiresAtMs: Int64
    let sealedAtMs: Int64?
    let signer: SigningSigner?

    init(row: Row) throws {
        reference = try row.string("reference")
        sessionID = try row.string("session_id")
        callbackURL = try row.string("callback_url")
        createdAtMs = try row.int("created_at_ms")
        expiresAtMs = try row.int("expires_at_ms")
        sealedAtMs = try row.optionalInt("sealed_at_ms")
        signer = try row.optionalString("signer_identity_no").map { number in
            SigningSigner(identityType: try row.optionalString("signer_identity_type") ?? "", identityNo: number,
                          name: try row.optionalString("signer_name") ?? "",
                          surname: try row.optionalString("signer_surname") ?? "", sessionID: try row.string("session_id"))
        }
    }
}

extension SigningDesk {
    // MARK: Signing

    public func sign(_ request: SignDocumentRequest, envelope: RequestEnvelope) throws -> SignDocumentReply {
        let principal = try requireSession(envelope)
        let tenant = envelope.tenant
        let time = now()
        return try database.transaction { tx in
            let stored = try self.loadRequest(tx, envelope: envelope, reference: request.reference)
            guard let document = try tx.queryOne("""
                SELECT document_id, sha256 FROM signing_documents WHERE tenant = ? AND reference = ? AND document_id = ?
                """, [.text(tenant), .text(request.reference), .text(request.documentID)]) else {
                throw ServiceError(status: .notFound, code: "document_not_found",
                                   message: "this signing request has no such document",
                                   violations: [FieldViolation(field: "documentId", code: "document_not_found",
                                                               message: "no such document in this request")])
            }
            let sha256 = try document.string("sha256")
            // Replaying the exact signature already accepted is answered as the first time, even after sealing.
            if let existing = try tx.queryOne("SELECT * FROM signatures WHERE tenant = ? AND document_id = ?",
                                              [.text(tenant), .text(request.documentID)]) {
                if try existing.string("key_id") == request.keyID,
                   SigningCrypto.constantTimeEqual(try existing.blob("signature"), request.signature) {
                    return SignDocumentReply(reference: request.reference, documentID: request.documentID,
                                             keyID: request.keyID, signedAtMs: try existing.int("signed_at_ms"),
                                             replayed: true,
                                             unsignedDocumentIDs: try self.unsignedDocuments(tx, tenant: tenant,
                                                                                              reference: request.reference))
                }
                throw ServiceError.conflict(code: "already_signed",
                                            message: "this document was already signed with another signature")
            }
            try self.requireOpen(stored, at: time)
            guard let identity = principal.identity, !identity.identityNo.isEmpty else {
                throw ServiceError.conflict(code: "signer_identity_missing",
                                            message: "the session has no declared identity; open it with identity "
                                                + "to sign")
            }
            if let data = request.shownData, SHA256.hex(data) != sha256 {
                throw ServiceError.invalidArgument(field: "data", code: "document_mismatch",
                                                   message: "data is not the document of this request")
            }
            guard let key = try tx.queryOne("SELECT * FROM signing_keys WHERE tenant = ? AND key_id = ?",
                                            [.text(tenant), .text(request.keyID)]),
                  try self.mayUse(key, principal: principal, reference: request.reference) else {
                throw ServiceError(status: .notFound, code: "key_not_found",
                                   message: "no key with this id for this session",
                                   violations: [FieldViolation(field: "keyId", code: "key_not_found",
                                                               message: "unknown key")])
            }
            let message = CanonicalSigningMessage.bytes(tenant: tenant, reference: request.reference,
                                                        documentID: request.documentID, documentSHA256: sha256)
            let algorithmName = try key.string("algorithm")
            let valid: Bool
            if try key.string("mode") == "platform" {
                valid = SigningCrypto.verifyHMACSHA256(request.signature, key: try key.blob("secret"), message: message)
            } else {
                let algorithm = SigningAlgorithm(rawValue: algorithmName) ?? .es256
                let publicKey = try DevicePublicKey(algorithm: algorithm, bytes: try key.blob("public_key"))
                valid = publicKey.verify(signature: request.signature, message: message)
            }
            guard valid else {
                throw ServiceError.invalidArgument(field: "signature", code: "invalid_signature",
                                                   message: "the signature does not verify over the canonical message "
                                                       + "with this key (see docs/signing.md)")
            }
            if let signer = stored.signer, signer.identityNo != identity.identityNo
                || signer.identityType != identity.identityType {
                throw ServiceError.conflict(code: "signer_changed",
                                            message: "another person already signed documents of this request")
            }
            if stored.signer == nil {
                try tx.execute("""
                    UPDATE signing_requests SET signer_identity_type = ?, signer_identity_no = ?, signer_name = ?,
                                                signer_surname = ? WHERE tenant = ? AND reference = ?
                    """, [.text(identity.identityType), .text(identity.identityNo), .text(identity.name),
                          .text(identity.surname), .text(tenant), .text(request.reference)])
            }
            try tx.execute("""
                INSERT INTO signatures (tenant, reference, document_id, key_id, algorithm, signature, signed_at_ms,
                                        session_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(tenant), .text(request.reference), .text(request.documentID), .text(request.keyID),
                      .text(algorithmName), .blob(request.signature), .integer(time), .text(principal.id)])
            try EvidenceLog.append(tx, tenant: tenant, event: "document.signed", reference: request.reference,
                                   details: .object(["documentId": .string(request.documentID),
                                                     "sha256": .string(sha256), "keyId": .string(request.keyID),
                                                     "algorithm": .string(algorithmName),
                                                     "signatureSha256": .string(SHA256.hex(request.signature)),
                                                     "sessionId": .string(principal.id),
                                                     "identityType": .string(identity.identityType),
                                                     "identityNo": .string(identity.identityNo),
                                                     "dataVerified": .bool(request.shownData != nil)]), now: time)
            return SignDocumentReply(reference: request.reference, documentID: request.documentID, keyID: request.keyID,
                                     signedAtMs: time, replayed: false,
                                     unsignedDocumentIDs: try self.unsignedDocuments(tx, tenant: tenant,
                                                                                      reference: request.reference))
        }
    }

    // MARK: Finishing

    public func finish(_ reference: String, envelope: RequestEnvelope) throws -> FinishSigningReply {
        let tenant = envelope.tenant
        let time = now()
        return try database.transaction { tx in
            let stored = try self.loadRequest(tx, envelope: envelope, reference: reference)
            if let sealedAt = stored.sealedAtMs {
                return FinishSigningReply(reference: reference, sealed: true, sealedAtMs: sealedAt, alreadySealed: true)
            }
            try self.requireOpen(stored, at: time)
            let unsigned = try self.unsignedDocuments(tx, tenant: tenant, reference: reference)
            guard unsigned.isEmpty else {
                return FinishSigningReply(reference: reference, sealed: false, unsignedDocumentIDs: unsigned)
            }
            let sealEntry = try EvidenceLog.append(tx, tenant: tenant, event: "request.sealed", reference: reference,
                                                   details: .object(["sealedAtMs": .integer(time)]), now: time)
            let bundle = try self.evidence(tx, tenant: tenant, stored: stored, sealedAt: time, sealEntry: sealEntry)
            try tx.execute("""
                UPDATE signing_requests SET sealed_at_ms = ?, evidence_json = ? WHERE tenant = ? AND reference = ?
                """, [.integer(time), .blob(bundle.canonicalBytes()), .text(tenant), .text(reference)])
            let documents = try tx.query("""
                SELECT document_id, sha256 FROM signing_documents WHERE tenant = ? AND reference = ? ORDER BY position
                """, [.text(tenant), .text(reference)]).map { row -> CanonicalJSON in
                .object(["documentId": .string(try row.string("document_id")), "sha256": .string(try row.string("sha256"))])
            }
            var event: [String: CanonicalJSON] = [
                "reference": .string(reference), "sealedAt": .integer(time), "documents": .array(documents),
                "evidenceSha256": .string(SHA256.hex(bundle.canonicalBytes())),
            ]
            if !stored.callbackURL.isEmpty { event["callbackUrl"] = .string(stored.callbackURL) }
            try Outbox.enqueue(tx, tenant: tenant, type: "signing.completed",
                               payload: CanonicalJSON.object(event).canonicalBytes(), now: time)
            return FinishSigningReply(reference: reference, sealed: true, sealedAtMs: time)
        }
    }

    public func evidence(_ reference: String, envelope: RequestEnvelope) throws -> SigningEvidenceReply {
        guard envelope.principal.kind != .session else {
            throw ServiceError(status: .permissionDenied, code: "api_key_required",
                               message: "evidence is for the customer backend")
        }
        return try database.transaction(.deferred) { tx in
            _ = try self.loadRequest(tx, envelope: envelope, reference: reference)
            guard let row = try tx.queryOne(
                "SELECT evidence_json FROM signing_requests WHERE tenant = ? AND reference = ?",
                [.text(envelope.tenant), .text(reference)]), let bundle = try row.optionalBlob("evidence_json") else {
                throw ServiceError.conflict(code: "request_not_sealed",
                                            message: "evidence exists once the request is finished")
            }
            return SigningEvidenceReply(bundleJSON: bundle)
        }
    }

    /// Builds and seals the bundle of a request being sealed.
    private func evidence(_ tx: Transaction, tenant: String, stored: StoredSigningRequest, sealedAt: Int64,
                          sealEntry: EvidenceLogEntry) throws -> CanonicalJSON {
        let reference = stored.reference
        var documents: [CanonicalJSON] = []
        var keyIDs: Set<String> = []
        for row in try tx.query("""
            SELECT d.document_id, d.name, d.content_type, d.sha256, d.size_bytes, s.key_id, s.algorithm, s.signature,
                   s.signed_at_ms, k.mode, k.public_key, k.fingerprint
            FROM signing_documents d JOIN signatures s ON s.tenant = d.tenant AND s.document_id = d.document_id
            JOIN signing_keys k ON k.tenant = s.tenant AND k.key_id = s.key_id
            WHERE d.tenant = ? AND d.reference = ? ORDER BY d.position
            """, [.text(tenant), .text(reference)]) {
            let isDevice = try row.string("mode") == "device"
            keyIDs.insert(try row.string("key_id"))
            documents.append(.object([
                "documentId": .string(try row.string("document_id")), "name": .string(try row.string("name")),
                "contentType": .string(try row.string("content_type")), "sha256": .string(try row.string("sha256")),
                "sizeBytes": .integer(try row.int("size_bytes")),
                "signature": .object([
                    "keyId": .string(try row.string("key_id")), "algorithm": .string(try row.string("algorithm")),
                    "mode": .string(isDevice ? "device" : "platform-issued"),
                    "publicKey": isDevice ? .string(SigningCrypto.base64(try row.blob("public_key"))) : .null,
                    "fingerprint": isDevice ? .string(try row.string("fingerprint")) : .null,
                    "signature": .string(SigningCrypto.base64(try row.blob("signature"))),
                    "signedAtMs": .integer(try row.int("signed_at_ms")),
                ]),
            ]))
        }
        // This request's entries plus the enrolment entries of the device keys it used.
        let entries = try tx.query("SELECT * FROM evidence_log WHERE tenant = ? ORDER BY sequence", [.text(tenant)])
            .map(EvidenceLogEntry.init(row:)).filter { entry in
                if entry.reference == reference { return true }
                guard entry.event == "key.enrolled",
                      let details = try? CanonicalJSON.parse(Array(entry.details.utf8)),
                      let keyID = details["keyId"]?.stringValue else { return false }
                return keyIDs.contains(keyID)
            }
        let signer = stored.signer
        let unsealed: [String: CanonicalJSON] = [
            "format": .string(EvidenceBundle.format), "canonicalMessage": .string(CanonicalSigningMessage.version),
            "tenant": .string(tenant), "reference": .string(reference), "sessionId": .string(stored.sessionID),
            "createdAtMs": .integer(stored.createdAtMs), "expiresAtMs": .integer(stored.expiresAtMs),
            "sealedAtMs": .integer(sealedAt),
            "signer": signer.map { s in
                .object(["identityType": .string(s.identityType), "identityNo": .string(s.identityNo),
                         "name": .string(s.name), "surname": .string(s.surname), "sessionId": .string(s.sessionID)])
            } ?? .null,
            "documents": .array(documents), "log": .array(entries.map(\.json)),
        ]
        return EvidenceBundle.seal(unsealed, with: sealKey)
    }

    // MARK: Shared checks

    func requireSession(_ envelope: RequestEnvelope) throws -> Principal {
        guard envelope.principal.kind == .session else {
            throw ServiceError(status: .permissionDenied, code: "session_required",
                               message: "this is done by the signer's device with its session token")
        }
        return envelope.principal
    }

    /// The request, if it is this tenant's and (for a session) this session's; otherwise not found.
    func loadRequest(_ tx: Transaction, envelope: RequestEnvelope, reference: String) throws -> StoredSigningRequest {
        guard let row = try tx.queryOne("SELECT * FROM signing_requests WHERE tenant = ? AND reference = ?",
                                        [.text(envelope.tenant), .text(reference)]) else {
            throw ServiceError(status: .notFound, code: "signing_request_not_found", message: "no such signing request")
        }
        let stored = try StoredSigningRequest(row: row)
        if envelope.principal.kind == .session, stored.sessionID != envelope.principal.id {
            throw ServiceError(status: .notFound, code: "signing_request_not_found", message: "no such signing request")
        }
        return stored
    }

    func requireOpen(_ stored: StoredSigningRequest, at time: Int64) throws {
        if stored.sealedAtMs != nil {
            throw ServiceError.conflict(code: "request_sealed", message: "this signing request is already finished")
        }
        if time >= stored.expiresAtMs {
            throw ServiceError.conflict(code: "request_expired", message: "this signing request has expired")
        }
    }

    func mayUse(_ key: Row, principal: Principal, reference: String) throws -> Bool {
        let sessionID = try key.string("session_id")
        if try key.string("mode") == "platform" {
            return try key.optionalString("reference") == reference && sessionID == principal.id
        }
        if sessionID == principal.id { return true }
        let number = try key.string("identity_no")
        let type = try key.string("identity_type")
        return !number.isEmpty && number == principal.identity?.identityNo && type == principal.identity?.identityType
    }

    func unsignedDocuments(_ tx: Transaction, tenant: String, reference: String) throws -> [String] {
        try tx.query("""
            SELECT d.document_id FROM signing_documents d
            LEFT JOIN signatures s ON s.tenant = d.tenant AND s.document_id = d.document_id
            WHERE d.tenant = ? AND d.reference = ? AND s.document_id IS NULL ORDER BY d.position
            """, [.text(tenant), .text(reference)]).map { try $0.string("document_id") }
    }

    func reply(_ tx: Transaction, tenant: String, reference: String, created: Bool) throws -> SigningRequestReply {
        guard let row = try tx.queryOne("SELECT * FROM signing_requests WHERE tenant = ? AND reference = ?",
                                        [.text(tenant), .text(reference)]) else {
            throw SigningStoreError("request vanished inside its transaction")
        }
        let stored = try StoredSigningRequest(row: row)
        let documents = try tx.query("""
            SELECT d.*, s.signed_at_ms, s.key_id FROM signing_documents d
            LEFT JOIN signatures s ON s.tenant = d.tenant AND s.document_id = d.document_id
            WHERE d.tenant = ? AND d.reference = ? ORDER BY d.position
            """, [.text(tenant), .text(reference)]).map { d in
            SigningDocumentSummary(documentID: try d.string("document_id"), name: try d.string("name"),
                                   contentType: try d.string("content_type"), sha256: try d.string("sha256"),
                                   sizeBytes: try d.int("size_bytes"), signedAtMs: try d.optionalInt("signed_at_ms") ?? 0,
                                   keyID: try d.optionalString("key_id") ?? "")
        }
        let status = stored.sealedAtMs != nil ? "sealed" : (now() >= stored.expiresAtMs ? "expired" : "pending")
        return SigningRequestReply(reference: reference, status: status, sessionID: stored.sessionID,
                                   createdAtMs: stored.createdAtMs, expiresAtMs: stored.expiresAtMs,
                                   sealedAtMs: stored.sealedAtMs ?? 0, documents: documents,
                                   callbackURL: stored.callbackURL, created: created, signer: stored.signer)
    }
}
