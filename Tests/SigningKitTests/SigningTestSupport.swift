import COpenSSL
import Foundation
import KYCCore
import KYCMessages
import Messaging
@testable import SigningKit
import Storage
import Synchronization

/// A device key pair made with OpenSSL EVP, as a phone would (P-256 or Ed25519).
final class TestDeviceKey: @unchecked Sendable {
    // @unchecked: used from one test at a time; the EVP_PKEY is freed once in deinit.
    let key: OpaquePointer
    let algorithm: SigningAlgorithm

    init(_ algorithm: SigningAlgorithm) {
        self.algorithm = algorithm
        let context = EVP_PKEY_CTX_new_id(algorithm == .es256 ? EVP_PKEY_EC : EVP_PKEY_ED25519, nil)!
        defer { EVP_PKEY_CTX_free(context) }
        precondition(EVP_PKEY_keygen_init(context) == 1)
        if algorithm == .es256 {
            precondition(EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1)
        }
        var key: OpaquePointer?
        precondition(EVP_PKEY_keygen(context, &key) == 1)
        self.key = key!
    }

    deinit { EVP_PKEY_free(key) }

    var spkiDER: [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_PUBKEY(key, &out)
        defer { CRYPTO_free(out, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// DER for ES256 (as `openssl dgst -sign` writes), 64 bytes for Ed25519.
    func sign(_ message: [UInt8]) -> [UInt8] {
        let context = EVP_MD_CTX_new()!
        defer { EVP_MD_CTX_free(context) }
        precondition(EVP_DigestSignInit(context, nil, algorithm == .es256 ? EVP_sha256() : nil, nil, key) == 1)
        var length = 0
        precondition(EVP_DigestSign(context, nil, &length, message, message.count) == 1)
        var signature = [UInt8](repeating: 0, count: length)
        precondition(EVP_DigestSign(context, &signature, &length, message, message.count) == 1)
        return Array(signature.prefix(length))
    }
}

/// A settable clock for expiry tests.
final class TestClock: Sendable {
    let milliseconds = Atomic<Int64>(1_800_000_000_000)
    func advance(seconds: Int64) { milliseconds.add(seconds * 1000, ordering: .relaxed) }
    var now: Int64 { milliseconds.load(ordering: .relaxed) }
}

struct SigningFixture {
    let desk: SigningDesk
    let database: Database
    let clock = TestClock()
    static let identity = Identity(identityType: "TCKN", identityNo: "10000000146", name: "Ada", surname: "Yılmaz")

    init() throws {
        database = try Database(path: ":memory:")
        let clock = self.clock
        desk = try SigningDesk(database: database, logger: Logger(service: "signing-test", level: .critical),
                               now: { clock.now })
    }

    func backend(_ tenant: String = "acme") -> RequestEnvelope {
        RequestEnvelope(requestID: UUID().uuidString, tenant: tenant, principal: Principal(kind: .apiKey, id: "key_1"))
    }

    func device(_ tenant: String = "acme", session: String = "ses_1", identity: Identity? = SigningFixture.identity)
        -> RequestEnvelope {
        RequestEnvelope(requestID: UUID().uuidString, tenant: tenant,
                        principal: Principal(kind: .session, id: session, scopes: ["signing"], identity: identity))
    }

    static let contract = Array("Contract: the customer agrees to the terms.\n".utf8)
    static let consent = Array("Consent form v3".utf8)

    func createRequest(reference: String = "order-1", tenant: String = "acme", session: String = "ses_1",
                       documents: [[UInt8]] = [contract, consent]) throws -> SigningRequestReply {
        try desk.createRequest(CreateSigningRequest(
            reference: reference, sessionID: session,
            documents: documents.enumerated().map { SigningDocumentUpload(name: "doc\($0.offset).txt",
                                                                          contentType: "text/plain", content: $0.element) }),
                               envelope: backend(tenant))
    }

    func message(_ reply: SigningRequestReply, _ index: Int, tenant: String = "acme") -> [UInt8] {
        CanonicalSigningMessage.bytes(tenant: tenant, reference: reply.reference,
                                      documentID: reply.documents[index].documentID,
                                      documentSHA256: reply.documents[index].sha256)
    }

    func count(_ table: String) throws -> Int64 {
        try database.queryOne("SELECT count(*) AS n FROM \(table)")!.int("n")
    }

    /// Creates, enrols a P-256 key, signs every document and seals; returns the request and the evidence bytes.
    func sealedRequest() throws -> (request: SigningRequestReply, evidence: [UInt8], key: TestDeviceKey) {
        let request = try createRequest()
        let key = TestDeviceKey(.es256)
        let enrolled = try desk.enrolKey(EnrolSigningKeyRequest(algorithm: "ES256", publicKey: key.spkiDER),
                                         envelope: device())
        for index in request.documents.indices {
            _ = try desk.sign(SignDocumentRequest(reference: request.reference,
                                                  documentID: request.documents[index].documentID,
                                                  keyID: enrolled.keyID, signature: key.sign(message(request, index))),
                              envelope: device())
        }
        let finished = try desk.finish(request.reference, envelope: backend())
        precondition(finished.sealed)
        return (request, try desk.evidence(request.reference, envelope: backend()).bundleJSON, key)
    }
}

func serviceError(_ body: () throws -> Void) -> ServiceError? {
    do {
        try body()
        return nil
    } catch let error as ServiceError {
        return error
    } catch {
        return ServiceError(status: .internalError, code: "unexpected", message: "\(error)")
    }
}
