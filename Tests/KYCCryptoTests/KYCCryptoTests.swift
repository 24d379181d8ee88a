import KYCCore
import KYCCrypto
import Testing

@Suite("KYCCrypto")
struct KYCCryptoTests {
    @Test func sha256KnownAnswers() {
        // FIPS 180-2 test vectors.
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.digest(Array("abc".utf8)).count == 32)
    }

    @Test func identifiersAreRandomAndShaped() {
        let ids = Set((0..<200).map { _ in SecureRandom.identifier(prefix: "x_") })
        #expect(ids.count == 200)
        #expect(ids.allSatisfy { $0.hasPrefix("x_") && $0.count == 2 + 24 && Hex.isLowercaseHex($0.utf8.dropFirst(2)) })
        #expect(SecureRandom.identifier(prefix: "", byteCount: 16).count == 32)
        #expect(SecureRandom.bytes(32) != SecureRandom.bytes(32))
    }
}
