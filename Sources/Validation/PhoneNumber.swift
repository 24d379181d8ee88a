import CPhoneNumber

/// Phone numbers through Google's libphonenumber: parsed with a default region for national formats
/// ("0532 123 45 67" in TR), checked for validity, and normalised to E.164 ("+905321234567").
public enum PhoneNumber {
    /// The E.164 form of `text`, or a failure naming `field` (`not_a_phone_number` or `invalid_phone_number`).
    public static func normalizeE164(_ text: String, defaultRegion: String = "TR", field: String = "phone")
        throws(ValidationFailure) -> String {
        guard text.utf8.count <= 64 else {
            throw ValidationFailure(field: field, code: "not_a_phone_number", message: "\(field) is too long")
        }
        var buffer = [CChar](repeating: 0, count: 32)
        let status = kyc_phone_normalize_e164(text, defaultRegion, &buffer, buffer.count)
        switch status {
        case KYC_PHONE_OK:
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        case KYC_PHONE_INVALID:
            throw ValidationFailure(field: field, code: "invalid_phone_number",
                                    message: "\(field) is not a valid phone number")
        default:
            throw ValidationFailure(field: field, code: "not_a_phone_number",
                                    message: "\(field) is not a phone number")
        }
    }
}
