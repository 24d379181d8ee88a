import Foundation
import KYCMessages
import Messaging
import Validation

/// A booking request checked field by field and normalised (E.164 phone, canonical identity), before any slot or
/// capacity rule is applied. Every bad field is reported at once.
struct BookingForm: Equatable {
    let uid: String
    let callType: String
    let date: LocalDate
    let startTime: LocalTime
    let identity: CustomerIdentity
    let name: String
    let surname: String
    let phone: String
    let email: String
    let isPriorityCustomer: Bool

    static let maximumNameLength = 100
    static let maximumUIDLength = 64

    /// Validates `request` from `principal`; throws `ServiceError` (422 with every violation, or 403).
    init(_ request: BookAppointmentRequest, principal: Principal) throws {
        var found: [FieldViolation] = []
        func add(_ field: String, _ code: String, _ message: String) {
            found.append(FieldViolation(field: field, code: code, message: message))
        }
        if request.uid.isEmpty {
            add("uId", "required", "uId is required (the client's idempotency key)")
        } else if !Self.isValidUID(request.uid) {
            add("uId", "invalid_format", "uId must be 1 to 64 letters, digits, '-', '_', '.' or ':'")
        }
        if request.callType.isEmpty { add("callType", "required", "callType is required") }
        let date = LocalDate(parsing: request.date)
        if request.date.isEmpty { add("date", "required", "date is required") }
        else if date == nil { add("date", "invalid_date", "date must be YYYY-MM-DD") }
        let time = LocalTime(parsing: request.startTime)
        if request.startTime.isEmpty { add("startTime", "required", "startTime is required") }
        else if time == nil { add("startTime", "invalid_time", "startTime must be HH:mm") }

        var identity: CustomerIdentity?
        switch try CallerIdentity.resolve(principal, identityType: request.identityType,
                                          identityNo: request.identityNo) {
        case let .identity(resolved): identity = resolved
        case let .invalid(violations): found += violations
        }
        // A session's backend-declared name is used when the app leaves the name out.
        let sessionName = principal.kind == .session ? principal.identity : nil
        let name = Self.clean(request.name.isEmpty ? sessionName?.name ?? "" : request.name)
        let surname = Self.clean(request.surname.isEmpty ? sessionName?.surname ?? "" : request.surname)
        for (field, value) in [("name", name), ("surname", surname)] {
            if value.isEmpty { add(field, "required", "\(field) is required") }
            else if value.count > Self.maximumNameLength {
                add(field, "too_long", "\(field) must be at most \(Self.maximumNameLength) characters")
            } else if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                add(field, "invalid_characters", "\(field) must not contain control characters")
            }
        }
        var phone = ""
        if request.phone.isEmpty { add("phone", "required", "phone is required") }
        else {
            do { phone = try PhoneNumber.normalizeE164(request.phone) }
            catch { add(error.field, error.code, error.message) }
        }
        var email = ""
        if request.email.isEmpty { add("email", "required", "email is required") }
        else {
            do { email = try EmailAddress.validate(request.email) }
            catch { add(error.field, error.code, error.message) }
        }
        guard found.isEmpty, let date, let time, let identity else { throw AppointmentFailure.violations(found) }
        self.uid = request.uid
        self.callType = request.callType
        self.date = date
        self.startTime = time
        self.identity = identity
        self.name = name
        self.surname = surname
        self.phone = phone
        self.email = email
        // Priority comes from the customer backend: the session's declared identity, or an API key's own flag.
        switch principal.kind {
        case .session: self.isPriorityCustomer = principal.identity?.isPriorityCustomer ?? false
        default: self.isPriorityCustomer = request.prioritySpecified && request.isPriorityCustomer
        }
    }

    /// The normalised form compared when a client repeats a `uId`: the same booking, however it was spelled.
    var fingerprint: String {
        [callType, date.description, startTime.description, identity.type.rawValue, identity.number, name, surname,
         phone, email.lowercased(), isPriorityCustomer ? "1" : "0"].joined(separator: "\u{1F}")
    }

    static func isValidUID(_ text: String) -> Bool {
        (1...maximumUIDLength).contains(text.utf8.count) && text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: ":")
        }
    }

    private static func clean(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
