import AppointmentKit
import KYCMessages
import Messaging
import Testing

@Suite("Cancellation and who may act")
struct CancellationAndAccessTests {
    func cancel(_ fixture: AppointmentFixture, _ request: CancelAppointmentRequest,
                principal: Principal = AppointmentFixture.backend) -> ReplyEnvelope {
        fixture.call("Cancel", request.serialized(), principal: principal)
    }

    @Test func cancellingByIdentityFreesThePlace() throws {
        let fixture = try AppointmentFixture()
        _ = try fixture.bookedAppointment(AppointmentFixture.booking())
        let reply = cancel(fixture, CancelAppointmentRequest(callType: "onboarding", identityType: "TCKN",
                                                             identityNo: "10000000146"))
        let result = try CancelAppointmentReply(serialized: reply.payload)
        #expect(result.cancelled)
        #expect(result.appointment?.status == "cancelled")
        #expect(result.appointment?.cancelReason == "cancelled_by_backend")
        let slots = try fixture.availability(AvailabilityRequest(callType: "onboarding", startDate: "2026-12-02",
                                                                 endDate: "2026-12-02"))
        #expect(slots.slots.first { $0.startTime == "10:00" }?.count == 2)
        // Nothing active any more: cancelled false, not an error.
        let again = cancel(fixture, CancelAppointmentRequest(callType: "onboarding", identityType: "TCKN",
                                                             identityNo: "10000000146"))
        #expect(again.status == .ok)
        #expect(try CancelAppointmentReply(serialized: again.payload).cancelled == false)
    }

    @Test func cancellingAfterTheCutoffIsRefused() throws {
        let fixture = try AppointmentFixture()
        _ = try fixture.bookedAppointment(AppointmentFixture.booking())  // 2026-12-02 10:00 +03:00
        fixture.clock.set("2026-12-02T06:31:00Z")  // 29 minutes before the start
        let late = cancel(fixture, CancelAppointmentRequest(uid: "u-1"))
        #expect(late.status == .failedPrecondition)
        #expect(late.effectiveErrorCode == "cancellation_window_closed")
        fixture.clock.set("2026-12-02T06:30:00Z")  // exactly at the cut-off: still allowed
        #expect(try CancelAppointmentReply(serialized: cancel(fixture, CancelAppointmentRequest(uid: "u-1")).payload)
            .cancelled)
    }

    @Test func cancellingAnUnknownUIDIsNotFound() throws {
        let fixture = try AppointmentFixture()
        let reply = cancel(fixture, CancelAppointmentRequest(uid: "nope"))
        #expect(reply.status == .notFound)
        #expect(reply.effectiveErrorCode == "appointment_not_found")
    }

    @Test func aSessionSeesAndBooksOnlyItsOwnIdentity() throws {
        let fixture = try AppointmentFixture()
        let session = AppointmentFixture.session("10000000146")
        let other = AppointmentFixture.identityNumber(7)
        let foreign = fixture.book(AppointmentFixture.booking(identityNo: other), principal: session)
        #expect(foreign.status == .permissionDenied)
        #expect(foreign.effectiveErrorCode == "identity_mismatch")
        let listOther = fixture.call("ListAppointments", ListAppointmentsRequest(identityType: "TCKN", identityNo: other)
            .serialized(), principal: session)
        #expect(listOther.effectiveErrorCode == "identity_mismatch")
        // Its own identity, named or left out.
        _ = try fixture.bookedAppointment(AppointmentFixture.booking(), principal: session)
        let own = fixture.call("ListAppointments", ListAppointmentsRequest().serialized(), principal: session)
        #expect(try ListAppointmentsReply(serialized: own.payload).appointments.map(\.uid) == ["u-1"])
    }

    @Test func aSessionCannotCancelAnotherIdentitysAppointment() throws {
        let fixture = try AppointmentFixture()
        _ = try fixture.bookedAppointment(AppointmentFixture.booking(uid: "theirs",
                                                                     identityNo: AppointmentFixture.identityNumber(9)))
        let session = AppointmentFixture.session("10000000146")
        let byUID = cancel(fixture, CancelAppointmentRequest(uid: "theirs"), principal: session)
        #expect(byUID.status == .notFound)
        let byIdentity = cancel(fixture, CancelAppointmentRequest(callType: "onboarding", identityType: "TCKN",
                                                                  identityNo: AppointmentFixture.identityNumber(9)),
                                principal: session)
        #expect(byIdentity.status == .permissionDenied)
        let stillThere = fixture.call("ListAppointments", ListAppointmentsRequest(
            identityType: "TCKN", identityNo: AppointmentFixture.identityNumber(9)).serialized())
        #expect(try ListAppointmentsReply(serialized: stillThere.payload).appointments.first?.status == "active")
    }

    @Test func aSessionWithoutIdentityIsRefused() throws {
        let fixture = try AppointmentFixture()
        let anonymous = Principal(kind: .session, id: "ses_x", scopes: ["appointments"])
        #expect(fixture.book(AppointmentFixture.booking(), principal: anonymous).effectiveErrorCode
            == "session_without_identity")
    }

    @Test func priorityComesFromTheBackendNeverFromTheMobileBody() throws {
        let fixture = try AppointmentFixture()
        // A mobile body claiming priority is ignored: the session's identity says no.
        var claim = AppointmentFixture.booking(uid: "m1")
        claim.prioritySpecified = true
        claim.isPriorityCustomer = true
        #expect(try fixture.bookedAppointment(claim, principal: AppointmentFixture.session("10000000146"))
            .isPriorityCustomer == false)
        // The backend declared it on the session.
        let vip = AppointmentFixture.identityNumber(11)
        #expect(try fixture.bookedAppointment(AppointmentFixture.booking(uid: "m2", identityNo: vip),
                                              principal: AppointmentFixture.session(vip, priority: true))
            .isPriorityCustomer)
        // An API key states it in the request.
        var backend = AppointmentFixture.booking(uid: "b1", identityNo: AppointmentFixture.identityNumber(12), time: "10:15")
        backend.prioritySpecified = true
        backend.isPriorityCustomer = true
        #expect(try fixture.bookedAppointment(backend).isPriorityCustomer)
    }

    @Test func theAgendaListsPriorityCustomersFirstWithinASlot() throws {
        let fixture = try AppointmentFixture()
        _ = try fixture.bookedAppointment(AppointmentFixture.booking(uid: "regular", identityNo: AppointmentFixture.identityNumber(1)))
        var vip = AppointmentFixture.booking(uid: "vip", identityNo: AppointmentFixture.identityNumber(2))
        vip.prioritySpecified = true
        vip.isPriorityCustomer = true
        _ = try fixture.bookedAppointment(vip)
        _ = try fixture.bookedAppointment(AppointmentFixture.booking(uid: "early", identityNo: AppointmentFixture.identityNumber(3), time: "09:30"))
        _ = try fixture.bookedAppointment(AppointmentFixture.booking(uid: "other-day", identityNo: AppointmentFixture.identityNumber(4), date: "2026-12-03"))
        _ = try fixture.bookedAppointment(AppointmentFixture.booking(uid: "gone", identityNo: AppointmentFixture.identityNumber(5), time: "11:00"))
        _ = fixture.call("Cancel", CancelAppointmentRequest(uid: "gone").serialized())
        let reply = fixture.call("Agenda", AgendaRequest(callType: "onboarding", date: "2026-12-02").serialized())
        let agenda = try AgendaReply(serialized: reply.payload)
        #expect(agenda.appointments.map(\.uid) == ["early", "vip", "regular"])
        #expect(agenda.timeZone == "Europe/Istanbul")
    }

    @Test func availabilityRangesLongerThan31DaysAreRefused() throws {
        let fixture = try AppointmentFixture()
        let reply = fixture.call("Availability", AvailabilityRequest(callType: "onboarding", startDate: "2026-12-01",
                                                                     endDate: "2027-01-01").serialized())
        #expect(reply.status == .invalidArgument)
        #expect(reply.effectiveErrorCode == "range_too_long")
        #expect(reply.violations.first?.field == "endDate")
        let backwards = fixture.call("Availability", AvailabilityRequest(callType: "onboarding", startDate: "2026-12-05",
                                                                         endDate: "2026-12-01").serialized())
        #expect(backwards.effectiveErrorCode == "invalid_range")
        let garbage = fixture.call("Availability", AvailabilityRequest(callType: "onboarding", startDate: "tomorrow")
            .serialized())
        #expect(garbage.violations.first?.field == "startDate")
    }

    @Test func availabilityRespectsNoticeWorkingDaysAndDateTimes() throws {
        let fixture = try AppointmentFixture()
        // Now is Tuesday 10:00; with 60 minutes' notice the first slot today is 11:00.
        let today = try fixture.availability(AvailabilityRequest(callType: "onboarding", startDate: "2026-12-01",
                                                                 endDate: "2026-12-01"))
        #expect(today.slots.first?.startTime == "11:00")
        #expect(today.slots.last?.startTime == "17:45")
        #expect(today.slots.last?.endTime == "18:00")
        // A weekend has no slots; a date-time range with an offset is honoured.
        let weekend = try fixture.availability(AvailabilityRequest(callType: "onboarding",
                                                                   startDate: "2026-12-05T00:00:00+03:00",
                                                                   endDate: "2026-12-07T09:30:00+03:00"))
        #expect(weekend.slots.map { "\($0.date) \($0.startTime)" } == ["2026-12-07 09:00", "2026-12-07 09:15"])
    }
}
