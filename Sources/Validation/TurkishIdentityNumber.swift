/// The T.C. Kimlik Numarası (TCKN): 11 digits, the first not 0, whose 10th and 11th digits are check digits:
/// d10 = ((d1+d3+d5+d7+d9)·7 − (d2+d4+d6+d8)) mod 10 and d11 = (d1+…+d10) mod 10.
/// Foreign residents' numbers (Yabancı Kimlik Numarası, starting with 99) follow the same rule.
public enum TurkishIdentityNumber {
    public static func isValid(_ text: String) -> Bool {
        guard let digits = Digits.parse(text, count: 11), digits[0] != 0 else { return false }
        let odd = digits[0] + digits[2] + digits[4] + digits[6] + digits[8]
        let even = digits[1] + digits[3] + digits[5] + digits[7]
        let tenth = ((odd * 7 - even) % 10 + 10) % 10
        let eleventh = digits[0..<10].reduce(0, +) % 10
        return digits[9] == tenth && digits[10] == eleventh
    }

    /// A foreign resident's number: valid as above and starting with 99.
    public static func isForeignResidentNumber(_ text: String) -> Bool {
        isValid(text) && text.hasPrefix("99")
    }
}

/// The Vergi Kimlik Numarası (VKN) of a Turkish company: 10 digits, the last a check digit computed from the first
/// nine by the Revenue Administration's algorithm.
public enum TurkishTaxNumber {
    public static func isValid(_ text: String) -> Bool {
        guard let digits = Digits.parse(text, count: 10) else { return false }
        var sum = 0
        for index in 0..<9 {
            let shifted = (digits[index] + 9 - index) % 10
            guard shifted != 0 else { continue }
            var weighted = (shifted * Self.powerOfTwo(9 - index)) % 9
            if weighted == 0 { weighted = 9 }
            sum += weighted
        }
        return digits[9] == (10 - sum % 10) % 10
    }

    private static func powerOfTwo(_ exponent: Int) -> Int { 1 << exponent }
}

enum Digits {
    /// The decimal digits of `text` when it is exactly `count` ASCII digits.
    static func parse(_ text: String, count: Int) -> [Int]? {
        let bytes = Array(text.utf8)
        guard bytes.count == count, bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return bytes.map { Int($0 - 0x30) }
    }
}
