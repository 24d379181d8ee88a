import KYCCore
import KYCCrypto
import Testing

/// HMAC-SHA256 against RFC 4231's test vectors (keys of 4 to 131 bytes, so both the short-key and the hash-the-key
/// paths), and verification that refuses any changed tag, message or key.
@Suite("HMACSHA256")
struct HMACSHA256Tests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let key: [UInt8]
        let data: [UInt8]
        let tag: String
        var testDescription: String { name }
    }

    static let vectors = [
        Vector(name: "RFC 4231 test case 1", key: [UInt8](repeating: 0x0b, count: 20), data: Array("Hi There".utf8),
               tag: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        Vector(name: "RFC 4231 test case 2 (key shorter than the output)", key: Array("Jefe".utf8),
               data: Array("what do ya want for nothing?".utf8),
               tag: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        Vector(name: "RFC 4231 test case 3", key: [UInt8](repeating: 0xaa, count: 20),
               data: [UInt8](repeating: 0xdd, count: 50),
               tag: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        Vector(name: "RFC 4231 test case 4", key: Array(1...25),
               data: [UInt8](repeating: 0xcd, count: 50),
               tag: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        Vector(name: "RFC 4231 test case 6 (key longer than a block)", key: [UInt8](repeating: 0xaa, count: 131),
               data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
               tag: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        Vector(name: "RFC 4231 test case 7 (key and data longer than a block)",
               key: [UInt8](repeating: 0xaa, count: 131),
               data: Array(("This is a test using a larger than block-size key and a larger than block-size data. "
                            + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
               tag: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    @Test(arguments: vectors)
    func rfc4231Vector(_ vector: Vector) {
        let tag = HMACSHA256.tag(for: vector.data, key: vector.key)
        #expect(Hex.encode(tag) == vector.tag)
        #expect(HMACSHA256.isValid(tag, for: vector.data, key: vector.key))
    }

    @Test func rfc4231TruncatedOutput() {
        // Test case 5 specifies only the first 128 bits of the tag.
        let tag = HMACSHA256.tag(for: Array("Test With Truncation".utf8), key: [UInt8](repeating: 0x0c, count: 20))
        #expect(Hex.encode(Array(tag.prefix(16))) == "a3b6167473100ee06e0c796c2955552b")
    }

    @Test func anyChangedTagMessageOrKeyDoesNotVerify() {
        let key = SecureRandom.bytes(HMACSHA256.keyByteCount)
        let message = Array("tenant|stream|document|payload".utf8)
        let tag = HMACSHA256.tag(for: message, key: key)
        #expect(tag.count == HMACSHA256.tagByteCount)
        #expect(HMACSHA256.isValid(tag, for: message, key: key))
        for index in tag.indices {
            var forged = tag
            forged[index] ^= 0x01
            #expect(!HMACSHA256.isValid(forged, for: message, key: key), "tag byte \(index)")
        }
        for index in message.indices {
            var changed = message
            changed[index] ^= 0x80
            #expect(!HMACSHA256.isValid(tag, for: changed, key: key), "message byte \(index)")
        }
        #expect(!HMACSHA256.isValid(tag, for: message, key: SecureRandom.bytes(HMACSHA256.keyByteCount)))
        #expect(!HMACSHA256.isValid(Array(tag.prefix(16)), for: message, key: key))
        #expect(!HMACSHA256.isValid([], for: message, key: key))
        #expect(!HMACSHA256.isValid(tag + [0], for: message, key: key))
    }

    @Test func emptyMessageAndEmptyKeyAreLegal() {
        // Python: hmac.new(b"", b"", hashlib.sha256).hexdigest()
        #expect(Hex.encode(HMACSHA256.tag(for: [], key: []))
                    == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }
}
