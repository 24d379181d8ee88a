@testable import GatewayKit
import Testing

@Suite("JSON")
struct JSONValueTests {
    @Test func parsesObjectsWithEveryKind() throws {
        let value = try JSONValue.parseObject(Array(#"{"a":1,"b":1.5,"c":true,"d":null,"e":"x","f":[1,"y"],"g":{"h":false}}"#.utf8))
        #expect(value["a"] == .integer(1))
        #expect(value["b"] == .number(1.5))
        #expect(value["c"] == .bool(true))
        #expect(value["d"] == .null)
        #expect(value["e"] == .string("x"))
        #expect(value["f"] == .array([.integer(1), .string("y")]))
        #expect(value["g"]?["h"] == .bool(false))
    }

    @Test func booleansAreNotNumbersAndNumbersAreNotBooleans() throws {
        let value = try JSONValue.parseObject(Array(#"{"t":true,"one":1}"#.utf8))
        #expect(value["t"]?.integerValue == nil)
        #expect(value["one"]?.boolValue == nil)
    }

    @Test func emptyBodyIsAnEmptyObject() throws {
        #expect(try JSONValue.parseObject([]) == .object([]))
        #expect(try JSONValue.parseObject(Array(" \n".utf8)) == .object([]))
    }

    @Test(arguments: ["{", "{\"a\":}", "nope", "\u{FEFF}{\"a\" 1}"])
    func malformedBodiesAreRefused(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parseObject(Array(text.utf8)) }
    }

    @Test func nonObjectsAreRefused() {
        #expect(throws: JSONParseError.notAnObject) { try JSONValue.parseObject(Array("[1]".utf8)) }
        #expect(throws: JSONParseError.notAnObject) { try JSONValue.parseObject(Array("\"s\"".utf8)) }
    }

    @Test func encodingKeepsKeyOrderAndEscapes() {
        let value = JSONValue.object([("z", .integer(1)), ("a", .string("q\"\\\n\t\u{01}ş")), ("n", .null),
                                      ("l", .array([.bool(true), .number(2.5), .number(3)]))])
        #expect(String(decoding: value.encoded(), as: UTF8.self)
            == #"{"z":1,"a":"q\"\\\n\t\u0001ş","n":null,"l":[true,2.5,3]}"#)
    }

    @Test func encodedTextParsesBackToTheSameValue() throws {
        let value = JSONValue.object([("name", .string("Ayşe \"A\" \u{7F}")), ("nested", .object([("k", .integer(-5))]))])
        #expect(try JSONValue.parseObject(value.encoded()) == value)
    }
}
