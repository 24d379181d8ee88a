import Foundation
import KYCMessages
import Testing

/// Golden bytes of the appointment messages, written by Google's protoc (scripts/generate-fixtures) from the
/// `appointment_*.txtpb` files: decoded exactly, and re-encoded to the same bytes.
@Suite("Appointment golden bytes from protoc")
struct AppointmentGoldenBytesTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(name).bin")
        return Array(try Data(contentsOf: url))
    }

    @Test func bookingRequest() throws {
        let bytes = try Self.fixture("appointment_book_request")
        let request = try BookAppointmentRequest(serialized: bytes)
        #expect(request == BookAppointmentRequest(
            callType: "onboarding", date: "2026-12-02", startTime: "10:00", identityType: "T.C. Kimlik Kartı",
            identityNo: "10000000146", name: "Ayşe", surname: "Yılmaz", phone: "0532 123 45 67",
            email: "ayse@example.com", uid: "0f8e7c2a-booking-1", prioritySpecified: true, isPriorityCustomer: true))
        #expect(request.serialized() == bytes)
    }

    @Test func bookingReplyWithTheAppointment() throws {
        let bytes = try Self.fixture("appointment_book_reply")
        let reply = try BookAppointmentReply(serialized: bytes)
        #expect(reply.created == false)
        #expect(reply.appointment.uid == "0f8e7c2a-booking-1")
        #expect(reply.appointment.startUnixMs == 1_796_108_400_000)
        #expect(reply.appointment.startDate == "2026-12-02T10:00:00+03:00")
        #expect(reply.appointment.isPriorityCustomer)
        #expect(reply.appointment.createdUnixMs == 1_796_025_600_123)
        #expect(reply.serialized() == bytes)
    }

    @Test func availabilityReply() throws {
        let bytes = try Self.fixture("appointment_availability_reply")
        let reply = try AvailabilityReply(serialized: bytes)
        #expect(reply == AvailabilityReply(timeZone: "Europe/Istanbul", slots: [
            AvailableSlot(date: "2026-12-02", startTime: "10:00", endTime: "10:15", count: 1, capacity: 2),
            AvailableSlot(date: "2026-12-02", startTime: "10:15", endTime: "10:30", count: 0, capacity: 2),
        ]))
        #expect(reply.serialized() == bytes)
    }

    @Test func calendarRequestWithRepeatedFields() throws {
        let bytes = try Self.fixture("appointment_calendar_request")
        let request = try CalendarRequest(serialized: bytes)
        let calendar = try #require(request.calendar)
        #expect(request.callType == "onboarding")
        #expect(request.force)
        #expect(calendar.workingHours == [WorkingHours(weekday: 1, opens: "09:00", closes: "12:00"),
                                          WorkingHours(weekday: 1, opens: "13:00", closes: "18:00"),
                                          WorkingHours(weekday: 6, opens: "10:00", closes: "24:00")])
        #expect(calendar.closedDates == ["2026-12-31", "2027-01-01"])
        #expect([calendar.slotMinutes, calendar.capacity, calendar.horizonDays, calendar.minimumNoticeMinutes,
                 calendar.cancellationCutoffMinutes] == [20, 4, 14, 120, 60])
        #expect(request.serialized() == bytes)
    }

    @Test func cancelReply() throws {
        let bytes = try Self.fixture("appointment_cancel_reply")
        let reply = try CancelAppointmentReply(serialized: bytes)
        #expect(reply.cancelled)
        #expect(reply.appointment?.cancelReason == "calendar_changed")
        #expect(reply.appointment?.status == "cancelled")
        #expect(reply.serialized() == bytes)
        // No appointment: the field is left out entirely.
        #expect(try CancelAppointmentReply(serialized: CancelAppointmentReply(cancelled: false, appointment: nil)
            .serialized()).appointment == nil)
    }

    @Test func putCallTypesRequest() throws {
        let bytes = try Self.fixture("appointment_put_call_types_request")
        let request = try PutCallTypesRequest(serialized: bytes)
        #expect(request == PutCallTypesRequest(callTypes: [
            CallType(code: "onboarding", name: "Görüntülü görüşme", handler: "KYC"),
            CallType(code: "corporate_onboarding", name: "Kurumsal", handler: "KYB"),
        ]))
        #expect(request.serialized() == bytes)
    }

    @Test func truncatedAppointmentMessagesAreErrorsNotCrashes() throws {
        let bytes = try Self.fixture("appointment_book_reply")
        for length in [1, 5, bytes.count / 2, bytes.count - 1] {
            #expect(throws: (any Error).self) { try BookAppointmentReply(serialized: Array(bytes.prefix(length))) }
        }
    }
}
