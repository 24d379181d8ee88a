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

    /// Whether every character of `text` is a lowercase hex digit.
    public static func isLowercaseHex<S: Sequence<UInt8>>(_ utf8: S) -> Bool {
        utf8.allSatisfy { digits.contains($0) }
    }
}
