import KYCCrypto
import Foundation

/// The self-contained evidence of one sealed signing request, and its offline verification (docs/signing.md).
///
/// The bundle is canonical JSON (`CanonicalJSON`). Its `seal` member holds an Ed25519 signature, by the platform's
/// seal key, over the canonical bytes of the bundle without `seal`; so every other field is covered by the seal and
/// each signature is also checkable on its own against the canonical signing message.
public enum EvidenceBundle {
    public static let format = "kyc-signing-evidence/v1"

    /// Adds the seal to `unsealed` (an object without `seal`).
    public static func seal(_ unsealed: [String: CanonicalJSON], with key: PlatformSealKey) -> CanonicalJSON {
        let signature = key.sign(CanonicalJSON.object(unsealed).canonicalBytes())
        var sealed = unsealed
        sealed["seal"] = .object(["algorithm": .string("Ed25519"), "publicKey": .string(SigningCrypto.base64(key.spkiDER)),
                                  "fingerprint": .string(key.fingerprint),
                                  "signature": .string(SigningCrypto.base64(signature))])
        return .object(sealed)
    }

    /// One verification step and its outcome.
    public struct Check: Sendable, Equatable {
        public let name: String
        public let passed: Bool
        public let detail: String
    }

    /// Everything `verify` checked; `failures` says exactly what failed.
    public struct Report: Sendable, Equatable {
        public var checks: [Check] = []
        public var notes: [String] = []
        public var failures: [Check] { checks.filter { !$0.passed } }
        public var isValid: Bool { !checks.isEmpty && failures.isEmpty }

        mutating func check(_ name: String, _ passed: Bool, _ detail: String = "") {
            checks.append(Check(name: name, passed: passed, detail: detail))
        }
    }

    /// Verifies a bundle offline: the seal (against `trustedSealKey`, SPKI DER, when given), every signature against
    /// its canonical message, each given document file against its hash (`documents`: document id → bytes), and the
    /// log entries' hashes, links and agreement with the documents and signatures.
    public static func verify(_ bytes: [UInt8], documents: [String: [UInt8]] = [:],
                              trustedSealKey: [UInt8]? = nil) -> Report {
        var report = Report()
        let bundle: CanonicalJSON
        do {
            bundle = try CanonicalJSON.parse(bytes)
        } catch {
            report.check("bundle", false, "not valid JSON: \(error)")
            return report
        }
        guard var members = bundle.objectValue else {
            report.check("bundle", false, "not a JSON object")
            return report
        }
        report.check("format", members["format"]?.stringValue == format, "expected \(format)")

        // The seal over everything else.
        let seal = members.removeValue(forKey: "seal")
        let sealKey = seal?["publicKey"]?.stringValue.flatMap(SigningCrypto.decodeBase64)
        let sealSignature = seal?["signature"]?.stringValue.flatMap(SigningCrypto.decodeBase64)
        if let sealKey, sealKey.count == 44, sealKey.starts(with: DevicePublicKey.ed25519RawPrefix),
           let sealSignature, seal?["algorithm"]?.stringValue == "Ed25519", seal?.objectValue?.count == 4 {
            report.check("seal key fingerprint", seal?["fingerprint"]?.stringValue == SHA256.hex(sealKey),
                         "the seal's fingerprint is not the SHA-256 of its public key")
            let valid = SigningCrypto.ed25519Verify(sealSignature, message: CanonicalJSON.object(members).canonicalBytes(),
                                                    publicKey: Array(sealKey.dropFirst(12)))
            report.check("seal", valid, valid ? "" : "the platform seal does not match the bundle: a field was changed")
            if let trustedSealKey {
                report.check("seal key trusted", trustedSealKey == sealKey,
                             "the bundle was sealed with another key than the trusted platform key")
            } else {
                report.notes.append("seal key fingerprint \(SHA256.hex(sealKey)): compare it with "
                    + "GET /v1/signing/platform-key (or pass --platform-key)")
            }
        } else {
            report.check("seal", false, "missing or malformed seal (algorithm, publicKey, fingerprint, signature)")
        }

        guard let tenant = members["tenant"]?.stringValue, let reference = members["reference"]?.stringValue,
              let documentList = members["documents"]?.arrayValue, let log = members["log"]?.arrayValue else {
            report.check("fields", false, "tenant, reference, documents or log missing")
            return report
        }

        // Each document's signature against its canonical message.
        var signedDocuments: [String: (sha256: String, signatureSHA256: String)] = [:]
        for (index, item) in documentList.enumerated() {
            guard let documentID = item["documentId"]?.stringValue, let sha256 = item["sha256"]?.stringValue,
                  let signature = item["signature"], let keyID = signature["keyId"]?.stringValue,
                  let algorithmName = signature["algorithm"]?.stringValue,
                  let signatureBytes = signature["signature"]?.stringValue.flatMap(SigningCrypto.decodeBase64) else {
                report.check("documents[\(index)]", false, "missing or malformed fields")
                continue
            }
            let name = "document \(documentID)"
            signedDocuments[documentID] = (sha256, SHA256.hex(signatureBytes))
            let message = CanonicalSigningMessage.bytes(tenant: tenant, reference: reference, documentID: documentID,
                                                        documentSHA256: sha256)
            switch SigningAlgorithm(rawValue: algorithmName) {
            case .es256?, .ed25519?:
                guard let algorithm = SigningAlgorithm(rawValue: algorithmName),
                      let keyBytes = signature["publicKey"]?.stringValue.flatMap(SigningCrypto.decodeBase64),
                      let key = try? DevicePublicKey(algorithm: algorithm, bytes: keyBytes), key.spkiDER == keyBytes
                else {
                    report.check("\(name) public key", false, "key \(keyID): not a valid \(algorithmName) SPKI key")
                    continue
                }
                report.check("\(name) key fingerprint", signature["fingerprint"]?.stringValue == key.fingerprint,
                             "key \(keyID): fingerprint is not the SHA-256 of the public key")
                report.check("\(name) signature", key.verify(signature: signatureBytes, message: message),
                             "key \(keyID): the signature does not verify over the canonical message")
            case .hmacSHA256?:
                report.notes.append("\(name) was signed with a platform-issued HMAC key: the platform checked it when "
                    + "signing; it is covered by the seal but cannot be verified independently (no non-repudiation)")
            case nil:
                report.check("\(name) signature", false, "unknown algorithm '\(algorithmName)'")
            }
            if let file = documents[documentID] {
                report.check("\(name) content", SHA256.hex(file) == sha256,
                             "the given file's SHA-256 is not the signed document's hash \(sha256)")
            }
        }
        for documentID in documents.keys.sorted() where signedDocuments[documentID] == nil {
            report.check("document \(documentID) content", false, "the bundle has no document with this id")
        }

        // The log entries: each hash, the links between consecutive entries, and agreement with the documents.
        var entries: [EvidenceLogEntry] = []
        for (index, item) in log.enumerated() {
            guard let entry = EvidenceLogEntry(json: item) else {
                report.check("log[\(index)]", false, "missing or malformed fields")
                continue
            }
            entries.append(entry)
        }
        var previous: EvidenceLogEntry?
        var chainOK = true
        for entry in entries {
            if entry.computedHash != entry.entryHash || entry.tenant != tenant {
                report.check("log entry \(entry.sequence)", false, "content does not match its hash")
                chainOK = false
            }
            if let previous {
                if entry.sequence <= previous.sequence {
                    report.check("log order", false, "entry \(entry.sequence) follows \(previous.sequence)")
                    chainOK = false
                } else if entry.sequence == previous.sequence + 1, entry.previousHash != previous.entryHash {
                    report.check("log link \(entry.sequence)", false, "does not link to entry \(previous.sequence)")
                    chainOK = false
                }
            }
            previous = entry
        }
        if chainOK { report.check("log chain", !entries.isEmpty, "the bundle carries no log entries") }
        for (documentID, facts) in signedDocuments.sorted(by: { $0.key < $1.key }) {
            let logged = entries.contains { entry in
                guard entry.event == "document.signed", entry.reference == reference,
                      let details = try? CanonicalJSON.parse(Array(entry.details.utf8)) else { return false }
                return details["documentId"]?.stringValue == documentID && details["sha256"]?.stringValue == facts.sha256
                    && details["signatureSha256"]?.stringValue == facts.signatureSHA256
            }
            report.check("document \(documentID) logged", logged,
                         "no document.signed log entry matches this document's hash and signature")
        }
        report.check("request sealed in log", entries.last?.event == "request.sealed"
                        && entries.last?.reference == reference, "the last log entry is not this request's seal")
        return report
    }
}
