import KYCCore
import Testing

@Suite("Hex")
struct HexTests {
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

    @Test func digitValuesInEitherCase() {
        #expect(Hex.value(of: UInt8(ascii: "0")) == 0)
        #expect(Hex.value(of: UInt8(ascii: "f")) == 15)
        #expect(Hex.value(of: UInt8(ascii: "F")) == 15)
        #expect(Hex.value(of: UInt8(ascii: "g")) == nil)
        #expect(Hex.value(of: UInt8(ascii: "%")) == nil)
    }
}
