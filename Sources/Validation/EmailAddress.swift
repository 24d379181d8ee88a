/// E-mail address syntax as users and mail servers accept it in practice: one `@`, a local part of at most 64
/// characters without spaces or control characters, and a domain of dot-separated labels (letters, digits, hyphens,
/// not starting or ending with a hyphen) with a top-level label of at least two letters. Internationalised domains
/// must arrive in their ASCII (punycode) form.
public enum EmailAddress {
    public static func validate(_ text: String, field: String = "email") throws(ValidationFailure) -> String {
        let trimmed = text.trimmingWhitespace()
        guard isValid(trimmed) else {
            throw ValidationFailure(field: field, code: "invalid_email", message: "\(field) is not an e-mail address")
        }
        return trimmed
    }

    public static func isValid(_ text: String) -> Bool {
        guard text.utf8.count <= 254 else { return false }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let local = parts[0], domain = parts[1]
        guard (1...64).contains(local.utf8.count),
              !local.hasPrefix("."), !local.hasSuffix("."), !local.contains(".."),
              local.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && !"()<>[]:;,\\\"".unicodeScalars.contains($0) })
        else { return false }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        for label in labels {
            guard (1...63).contains(label.utf8.count), !label.hasPrefix("-"), !label.hasSuffix("-"),
                  label.utf8.allSatisfy({ isASCIILetter($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") })
            else { return false }
        }
        let top = labels.last!
        return top.utf8.count >= 2 && (top.utf8.allSatisfy(isASCIILetter) || top.hasPrefix("xn--"))
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
