import KYCCrypto
import Foundation
@testable import SigningKit
import Testing

/// A small deterministic generator (SplitMix64), so a failing mutation can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct EvidenceMutationTests {
    @Test func flippingAnyByteOfTheBundleFailsVerification() throws {
        let fixture = try SigningFixture()
        let (_, evidence, _) = try fixture.sealedRequest()
        #expect(EvidenceBundle.verify(evidence).isValid)
        var rng = SeededGenerator(state: 20_260_601)
        for _ in 0..<600 {
            var mutated = evidence
            let index = Int.random(in: 0..<mutated.count, using: &rng)
            mutated[index] ^= UInt8.random(in: 1...255, using: &rng)
            #expect(!EvidenceBundle.verify(mutated).isValid, "flip at byte \(index) still verified")
        }
    }

    @Test func flippingAnyByteOfADocumentSignatureOrKeyFailsVerification() throws {
        let fixture = try SigningFixture()
        let (request, _, key) = try fixture.sealedRequest()
        let message = fixture.message(request, 0)
        let signature = key.sign(message)
        let publicKey = try DevicePublicKey(algorithm: .es256, bytes: key.spkiDER)
        #expect(publicKey.verify(signature: signature, message: message))
        var rng = SeededGenerator(state: 42)
        for _ in 0..<300 {
            // The document: its hash, hence the canonical message, changes.
            var document = SigningFixture.contract
            document[Int.random(in: 0..<document.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
            let changed = CanonicalSigningMessage.bytes(tenant: "acme", reference: request.reference,
                                                        documentID: request.documents[0].documentID,
                                                        documentSHA256: SHA256.hex(document))
            #expect(!publicKey.verify(signature: signature, message: changed))
            // The signature.
            var badSignature = signature
            badSignature[Int.random(in: 0..<badSignature.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
            #expect(!publicKey.verify(signature: badSignature, message: message))
            // The public key: either unparseable or another key.
            var badKey = key.spkiDER
            badKey[Int.random(in: 0..<badKey.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
            if let other = try? DevicePublicKey(algorithm: .es256, bytes: badKey) {
                #expect(!other.verify(signature: signature, message: message))
            }
        }
    }

    @Test func theGivenDocumentFilesMustMatch() throws {
        let fixture = try SigningFixture()
        let (request, evidence, _) = try fixture.sealedRequest()
        var tampered = SigningFixture.contract
        tampered[0] ^= 0x20
        let report = EvidenceBundle.verify(evidence, documents: [request.documents[0].documentID: tampered])
        #expect(report.failures.map(\.name) == ["document \(request.documents[0].documentID) content"])
        let other = SigningCrypto.ed25519KeyPair()
        #expect(!EvidenceBundle.verify(evidence, trustedSealKey: DevicePublicKey.ed25519RawPrefix + other.publicKey)
            .isValid)
    }

    @Test func canonicalJSONRoundTripsAndRefusesAmbiguousSpellings() throws {
        let value = CanonicalJSON.object(["b": .array([.integer(-5), .string("é\n\"")]), "a": .null, "c": .bool(true)])
        let bytes = value.canonicalBytes()
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"a":null,"b":[-5,"é\n\""],"c":true}"#)
        #expect(try CanonicalJSON.parse(bytes) == value)
        for bad in [#"{"a":1,"a":2}"#, "[01]", "[1.5]", #"["\ud800"]"#, "[1] x", "[-0]"] {
            #expect(throws: CanonicalJSON.ParseError.self) { try CanonicalJSON.parse(Array(bad.utf8)) }
        }
    }
}
