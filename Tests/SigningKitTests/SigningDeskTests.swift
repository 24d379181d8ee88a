import Foundation
import KYCMessages
import Messaging
@testable import SigningKit
import Storage
import Testing

@Suite struct SigningDeskTests {
    @Test func fullFlowSealsAndTheEvidenceVerifiesOffline() throws {
        let fixture = try SigningFixture()
        let (request, evidence, _) = try fixture.sealedRequest()
        let report = EvidenceBundle.verify(evidence, documents: [
            request.documents[0].documentID: SigningFixture.contract,
            request.documents[1].documentID: SigningFixture.consent,
        ], trustedSealKey: fixture.desk.platformKey.publicKey)
        #expect(report.isValid, "\(report.failures)")
        #expect(try fixture.desk.getRequest(request.reference, envelope: fixture.backend()).status == "sealed")
        // The webhook event was written with the seal.
        let event = try #require(try fixture.database.queryOne("SELECT type, payload FROM webhook_outbox"))
        #expect(try event.string("type") == "signing.completed")
        #expect(String(decoding: try event.blob("payload"), as: UTF8.self).contains(request.reference))
        #expect(try fixture.desk.getRequest(request.reference, envelope: fixture.backend()).signer?.identityNo
            == SigningFixture.identity.identityNo)
    }

    @Test func replayingTheSameValidSignatureIsIdempotent() throws {
        let fixture = try SigningFixture()
        let request = try fixture.createRequest()
        let key = TestDeviceKey(.ed25519)
        let enrolled = try fixture.desk.enrolKey(EnrolSigningKeyRequest(algorithm: "Ed25519", publicKey: key.spkiDER),
                                                 envelope: fixture.device())
        let sign = SignDocumentRequest(reference: request.reference, documentID: request.documents[0].documentID,
                                       keyID: enrolled.keyID, signature: key.sign(fixture.message(request, 0)))
        let first = try fixture.desk.sign(sign, envelope: fixture.device())
        let entries = try fixture.count("evidence_log")
        let second = try fixture.desk.sign(sign, envelope: fixture.device())
        #expect(!first.replayed && second.replayed && second.signedAtMs == first.signedAtMs)
        #expect(try fixture.count("evidence_log") == entries)
        #expect(try fixture.count("signatures") == 1)
    }

    @Test func rawRSSignaturesFromSecureHardwareAreAccepted() throws {
        let fixture = try SigningFixture()
        let request = try fixture.createRequest(documents: [SigningFixture.contract])
        let key = TestDeviceKey(.es256)
        let raw = Array(key.spkiDER.suffix(65))  // the uncompressed point
        let enrolled = try fixture.desk.enrolKey(EnrolSigningKeyRequest(algorithm: "ES256", publicKey: raw),
                                                 envelope: fixture.device())
        #expect(enrolled.publicKey == key.spkiDER)
        let der = key.sign(fixture.message(request, 0))
        let rs = try #require(rawRS(fromDER: der))
        _ = try fixture.desk.sign(SignDocumentRequest(reference: request.reference,
                                                      documentID: request.documents[0].documentID,
                                                      keyID: enrolled.keyID, signature: rs), envelope: fixture.device())
    }

    @Test func badInputGetsAClearErrorAndWritesNothing() throws {
        let fixture = try SigningFixture()
        let request = try fixture.createRequest()
        let key = TestDeviceKey(.es256)
        let other = TestDeviceKey(.es256)
        let enrolled = try fixture.desk.enrolKey(EnrolSigningKeyRequest(algorithm: "ES256", publicKey: key.spkiDER),
                                                 envelope: fixture.device())
        let document = request.documents[0].documentID
        let before = (try fixture.count("signatures"), try fixture.count("evidence_log"))
        func sign(_ signature: [UInt8], data: [UInt8]? = nil, reference: String = "order-1",
                  envelope: RequestEnvelope? = nil, keyID: String? = nil) -> ServiceError? {
            serviceError {
                _ = try fixture.desk.sign(SignDocumentRequest(reference: reference, documentID: document,
                                                              keyID: keyID ?? enrolled.keyID, signature: signature,
                                                              shownData: data), envelope: envelope ?? fixture.device())
            }
        }
        let good = key.sign(fixture.message(request, 0))
        // Wrong key: another key's signature.
        #expect(sign(other.sign(fixture.message(request, 0)))?.code == "invalid_signature")
        // Wrong document: a signature over the other document's message.
        #expect(sign(key.sign(fixture.message(request, 1)))?.code == "invalid_signature")
        // The device showed other bytes than the stored document.
        #expect(sign(good, data: SigningFixture.consent)?.code == "document_mismatch")
        // Another tenant's reference looks missing.
        #expect(sign(good, envelope: fixture.device("globex"))?.code == "signing_request_not_found")
        // Another session of the same tenant too.
        #expect(sign(good, envelope: fixture.device(session: "ses_2"))?.code == "signing_request_not_found")
        // A backend cannot sign for the user.
        #expect(sign(good, envelope: fixture.backend())?.code == "session_required")
        #expect(sign(good, keyID: "key_unknown")?.code == "key_not_found")
        #expect(sign([])?.code == "invalid_signature")
        #expect(sign(good, envelope: fixture.device(identity: nil))?.code == "signer_identity_missing")
        #expect(try fixture.count("signatures") == before.0 && fixture.count("evidence_log") == before.1)
        // Unknown algorithm and malformed keys.
        #expect(serviceError {
            _ = try fixture.desk.enrolKey(EnrolSigningKeyRequest(algorithm: "RS256", publicKey: key.spkiDER),
                                          envelope: fixture.device())
        }?.code == "unknown_algorithm")
        #expect(serviceError {
            _ = try fixture.desk.enrolKey(EnrolSigningKeyRequest(algorithm: "ES256", publicKey: [0x30, 0x01, 0x02]),
                                          envelope: fixture.device())
        }?.code == "invalid_public_key")
        #expect(serviceError {
            _ = try fixture.desk.enrolKey(EnrolSigningKeyRequest(algorithm: "Ed25519", publicKey: key.spkiDER),
                                          envelope: fixture.device())
        }?.code == "algorithm_mismatch")
        // Finally the good signature passes.
        #expect(sign(good) == nil)
    }

    @Test func expiredRequestsCannotBeSignedOrFinished() throws {
        let fixture = try SigningFixture()
        let request = try fixture.createRequest()
        let key = TestDeviceKey(.es256)
        let enrolled = try fixture.desk.enrolKey(EnrolSigningKeyRequest(algorithm: "ES256", publicKey: key.spkiDER),
                                                 envelope: fixture.device())
        fixture.clock.advance(seconds: 24 * 3600 + 1)
        let error = serviceError {
            _ = try fixture.desk.sign(SignDocumentRequest(reference: request.reference,
                                                          documentID: request.documents[0].documentID,
                                                          keyID: enrolled.keyID,
                                                          signature: key.sign(fixture.message(request, 0))),
                                      envelope: fixture.device())
        }
        #expect(error?.code == "request_expired" && error?.status == .failedPrecondition)
        #expect(serviceError { _ = try fixture.desk.finish(request.reference, envelope: fixture.backend()) }?.code
            == "request_expired")
        #expect(try fixture.desk.getRequest(request.reference, envelope: fixture.backend()).status == "expired")
    }

    @Test func finishListsTheUnsignedDocumentsAndIsIdempotentOnceSealed() throws {
        let fixture = try SigningFixture()
        let request = try fixture.createRequest()
        let key = TestDeviceKey(.es256)
        let enrolled = try fixture.desk.enrolKey(EnrolSigningKeyRequest(algorithm: "ES256", publicKey: key.spkiDER),
                                                 envelope: fixture.device())
        _ = try fixture.desk.sign(SignDocumentRequest(reference: request.reference,
                                                      documentID: request.documents[0].documentID,
                                                      keyID: enrolled.keyID, signature: key.sign(fixture.message(request, 0))),
                                  envelope: fixture.device())
        let partial = try fixture.desk.finish(request.reference, envelope: fixture.backend())
        #expect(!partial.sealed && partial.unsignedDocumentIDs == [request.documents[1].documentID])
        #expect(try fixture.count("webhook_outbox") == 0)
        _ = try fixture.desk.sign(SignDocumentRequest(reference: request.reference,
                                                      documentID: request.documents[1].documentID,
                                                      keyID: enrolled.keyID, signature: key.sign(fixture.message(request, 1))),
                                  envelope: fixture.device())
        let sealed = try fixture.desk.finish(request.reference, envelope: fixture.device())
        let again = try fixture.desk.finish(request.reference, envelope: fixture.backend())
        #expect(sealed.sealed && !sealed.alreadySealed && again.alreadySealed && again.sealedAtMs == sealed.sealedAtMs)
        #expect(try fixture.count("webhook_outbox") == 1)
    }

    @Test func platformIssuedKeysAreShownOnceAndVerifyHMAC() throws {
        let fixture = try SigningFixture()
        let request = try fixture.createRequest(documents: [SigningFixture.contract])
        let envelope = fixture.device()
        let issued = try fixture.desk.issuePlatformKey(request.reference, envelope: envelope)
        // A retry of the same request id (lost reply) sees it again; any other call does not.
        #expect(try fixture.desk.issuePlatformKey(request.reference, envelope: envelope).secret == issued.secret)
        #expect(serviceError { _ = try fixture.desk.issuePlatformKey(request.reference, envelope: fixture.device()) }?
            .code == "key_already_issued")
        let mac = SigningCrypto.hmacSHA256(key: issued.secret, message: fixture.message(request, 0))
        var wrong = mac
        wrong[0] ^= 1
        #expect(serviceError {
            _ = try fixture.desk.sign(SignDocumentRequest(reference: request.reference,
                                                          documentID: request.documents[0].documentID,
                                                          keyID: issued.keyID, signature: wrong), envelope: fixture.device())
        }?.code == "invalid_signature")
        _ = try fixture.desk.sign(SignDocumentRequest(reference: request.reference,
                                                      documentID: request.documents[0].documentID, keyID: issued.keyID,
                                                      signature: mac), envelope: fixture.device())
        #expect(try fixture.desk.finish(request.reference, envelope: fixture.backend()).sealed)
        let report = EvidenceBundle.verify(try fixture.desk.evidence(request.reference, envelope: fixture.backend())
            .bundleJSON)
        #expect(report.isValid && report.notes.contains { $0.contains("platform-issued") })
    }

    @Test func createIsIdempotentAndReferencesCannotBeReused() throws {
        let fixture = try SigningFixture()
        let first = try fixture.createRequest()
        let again = try fixture.createRequest()
        #expect(first.created && !again.created && again.documents == first.documents)
        #expect(serviceError { _ = try fixture.createRequest(documents: [SigningFixture.consent]) }?.code
            == "reference_in_use")
        // The same reference in another tenant is another request.
        #expect(try fixture.createRequest(tenant: "globex").created)
        #expect(serviceError { _ = try fixture.desk.getRequest("order-1", envelope: fixture.device("acme", session: "ses_9")) }?
            .code == "signing_request_not_found")
        #expect(serviceError { _ = try fixture.createRequest(reference: "bad\nref") }?.status == .invalidArgument)
    }

    @Test func tamperedLogIsDetected() throws {
        let fixture = try SigningFixture()
        _ = try fixture.sealedRequest()
        #expect(try EvidenceLog.verify(fixture.database).isIntact)
        let entries = try fixture.count("evidence_log")
        #expect(entries >= 5)
        // Edited.
        try fixture.database.execute("UPDATE evidence_log SET details = replace(details, 'ses_1', 'ses_X') WHERE sequence = 2")
        #expect(try EvidenceLog.verify(fixture.database).breaks.first?.sequence == 2)
        try fixture.database.execute("UPDATE evidence_log SET details = replace(details, 'ses_X', 'ses_1') WHERE sequence = 2")
        #expect(try EvidenceLog.verify(fixture.database).isIntact)
        // Removed.
        let saved = try fixture.database.queryOne("SELECT * FROM evidence_log WHERE sequence = 3")!
        try fixture.database.execute("DELETE FROM evidence_log WHERE sequence = 3")
        #expect(try EvidenceLog.verify(fixture.database).breaks.first?.sequence == 3)
        try fixture.database.execute("INSERT INTO evidence_log VALUES (?, ?, ?, ?, ?, ?, ?, ?)", saved.values)
        // Reordered: swap two entries' positions.
        try fixture.database.execute("UPDATE evidence_log SET sequence = -1 WHERE sequence = 3")
        try fixture.database.execute("UPDATE evidence_log SET sequence = 3 WHERE sequence = 4")
        try fixture.database.execute("UPDATE evidence_log SET sequence = 4 WHERE sequence = -1")
        #expect(try EvidenceLog.verify(fixture.database).breaks.first?.sequence == 3)
        try fixture.database.execute("UPDATE evidence_log SET sequence = -1 WHERE sequence = 3")
        try fixture.database.execute("UPDATE evidence_log SET sequence = 3 WHERE sequence = 4")
        try fixture.database.execute("UPDATE evidence_log SET sequence = 4 WHERE sequence = -1")
        // The tail removed: the chain alone is fine, the sealed evidence catches it.
        try fixture.database.execute("DELETE FROM evidence_log WHERE sequence = ?", [.integer(entries)])
        #expect(try !EvidenceLog.verify(fixture.database).isIntact)
    }
}

/// Converts a DER ECDSA signature to raw r||s (32 bytes each), as phone secure hardware returns.
func rawRS(fromDER der: [UInt8]) -> [UInt8]? {
    guard der.count > 8, der[0] == 0x30, der[2] == 0x02 else { return nil }
    let rLength = Int(der[3])
    let r = Array(der[4..<4 + rLength])
    guard der[4 + rLength] == 0x02 else { return nil }
    let sLength = Int(der[5 + rLength])
    let s = Array(der[6 + rLength..<6 + rLength + sLength])
    func pad(_ v: [UInt8]) -> [UInt8] {
        let trimmed = Array(v.drop { $0 == 0 })
        return [UInt8](repeating: 0, count: 32 - trimmed.count) + trimmed
    }
    return pad(r) + pad(s)
}
