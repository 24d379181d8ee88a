/// The kinds of identity a customer may present, by the names the mobile SDKs send: the Turkish identity card
/// (`"T.C. Kimlik Kartı"`, code `TCKN`), a passport (`"Pasaport"`, `PASSPORT`) or a foreign resident's identity
/// number (`"Yabancı Kimlik"`, `FOREIGN_ID`).
public enum IdentityDocumentType: String, Sendable, CaseIterable {
    case turkishIdentityCard = "TCKN"
    case passport = "PASSPORT"
    case foreignResidentID = "FOREIGN_ID"

    /// Accepts the code or the display name, ignoring case and surrounding spaces.
    public init?(name: String) {
        let key = name.trimmingWhitespace().lowercased()
        switch key {
        case "tckn", "t.c. kimlik kartı", "t.c. kimlik karti", "tc kimlik", "turkish_id": self = .turkishIdentityCard
        case "passport", "pasaport": self = .passport
        case "foreign_id", "yabancı kimlik", "yabanci kimlik", "yabancı kimlik numarası": self = .foreignResidentID
        default: return nil
        }
    }

    /// The display name the SDKs show.
    public var displayName: String {
        switch self {
        case .turkishIdentityCard: "T.C. Kimlik Kartı"
        case .passport: "Pasaport"
        case .foreignResidentID: "Yabancı Kimlik"
        }
    }
}

/// Validates an identity type and number pair, returning the type and the number in canonical form (digits for
/// TCKN and foreign IDs; upper-case letters and digits for passports).
public enum IdentityDocument {
    public static func validate(type: String, number: String, typeField: String = "identityType",
                                numberField: String = "identityNo") throws(ValidationFailure)
        -> (type: IdentityDocumentType, number: String) {
        guard let kind = IdentityDocumentType(name: type) else {
            throw ValidationFailure(field: typeField, code: "unknown_identity_type",
                                    message: "\(typeField) must be one of TCKN, PASSPORT, FOREIGN_ID")
        }
        let trimmed = number.trimmingWhitespace()
        switch kind {
        case .turkishIdentityCard:
            guard TurkishIdentityNumber.isValid(trimmed) else {
                throw ValidationFailure(field: numberField, code: "invalid_identity_number",
                                        message: "\(numberField) is not a valid T.C. identity number")
            }
            return (kind, trimmed)
        case .foreignResidentID:
            guard TurkishIdentityNumber.isForeignResidentNumber(trimmed) else {
                throw ValidationFailure(field: numberField, code: "invalid_identity_number",
                                        message: "\(numberField) is not a valid foreign resident identity number")
            }
            return (kind, trimmed)
        case .passport:
            // ICAO 9303: up to 9 characters of A-Z and 0-9; real passport numbers have at least 6.
            let upper = trimmed.uppercased()
            guard (6...9).contains(upper.utf8.count),
                  upper.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }) else {
                throw ValidationFailure(field: numberField, code: "invalid_passport_number",
                                        message: "\(numberField) must be 6 to 9 letters and digits")
            }
            return (kind, upper)
        }
    }
}
