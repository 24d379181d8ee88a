import AppointmentKit
import KYCMessages
import Messaging
import Testing

/// Every rule of the booking form, one row each: the bad value, the field it names and the code.
@Suite("Booking validation")
struct BookingValidationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        let field: String
        let code: String
        let change: @Sendable (inout BookAppointmentRequest) -> Void
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "bad TCKN checksum", field: "identityNo", code: "invalid_identity_number") { $0.identityNo = "10000000147" },
        Case(label: "TCKN with letters", field: "identityNo", code: "invalid_identity_number") { $0.identityNo = "1000000014A" },
        Case(label: "unknown identity type", field: "identityType", code: "unknown_identity_type") { $0.identityType = "Ehliyet" },
        Case(label: "short passport", field: "identityNo", code: "invalid_passport_number") {
            $0.identityType = "Pasaport"; $0.identityNo = "AB1" },
        Case(label: "foreign ID not starting 99", field: "identityNo", code: "invalid_identity_number") {
            $0.identityType = "FOREIGN_ID"; $0.identityNo = "10000000146" },
        Case(label: "phone letters", field: "phone", code: "not_a_phone_number") { $0.phone = "call me" },
        Case(label: "phone too short", field: "phone", code: "invalid_phone_number") { $0.phone = "0532 12" },
        Case(label: "e-mail without domain", field: "email", code: "invalid_email") { $0.email = "ayse@" },
        Case(label: "missing name", field: "name", code: "required") { $0.name = "  " },
        Case(label: "missing uId", field: "uId", code: "required") { $0.uid = "" },
        Case(label: "uId with spaces", field: "uId", code: "invalid_format") { $0.uid = "a b" },
        Case(label: "date format", field: "date", code: "invalid_date") { $0.date = "02.12.2026" },
        Case(label: "impossible date", field: "date", code: "invalid_date") { $0.date = "2026-02-30" },
        Case(label: "time format", field: "startTime", code: "invalid_time") { $0.startTime = "10.00" },
        Case(label: "off the 15-minute grid", field: "startTime", code: "not_on_slot_grid") { $0.startTime = "10:07" },
        Case(label: "before opening", field: "startTime", code: "outside_working_hours") { $0.startTime = "08:45" },
        Case(label: "slot would end after closing", field: "startTime", code: "outside_working_hours") { $0.startTime = "17:50" },
        Case(label: "Saturday", field: "startTime", code: "outside_working_hours") { $0.date = "2026-12-05" },
        Case(label: "inside minimum notice", field: "startTime", code: "too_soon") { $0.date = "2026-12-01"; $0.startTime = "10:45" },
        Case(label: "in the past", field: "startTime", code: "too_soon") { $0.date = "2026-11-30"; $0.startTime = "10:00" },
        Case(label: "beyond 30-day horizon", field: "date", code: "beyond_horizon") { $0.date = "2027-01-05" },
    ]

    @Test(arguments: cases)
    func badFieldIsA422NamingIt(_ row: Case) throws {
        let fixture = try AppointmentFixture()
        var request = AppointmentFixture.booking()
        row.change(&request)
        let reply = fixture.book(request)
        #expect(reply.status == .invalidArgument)
        #expect(reply.violations.map(\.field) == [row.field])
        #expect(reply.effectiveErrorCode == row.code)
        // Nothing was booked.
        #expect(fixture.book(AppointmentFixture.booking(uid: "ok")).status == .ok)
    }

    @Test func everyBadFieldIsReportedAtOnce() throws {
        let fixture = try AppointmentFixture()
        var request = AppointmentFixture.booking()
        request.identityNo = "12345678901"
        request.email = "nope"
        request.phone = "x"
        let reply = fixture.book(request)
        #expect(reply.effectiveErrorCode == "validation_failed")
        #expect(Set(reply.violations.map(\.field)) == ["identityNo", "email", "phone"])
    }

    @Test func identityTypeCodeAndDisplayNameAreTheSameIdentity() throws {
        let fixture = try AppointmentFixture()
        _ = try fixture.bookedAppointment(AppointmentFixture.booking(uid: "a", identityType: "TCKN"))
        let second = fixture.book(AppointmentFixture.booking(uid: "b", identityType: "T.C. Kimlik Kartı", time: "11:00"))
        #expect(second.effectiveErrorCode == "already_booked")
    }

    @Test func closedDatesAreRefused() throws {
        let fixture = try AppointmentFixture()
        var calendar = CalendarRules.platformDefault
        calendar.closedDates = ["2026-12-02"]
        #expect(fixture.putCalendar(calendar).status == .ok)
        let reply = fixture.book(AppointmentFixture.booking())
        #expect(reply.effectiveErrorCode == "date_closed")
        #expect(reply.violations.first?.field == "date")
    }
}
