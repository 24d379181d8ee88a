import Foundation
import KYCCore

/// The JSON of evidence bundles and log details, with one byte form: objects with keys sorted by their UTF-8 bytes,
/// no whitespace, integers only (no floats), strings escaped minimally (`"`, `\`, and control characters; `\b \t \n
/// \f \r` short, others `\u00xx`). For this subset the form equals RFC 8785 (JCS) for ASCII keys, so a third party
/// can rebuild the sealed bytes with any JCS library. The parser is strict: duplicate keys, leading zeros, floats,
/// lone surrogates and trailing bytes are refused, so one value has one spelling.
public indirect enum CanonicalJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case string(String)
    case array([CanonicalJSON])
    case object([String: CanonicalJSON])

    public subscript(_ key: String) -> CanonicalJSON? {
        if case let .object(members) = self { members[key] } else { nil }
    }

    public var stringValue: String? { if case let .string(s) = self { s } else { nil } }
    public var integerValue: Int64? { if case let .integer(i) = self { i } else { nil } }
    public var arrayValue: [CanonicalJSON]? { if case let .array(a) = self { a } else { nil } }
    public var objectValue: [String: CanonicalJSON]? { if case let .object(o) = self { o } else { nil } }

    /// The canonical bytes.
    public func canonicalBytes() -> [UInt8] {
        var out: [UInt8] = []
        write(into: &out)
        return out
    }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .null: out += Array("null".utf8)
        case let .bool(b): out += Array((b ? "true" : "false").utf8)
        case let .integer(i): out += Array(String(i).utf8)
        case let .string(s): JSONString.appendQuoted(s, to: &out)
        case let .array(items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let .object(members):
            out.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
                .enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONString.appendQuoted(key, to: &out)
                out.append(UInt8(ascii: ":"))
                members[key]!.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    // MARK: Parsing

    /// Why a document is not JSON of this subset; `offset` is the byte where parsing stopped.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let offset: Int
        public let reason: String
        public var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    /// Parses `bytes` strictly (see the type's comment). Nesting deeper than 32 levels is refused.
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> CanonicalJSON {
        var parser = Parser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.fail("trailing bytes") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        func fail(_ reason: String) -> ParseError { ParseError(offset: index, reason: reason) }

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func literal(_ word: String) -> Bool {
            let w = Array(word.utf8)
            guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else { return false }
            index += w.count
            return true
        }

        mutating func value(depth: Int) throws(ParseError) -> CanonicalJSON {
            guard depth <= 32 else { throw fail("nested too deeply") }
            guard index < bytes.count else { throw fail("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [String: CanonicalJSON] = [:]
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                while true {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                    let key = try string()
                    guard members[key] == nil else { throw fail("duplicate key") }
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                    index += 1
                    skipWhitespace()
                    members[key] = try value(depth: depth + 1)
                    skipWhitespace()
                    guard index < bytes.count else { throw fail("unexpected end") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                    throw fail("expected ',' or '}'")
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [CanonicalJSON] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    skipWhitespace()
                    items.append(try value(depth: depth + 1))
                    skipWhitespace()
                    guard index < bytes.count else { throw fail("unexpected end") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                    throw fail("expected ',' or ']'")
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): if literal("true") { return .bool(true) }; throw fail("invalid literal")
            case UInt8(ascii: "f"): if literal("false") { return .bool(false) }; throw fail("invalid literal")
            case UInt8(ascii: "n"): if literal("null") { return .null }; throw fail("invalid literal")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .integer(try integer())
            default: throw fail("unexpected character")
            }
        }

        mutating func integer() throws(ParseError) -> Int64 {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digitsStart = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            let digits = index - digitsStart
            guard digits > 0 else { throw fail("expected digits") }
            guard !(digits > 1 && bytes[digitsStart] == UInt8(ascii: "0")) else { throw fail("leading zero") }
            if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
                throw fail("only integers are allowed")
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard let value = Int64(text), text != "-0" else { throw fail("integer out of range") }
            return value
        }

        mutating func string() throws(ParseError) -> String {
            index += 1  // opening quote
            var out: [UInt8] = []
            while true {
                guard index < bytes.count else { throw fail("unterminated string") }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") { index += 1; break }
                if byte < 0x20 { throw fail("control character in string") }
                if byte != UInt8(ascii: "\\") { out.append(byte); index += 1; continue }
                index += 1
                guard index < bytes.count else { throw fail("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard literal("\\u") else { throw fail("lone surrogate") }
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("lone surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw fail("invalid code point") }
                    out += Array(String(Character(unicode)).utf8)
                default: throw fail("invalid escape")
                }
            }
            guard let text = String(validating: out, as: UTF8.self) else { throw fail("invalid UTF-8") }
            return text
        }

        mutating func hex4() throws(ParseError) -> UInt32 {
            guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self),
                                                               radix: 16) else { throw fail("invalid \\u escape") }
            index += 4
            return value
        }
    }
}
