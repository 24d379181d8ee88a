/// Lowercase hexadecimal, by table: tokens are hashed on every authenticated request, so no `String(format:)`.
public enum Hex {
    static let digits = Array("0123456789abcdef".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            for (index, byte) in bytes.enumerated() {
                buffer[index * 2] = digits[Int(byte >> 4)]
                buffer[index * 2 + 1] = digits[Int(byte & 0x0F)]
            }
            return bytes.count * 2
        }
    }

    /// The bytes of hex digits (upper or lower case), or nil unless `utf8` is a non-empty, even number of them.
    public static func decode<C: Collection<UInt8>>(_ utf8: C) -> [UInt8]? {
        guard !utf8.isEmpty, utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var high: UInt8?
        for digit in utf8 {
            guard let value = value(of: digit) else { return nil }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return bytes
    }

    /// The value of one hex digit (upper or lower case), or nil.
    public static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether every character of `text` is a lowercase hex digit.
    public static func isLowercaseHex<S: Sequence<UInt8>>(_ utf8: S) -> Bool {
        utf8.allSatisfy { digits.contains($0) }
    }
}
