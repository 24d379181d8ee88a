import AppointmentKit
import Foundation
import KYCMessages
import Messaging
import Testing

@Suite("Booking")
struct BookingTests {
    @Test func bookingStoresUTCAndShowsTheCalendarZoneWithOffset() throws {
        let fixture = try AppointmentFixture()
        let appointment = try fixture.bookedAppointment(AppointmentFixture.booking())
        #expect(appointment.uid == "u-1")
        #expect(appointment.startDate == "2026-12-02T10:00:00+03:00")
        #expect(appointment.endDate == "2026-12-02T10:15:00+03:00")
        #expect(appointment.startUnixMs == TestClock.parse("2026-12-02T07:00:00Z"))
        #expect(appointment.status == "active")
        #expect(appointment.identityType == "T.C. Kimlik Kartı")
        #expect(appointment.phone == "+905321234567")
        #expect(appointment.callTypeName == "Remote onboarding video call")
        #expect(appointment.isPriorityCustomer == false)
    }

    @Test func repeatingAUIDWithTheSameBodyReturnsTheSameAppointment() throws {
        let fixture = try AppointmentFixture()
        let first = try BookAppointmentReply(serialized: fixture.book(AppointmentFixture.booking()).payload)
        #expect(first.created)
        // Same booking, spelled differently (phone in E.164, identity type by its display name).
        var again = AppointmentFixture.booking()
        again.phone = "+90 532 123 4567"
        again.identityType = "T.C. Kimlik Kartı"
        let replay = fixture.book(again)
        #expect(replay.status == .ok)
        let second = try BookAppointmentReply(serialized: replay.payload)
        #expect(second.created == false)
        #expect(second.appointment == first.appointment)
    }

    @Test func repeatingAUIDWithADifferentBodyIsAnIdempotencyConflict() throws {
        let fixture = try AppointmentFixture()
        _ = try fixture.bookedAppointment(AppointmentFixture.booking())
        let reply = fixture.book(AppointmentFixture.booking(time: "10:15"))
        #expect(reply.status == .alreadyExists)
        #expect(reply.effectiveErrorCode == "idempotency_conflict")
    }

    @Test func uidsAreScopedByTenant() throws {
        let fixture = try AppointmentFixture()
        _ = try fixture.bookedAppointment(AppointmentFixture.booking())
        let other = fixture.book(AppointmentFixture.booking(time: "11:00"), tenant: "globex")
        #expect(other.status == .ok)
        #expect(try BookAppointmentReply(serialized: other.payload).created)
    }

    @Test func aFullSlotIsRefusedAndLeavesTheAvailability() throws {
        let fixture = try AppointmentFixture()
        _ = try fixture.bookedAppointment(AppointmentFixture.booking(uid: "a", identityNo: AppointmentFixture.identityNumber(1)))
        let request = AvailabilityRequest(callType: "onboarding", startDate: "2026-12-02", endDate: "2026-12-02")
        #expect(try fixture.availability(request).slots.first { $0.startTime == "10:00" }?.count == 1)
        _ = try fixture.bookedAppointment(AppointmentFixture.booking(uid: "b", identityNo: AppointmentFixture.identityNumber(2)))
        let third = fixture.book(AppointmentFixture.booking(uid: "c", identityNo: AppointmentFixture.identityNumber(3)))
        #expect(third.status == .failedPrecondition)
        #expect(third.effectiveErrorCode == "slot_full")
        #expect(try fixture.availability(request).slots.contains { $0.startTime == "10:00" } == false)
        var withFull = request
        withFull.includeFull = true
        let full = try #require(try fixture.availability(withFull).slots.first { $0.startTime == "10:00" })
        #expect(full.count == 0)
        #expect(full.capacity == 2)
    }

    @Test func oneActiveAppointmentPerIdentityAndCallType() throws {
        let fixture = try AppointmentFixture()
        _ = try fixture.bookedAppointment(AppointmentFixture.booking(uid: "a"))
        let second = fixture.book(AppointmentFixture.booking(uid: "b", time: "11:00"))
        #expect(second.effectiveErrorCode == "already_booked")
        #expect(second.status == .failedPrecondition)
        let otherType = fixture.book(AppointmentFixture.booking(uid: "c", time: "11:00", callType: "reverification"))
        #expect(otherType.status == .ok)
    }

    @Test func aPastAppointmentNoLongerBlocksANewOne() throws {
        let fixture = try AppointmentFixture()
        _ = try fixture.bookedAppointment(AppointmentFixture.booking(uid: "a"))
        fixture.clock.set("2026-12-02T08:00:00Z")
        let next = fixture.book(AppointmentFixture.booking(uid: "b", date: "2026-12-03"))
        #expect(next.status == .ok)
        let list = try ListAppointmentsReply(serialized: fixture.call("ListAppointments", ListAppointmentsRequest(
            identityType: "TCKN", identityNo: "10000000146").serialized()).payload)
        #expect(list.appointments.map(\.uid) == ["b", "a"])
        #expect(list.appointments.map(\.status) == ["active", "past"])
    }

    @Test func unknownCallTypeIsAFieldError() throws {
        let fixture = try AppointmentFixture()
        let reply = fixture.book(AppointmentFixture.booking(callType: "vip"))
        #expect(reply.status == .invalidArgument)
        #expect(reply.violations.first?.field == "callType")
        #expect(reply.effectiveErrorCode == "unknown_call_type")
    }

    @Test func malformedPayloadsAreInvalidArgumentsNotCrashes() throws {
        let fixture = try AppointmentFixture()
        for method in ["Book", "Cancel", "ListAppointments", "Availability", "Agenda", "AdminPutCalendar",
                       "AdminPutCallTypes", "AdminGetCalendar"] {
            let reply = fixture.call(method, [0x0A, 0x09, 0x41], principal: AppointmentFixture.admin)
            #expect(reply.status == .invalidArgument, "\(method)")
            #expect(reply.effectiveErrorCode == "malformed_payload", "\(method)")
        }
    }

    @Test func appointmentsSurviveReopeningTheDatabase() throws {
        let fixture = try AppointmentFixture()
        let booked = try fixture.bookedAppointment(AppointmentFixture.booking())
        let reopened = try fixture.reopened()
        let reply = fixture.call("ListAppointments", ListAppointmentsRequest(identityType: "TCKN",
                                                                              identityNo: "10000000146").serialized(),
                                 router: reopened)
        #expect(try ListAppointmentsReply(serialized: reply.payload).appointments == [booked])
    }

    @Test func concurrentBookingsOnTwoConnectionsNeverExceedCapacity() async throws {
        let fixture = try AppointmentFixture()
        let second = try fixture.reopened()  // another connection to the same file, like another process
        let results = await withTaskGroup(of: String.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let reply = fixture.call("Book", AppointmentFixture.booking(
                        uid: "r\(index)", identityNo: AppointmentFixture.identityNumber(100 + index)).serialized(),
                        router: index % 2 == 0 ? fixture.router : second)
                    return reply.status == .ok ? "ok" : reply.effectiveErrorCode
                }
            }
            var collected: [String] = []
            for await result in group { collected.append(result) }
            return collected
        }
        #expect(results.filter { $0 == "ok" }.count == 2)
        #expect(results.filter { $0 == "slot_full" }.count == 18)
    }
}
