import Foundation
import KYCCore

/// A JSON document as a Swift value. Parsing goes through Foundation's `JSONDecoder` (strict: `true` is never a
/// number); encoding keeps object keys in the order given, so responses list things in display order.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case integer(Int64)
    case string(String)
    case array([JSONValue])
    /// Keys in order; duplicate keys are not produced by the parser (the last one wins).
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.integer(a), .number(b)), let (.number(b), .integer(a)): Double(a) == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)):
            a.count == b.count && a.allSatisfy { key, value in b.first(where: { $0.0 == key })?.1 == value }
        default: false
        }
    }

    /// Looks up a key of an object; nil for other kinds or a missing key.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(pairs) = self else { return nil }
        return pairs.last(where: { $0.0 == key })?.1
    }

    public var stringValue: String? { if case let .string(s) = self { s } else { nil } }
    public var boolValue: Bool? { if case let .bool(b) = self { b } else { nil } }
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// A whole number, from an integer or a number with no fraction.
    public var integerValue: Int64? {
        switch self {
        case let .integer(i): i
        case let .number(d) where d.rounded() == d && abs(d) < 9.0e15: Int64(d)
        default: nil
        }
    }

    public var arrayValue: [JSONValue]? { if case let .array(a) = self { a } else { nil } }
    public var objectValue: [(String, JSONValue)]? { if case let .object(o) = self { o } else { nil } }
}

extension JSONValue: Decodable {
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var pairs: [(String, JSONValue)] = []
            for key in object.allKeys { pairs.append((key.stringValue, try object.decode(JSONValue.self, forKey: key))) }
            self = .object(pairs)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null }
        else if let b = try? single.decode(Bool.self) { self = .bool(b) }
        else if let i = try? single.decode(Int64.self) { self = .integer(i) }
        else if let d = try? single.decode(Double.self) { self = .number(d) }
        else { self = .string(try single.decode(String.self)) }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

public enum JSONParseError: Error, Equatable {
    case malformed(String)
    case notAnObject
}

extension JSONValue {
    /// Parses a request body that must be a JSON object; an empty body is an empty object.
    public static func parseObject(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .object([]) }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch let DecodingError.dataCorrupted(context) {
            throw .malformed(Self.describe(context))
        } catch {
            throw .malformed("the body is not valid JSON")
        }
        guard case .object = value else { throw .notAnObject }
        return value
    }

    private static func describe(_ context: DecodingError.Context) -> String {
        if let underlying = context.underlyingError as NSError?,
           let detail = underlying.userInfo[NSDebugDescriptionErrorKey] as? String {
            return "the body is not valid JSON: \(detail)"
        }
        return "the body is not valid JSON"
    }
}

extension JSONValue {
    /// Compact UTF-8 JSON.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out)
        return out
    }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: Array("null".utf8))
        case let .bool(b): out.append(contentsOf: Array((b ? "true" : "false").utf8))
        case let .integer(i): out.append(contentsOf: Array(String(i).utf8))
        case let .number(d):
            if d.isFinite {
                if d.rounded() == d && abs(d) < 1e15 { out.append(contentsOf: Array(String(Int64(d)).utf8)) }
                else { out.append(contentsOf: Array("\(d)".utf8)) }
            } else {
                out.append(contentsOf: Array("null".utf8))
            }
        case let .string(s): JSONString.appendQuoted(s, to: &out)
        case let .array(items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let .object(pairs):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in pairs.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONString.appendQuoted(key, to: &out)
                out.append(UInt8(ascii: ":"))
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }


}
