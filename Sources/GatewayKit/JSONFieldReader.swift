import Foundation

/// Reads typed fields out of a JSON object, turning every wrong type or bad value into a 422 `APIError` that names
/// the field by its JSON path (`identity.identityNo`).
struct JSONFieldReader {
    let object: JSONValue
    let path: String

    init(_ object: JSONValue, path: String = "") {
        self.object = object
        self.path = path
    }

    func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private func value(_ key: String) -> JSONValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    func string(_ key: String, maxLength: Int) throws -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.stringValue else {
            throw APIError.invalidField(fieldPath(key), "invalid_type", "\(fieldPath(key)) must be a string")
        }
        guard text.count <= maxLength else {
            throw APIError.invalidField(fieldPath(key), "too_long",
                                        "\(fieldPath(key)) must be at most \(maxLength) characters")
        }
        return text
    }

    func requiredString(_ key: String, maxLength: Int) throws -> String {
        guard let text = try string(key, maxLength: maxLength), !text.isEmpty else {
            throw APIError.invalidField(fieldPath(key), "required", "\(fieldPath(key)) is required")
        }
        return text
    }

    func integer(_ key: String) throws -> Int64? {
        guard let value = value(key) else { return nil }
        guard let number = value.integerValue else {
            throw APIError.invalidField(fieldPath(key), "invalid_type", "\(fieldPath(key)) must be a whole number")
        }
        return number
    }

    func bool(_ key: String) throws -> Bool? {
        guard let value = value(key) else { return nil }
        guard let flag = value.boolValue else {
            throw APIError.invalidField(fieldPath(key), "invalid_type", "\(fieldPath(key)) must be true or false")
        }
        return flag
    }

    func object(_ key: String) throws -> JSONValue? {
        guard let value = value(key) else { return nil }
        guard value.objectValue != nil else {
            throw APIError.invalidField(fieldPath(key), "invalid_type", "\(fieldPath(key)) must be an object")
        }
        return value
    }

    func stringArray(_ key: String, maxCount: Int = 64) throws -> [String]? {
        guard let value = value(key) else { return nil }
        guard let items = value.arrayValue, items.count <= maxCount else {
            throw APIError.invalidField(fieldPath(key), "invalid_type",
                                        "\(fieldPath(key)) must be an array of at most \(maxCount) strings")
        }
        return try items.enumerated().map { index, item in
            guard let text = item.stringValue else {
                throw APIError.invalidField("\(fieldPath(key))[\(index)]", "invalid_type", "must be a string")
            }
            return text
        }
    }

    /// Standard base64 with padding and nothing else (no spaces, no line breaks, no URL-safe alphabet); anything
    /// else is a 422 `invalid_base64` naming `field`.
    static func strictBase64(_ text: String, field: String) throws -> [UInt8] {
        let bytes = Array(text.utf8)
        let isAlphabet: (UInt8) -> Bool = { byte in
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
        }
        var padding = 0
        while padding < 2, padding < bytes.count, bytes[bytes.count - 1 - padding] == UInt8(ascii: "=") { padding += 1 }
        guard bytes.count % 4 == 0, bytes.dropLast(padding).allSatisfy(isAlphabet),
              let data = Data(base64Encoded: text) else {
            throw APIError.invalidField(field, "invalid_base64", "\(field) must be standard base64 with padding")
        }
        return Array(data)
    }

    /// A required array of objects under `key`, each with a reader whose paths read `key[i].field`.
    func requiredObjectArray(_ key: String) throws -> [JSONFieldReader] {
        guard let list = object[key], !list.isNull else {
            throw APIError.invalidField(fieldPath(key), "required", "\(fieldPath(key)) is required")
        }
        guard let items = list.arrayValue else {
            throw APIError.invalidField(fieldPath(key), "invalid_type", "\(fieldPath(key)) must be an array")
        }
        return try items.enumerated().map { index, item in
            let path = "\(fieldPath(key))[\(index)]"
            guard item.objectValue != nil else {
                throw APIError.invalidField(path, "invalid_type", "\(path) must be an object")
            }
            return JSONFieldReader(item, path: path)
        }
    }
}
