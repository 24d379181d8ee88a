import Testing
import Validation

@Suite("Turkish identity and tax numbers")
struct TurkishNumberTests {
    @Test(arguments: ["10000000146", "12345678950", "99999999990"])
    func validIdentityNumbers(number: String) {
        #expect(TurkishIdentityNumber.isValid(number))
    }

    @Test(arguments: ["10000000145", "10000000156", "01234567890", "1000000014", "100000001460", "1000000014a",
                      "", "１0000000146"])
    func invalidIdentityNumbers(number: String) {
        #expect(!TurkishIdentityNumber.isValid(number))
    }

    @Test func everySingleDigitChangeOfAValidNumberIsCaught() {
        let valid = Array("10000000146")
        for index in 0..<valid.count {
            for digit in "0123456789" where digit != valid[index] {
                var changed = valid
                changed[index] = digit
                // One changed digit always breaks the 11th check digit (a sum of the first ten, mod 10).
                #expect(!TurkishIdentityNumber.isValid(String(changed)), "\(String(changed)) passed")
            }
        }
    }

    @Test func foreignResidentNumbersStartWith99() {
        #expect(TurkishIdentityNumber.isForeignResidentNumber("99999999990"))
        #expect(!TurkishIdentityNumber.isForeignResidentNumber("10000000146"))
    }

    // Check digits computed by an independent implementation of the Revenue Administration's algorithm.
    @Test(arguments: ["1234567890", "0000000019", "9876543217", "1111111114", "4700440607"])
    func validTaxNumbers(number: String) {
        #expect(TurkishTaxNumber.isValid(number))
    }

    @Test(arguments: ["1234567891", "0000000018", "123456789", "12345678901", "12345a7890", ""])
    func invalidTaxNumbers(number: String) {
        #expect(!TurkishTaxNumber.isValid(number))
    }
}

@Suite("Identity documents")
struct IdentityDocumentTests {
    @Test(arguments: ["T.C. Kimlik Kartı", "TCKN", "tckn", " TCKN "])
    func turkishIdentityCardNames(name: String) throws {
        let result = try IdentityDocument.validate(type: name, number: "10000000146")
        #expect(result.type == .turkishIdentityCard)
    }

    @Test func invalidChecksumNamesTheNumberField() {
        #expect(throws: ValidationFailure(field: "identityNo", code: "invalid_identity_number",
                                          message: "identityNo is not a valid T.C. identity number")) {
            try IdentityDocument.validate(type: "TCKN", number: "10000000145")
        }
    }

    @Test func passportsAreCanonicalUpperCase() throws {
        #expect(try IdentityDocument.validate(type: "Pasaport", number: "u1234567").number == "U1234567")
        #expect(throws: ValidationFailure.self) { try IdentityDocument.validate(type: "PASSPORT", number: "AB12") }
        #expect(throws: ValidationFailure.self) { try IdentityDocument.validate(type: "PASSPORT", number: "AB-123456") }
    }

    @Test func unknownTypesNameTheTypeField() {
        do {
            _ = try IdentityDocument.validate(type: "library card", number: "1")
            Issue.record("accepted")
        } catch {
            #expect(error.field == "identityType")
        }
    }
}

@Suite("Phone numbers and e-mail")
struct ContactTests {
    @Test(arguments: [("0532 123 45 67", "+905321234567"), ("+90 (532) 123-4567", "+905321234567"),
                      ("5321234567", "+905321234567"), ("+44 20 7946 0018", "+442079460018"),
                      ("00905321234567", "+905321234567")])
    func normalisesToE164(input: String, expected: String) throws {
        #expect(try PhoneNumber.normalizeE164(input) == expected)
    }

    @Test(arguments: ["12", "+90 532", "phone", "", String(repeating: "5", count: 80)])
    func refusesNonNumbers(input: String) {
        #expect(throws: ValidationFailure.self) { try PhoneNumber.normalizeE164(input) }
    }

    @Test(arguments: ["ayse@example.com", "a.b+tag@mail.example.com.tr", "x@xn--bcher-kva.example"])
    func validEmails(address: String) {
        #expect(EmailAddress.isValid(address))
    }

    @Test(arguments: ["", "ayse", "ayse@", "@example.com", "a@b", "a b@example.com", "a@@example.com",
                      "a@example..com", "a@-example.com", ".a@example.com", "a@example.c0m"])
    func invalidEmails(address: String) {
        #expect(!EmailAddress.isValid(address))
    }
}
