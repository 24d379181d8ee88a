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

    @Test func hexEncodesEveryByte() {
        #expect(Hex.encode([0x00, 0x0f, 0xa5, 0xff]) == "000fa5ff")
        #expect(Hex.encode([]) == "")
        #expect(Hex.isLowercaseHex("00af".utf8))
        #expect(!Hex.isLowercaseHex("00AF".utf8))
    }

    @Test func hexDecodesEitherCaseAndRefusesAnythingElse() {
        #expect(Hex.decode("000fA5ff".utf8) == [0x00, 0x0f, 0xa5, 0xff])
        #expect(Hex.decode(Hex.encode(Array(0...255)).utf8) == Array(0...255))
        #expect(Hex.decode("".utf8) == nil)
        #expect(Hex.decode("abc".utf8) == nil)
        #expect(Hex.decode("0g".utf8) == nil)
        #expect(Hex.decode(" 00".utf8) == nil)
    }

    @Test func identifiersAreRandomAndShaped() {
        let ids = Set((0..<200).map { _ in SecureRandom.identifier(prefix: "x_") })
        #expect(ids.count == 200)
        #expect(ids.allSatisfy { $0.hasPrefix("x_") && $0.count == 2 + 24 && Hex.isLowercaseHex($0.utf8.dropFirst(2)) })
        #expect(SecureRandom.identifier(prefix: "", byteCount: 16).count == 32)
        #expect(SecureRandom.bytes(32) != SecureRandom.bytes(32))
    }
}
