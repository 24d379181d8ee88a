import Foundation
import KYCMessages
import Messaging
import Validation

/// The input rules of KYB requests. Each check adds a `FieldViolation` instead of stopping at the first, so a client
/// learns about every bad field at once; `ViolationList.throwIfAny()` turns them into one `ServiceError`.
public enum KYBRules {
    /// A tax number for `type`: a 10-digit VKN with a valid check digit, or (sole proprietorships only) an 11-digit
    /// T.C. identity number with valid check digits.
    public static func taxNumberViolation(_ taxNumber: String, type: BusinessType?, field: String = "taxNumber")
        -> FieldViolation? {
        if taxNumber.isEmpty { return FieldViolation(field: field, code: "required", message: "\(field) is required") }
        if TurkishTaxNumber.isValid(taxNumber) { return nil }
        if TurkishIdentityNumber.isValid(taxNumber) {
            if type == nil || type?.acceptsIdentityNumberAsTaxNumber == true { return nil }
            return FieldViolation(field: field, code: "invalid_tax_number",
                                  message: "an 11-digit T.C. identity number is a tax number only for "
                                      + "sole_proprietorship; companies use their 10-digit VKN")
        }
        let digitsOnly = taxNumber.utf8.allSatisfy { (0x30...0x39).contains($0) }
        let message = digitsOnly && (taxNumber.utf8.count == 10 || taxNumber.utf8.count == 11)
            ? "\(field) has a wrong check digit"
            : "\(field) must be a 10-digit VKN or, for sole proprietorships, an 11-digit T.C. identity number"
        return FieldViolation(field: field, code: "invalid_tax_number", message: message)
    }

    /// Text that must be present (unless `required` is false) and at most `maxLength` characters; control
    /// characters are refused because the values end up on reviewers' screens and in exported reports.
    public static func textViolation(_ text: String, field: String, maxLength: Int, required: Bool) -> FieldViolation? {
        if text.trimmingCharacters(in: .whitespaces).isEmpty {
            return required ? FieldViolation(field: field, code: "required", message: "\(field) is required") : nil
        }
        if text.count > maxLength {
            return FieldViolation(field: field, code: "too_long", message: "\(field) must be at most \(maxLength) characters")
        }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return FieldViolation(field: field, code: "invalid_characters",
                                  message: "\(field) must not contain control characters")
        }
        return nil
    }

    /// A calendar date `YYYY-MM-DD`.
    public struct CalendarDate: Sendable, Equatable, Comparable {
        public let year: Int
        public let month: Int
        public let day: Int

        public init?(_ text: String) {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].utf8.count == 4, parts[1].utf8.count == 2, parts[2].utf8.count == 2,
                  parts.allSatisfy({ $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
                  let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
                  year >= 1900, (1...12).contains(month), (1...Self.days(inMonth: month, year: year)).contains(day)
            else { return nil }
            self.year = year
            self.month = month
            self.day = day
        }

        init(year: Int, month: Int, day: Int) {
            self.year = year
            self.month = month
            self.day = day
        }

        /// Today in Türkiye (UTC+3 all year since 2016) at `unixMilliseconds`.
        public static func today(unixMilliseconds: Int64) -> CalendarDate {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "Europe/Istanbul") ?? TimeZone(secondsFromGMT: 3 * 3600)!
            let parts = calendar.dateComponents([.year, .month, .day],
                                                from: Date(timeIntervalSince1970: Double(unixMilliseconds) / 1000))
            return CalendarDate(year: parts.year!, month: parts.month!, day: parts.day!)
        }

        static func days(inMonth month: Int, year: Int) -> Int {
            switch month {
            case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        }

        public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
            (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
        }

        public var text: String { String(format: "%04d-%02d-%02d", year, month, day) }
    }

    /// A birth date that is a real date, in the past, and at least 18 years before `today` (someone born on
    /// 29 February comes of age on 1 March in common years).
    public static func birthDateViolation(_ text: String, today: CalendarDate, field: String = "birthDate")
        -> FieldViolation? {
        if text.isEmpty { return FieldViolation(field: field, code: "required", message: "\(field) is required") }
        guard let date = CalendarDate(text) else {
            return FieldViolation(field: field, code: "invalid_date", message: "\(field) must be a date YYYY-MM-DD")
        }
        guard date < today else {
            return FieldViolation(field: field, code: "birth_date_in_future", message: "\(field) must be in the past")
        }
        let comesOfAge = CalendarDate(year: date.year + 18, month: date.month, day: date.day)
        guard comesOfAge <= today else {
            return FieldViolation(field: field, code: "underage", message: "staff must be at least 18 years old")
        }
        return nil
    }
}

/// Field violations collected while checking one request.
struct ViolationList {
    private(set) var violations: [FieldViolation] = []

    mutating func add(_ violation: FieldViolation?) {
        if let violation { violations.append(violation) }
    }

    /// Throws `invalid_argument`: with the violation's own code when there is one, `validation_failed` listing them
    /// all when there are several.
    func throwIfAny() throws {
        guard let first = violations.first else { return }
        if violations.count == 1 {
            throw ServiceError.invalidArgument(field: first.field, code: first.code, message: first.message)
        }
        throw ServiceError(status: .invalidArgument, code: "validation_failed",
                           message: "\(violations.count) fields are invalid", violations: violations)
    }
}
