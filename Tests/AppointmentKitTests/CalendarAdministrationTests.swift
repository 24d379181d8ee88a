import AppointmentKit
import KYCMessages
import Messaging
import Testing

@Suite("Calendar administration")
struct CalendarAdministrationTests {
    @Test func everyCallTypeStartsWithThePlatformDefaultCalendar() throws {
        let fixture = try AppointmentFixture()
        for callType in ["onboarding", "corporate_onboarding"] {
            let reply = fixture.call("AdminGetCalendar", CalendarRequest(callType: callType).serialized(),
                                     principal: AppointmentFixture.admin)
            let calendar = try CalendarReply(serialized: reply.payload)
            #expect(calendar.customized == false)
            #expect(calendar.calendar == CalendarRules.platformDefault)
        }
        let unknown = fixture.call("AdminGetCalendar", CalendarRequest(callType: "vip").serialized())
        #expect(unknown.status == .notFound)
    }

    @Test func invalidCalendarsNameEveryBadField() throws {
        let fixture = try AppointmentFixture()
        var calendar = CalendarRules.platformDefault
        calendar.timeZone = "Mars/Olympus"
        calendar.capacity = 0
        calendar.workingHours.append(WorkingHours(weekday: 1, opens: "17:00", closes: "19:00"))
        calendar.workingHours.append(WorkingHours(weekday: 8, opens: "09:00", closes: "10:00"))
        calendar.closedDates = ["2026-13-01"]
        let reply = fixture.putCalendar(calendar)
        #expect(reply.status == .invalidArgument)
        #expect(Set(reply.violations.map(\.field)) == ["timeZone", "capacity", "workingHours[5]", "workingHours[6].weekday",
                                                        "closedDates[0]"])
    }

    @Test func aChangeThatWouldStrandBookingsIsRefusedUnlessForced() throws {
        let fixture = try AppointmentFixture()
        _ = try fixture.bookedAppointment(AppointmentFixture.booking(uid: "first", identityNo: AppointmentFixture.identityNumber(1)))
        var vip = AppointmentFixture.booking(uid: "vip", identityNo: AppointmentFixture.identityNumber(2))
        vip.prioritySpecified = true
        vip.isPriorityCustomer = true
        _ = try fixture.bookedAppointment(vip)
        var smaller = CalendarRules.platformDefault
        smaller.capacity = 1
        let refused = fixture.putCalendar(smaller)
        #expect(refused.status == .failedPrecondition)
        #expect(refused.effectiveErrorCode == "bookings_stranded")
        // Nothing changed.
        let unchanged = fixture.call("AdminGetCalendar", CalendarRequest(callType: "onboarding").serialized())
        #expect(try CalendarReply(serialized: unchanged.payload).calendar.capacity == 2)

        let forced = fixture.putCalendar(smaller, force: true)
        let reply = try CalendarReply(serialized: forced.payload)
        #expect(reply.cancelledAppointments == 1)
        #expect(reply.customized)
        // The priority customer keeps the place; the other booking is cancelled with the reason recorded.
        let list = fixture.call("ListAppointments", ListAppointmentsRequest(
            identityType: "TCKN", identityNo: AppointmentFixture.identityNumber(1)).serialized())
        let stranded = try #require(try ListAppointmentsReply(serialized: list.payload).appointments.first)
        #expect(stranded.status == "cancelled")
        #expect(stranded.cancelReason == "calendar_changed")
    }

    @Test func changingHoursOrZoneStrandsBookingsOutsideTheNewSlots() throws {
        let fixture = try AppointmentFixture()
        _ = try fixture.bookedAppointment(AppointmentFixture.booking(time: "17:00"))
        var shorter = CalendarRules.platformDefault
        shorter.workingHours = (1...5).map { WorkingHours(weekday: Int32($0), opens: "09:00", closes: "17:00") }
        #expect(fixture.putCalendar(shorter).effectiveErrorCode == "bookings_stranded")
        var berlin = CalendarRules.platformDefault
        berlin.timeZone = "Europe/Berlin"  // 17:00 Istanbul is 15:00 Berlin: still a slot
        #expect(fixture.putCalendar(berlin).status == .ok)
        var london = CalendarRules.platformDefault
        london.timeZone = "Europe/London"
        london.slotMinutes = 20  // 14:00 London is on a 20-minute grid from 09:00? 300 min / 20 = 15: yes
        #expect(fixture.putCalendar(london).status == .ok)
        london.slotMinutes = 40  // 300 / 40 is not whole: stranded
        #expect(fixture.putCalendar(london).effectiveErrorCode == "bookings_stranded")
    }

    @Test func capacityChangesApplyToNewBookings() throws {
        let fixture = try AppointmentFixture()
        var bigger = CalendarRules.platformDefault
        bigger.capacity = 3
        #expect(fixture.putCalendar(bigger).status == .ok)
        for index in 0..<3 {
            _ = try fixture.bookedAppointment(AppointmentFixture.booking(uid: "u\(index)",
                                                                         identityNo: AppointmentFixture.identityNumber(index)))
        }
        #expect(fixture.book(AppointmentFixture.booking(uid: "u9", identityNo: AppointmentFixture.identityNumber(9)))
            .effectiveErrorCode == "slot_full")
    }

    @Test func callTypesCanBeReplacedButNotSilentlyDropped() throws {
        let fixture = try AppointmentFixture()
        let initial = try AdminCallTypesReply(serialized: fixture.call("AdminGetCallTypes", []).payload)
        #expect(initial.customized == false)
        #expect(initial.callTypes.map(\.code) == ["onboarding", "reverification", "limit_increase",
                                                  "corporate_onboarding", "representative"])
        _ = try fixture.bookedAppointment(AppointmentFixture.booking(callType: "reverification"))
        let replacement = [CallType(code: "onboarding", name: "Görüntülü görüşme", handler: "KYC"),
                           CallType(code: "corporate_onboarding", name: "Kurumsal", handler: "KYB")]
        let refused = fixture.call("AdminPutCallTypes", PutCallTypesRequest(callTypes: replacement).serialized())
        #expect(refused.effectiveErrorCode == "call_type_in_use")
        let forced = fixture.call("AdminPutCallTypes", PutCallTypesRequest(callTypes: replacement, force: true)
            .serialized())
        let reply = try AdminCallTypesReply(serialized: forced.payload)
        #expect(reply.customized)
        #expect(reply.cancelledAppointments == 1)
        #expect(reply.callTypes.map(\.code) == ["onboarding", "corporate_onboarding"])
        let kyc = try ListCallTypesReply(serialized: fixture.call("ListCallTypes", ListCallTypesRequest().serialized())
            .payload)
        #expect(kyc.callTypes == [CallType(code: "onboarding", name: "Görüntülü görüşme", handler: "KYC")])
        // The cancelled appointment keeps its call type's name; the removed type cannot be booked any more.
        let list = try ListAppointmentsReply(serialized: fixture.call("ListAppointments", ListAppointmentsRequest(
            identityType: "TCKN", identityNo: "10000000146").serialized()).payload)
        #expect(list.appointments.first?.cancelReason == "call_type_removed")
        #expect(list.appointments.first?.callTypeName == "Identity re-verification")
        #expect(fixture.book(AppointmentFixture.booking(uid: "n", callType: "reverification")).effectiveErrorCode
            == "unknown_call_type")
        // Other tenants keep the defaults.
        let globex = try AdminCallTypesReply(serialized: fixture.call("AdminGetCallTypes", [], tenant: "globex").payload)
        #expect(globex.callTypes.count == 5)
    }

    @Test func invalidCallTypeListsAreFieldErrors() throws {
        let fixture = try AppointmentFixture()
        let reply = fixture.call("AdminPutCallTypes", PutCallTypesRequest(callTypes: [
            CallType(code: "Bad Code", name: "x", handler: "KYC"),
            CallType(code: "ok", name: "", handler: "VIP"),
        ]).serialized())
        #expect(Set(reply.violations.map(\.field)) == ["callTypes[0].code", "callTypes[1].name", "callTypes[1].handler"])
    }
}

@Suite("Slot calendar")
struct SlotCalendarTests {
    @Test func daylightSavingGapsHaveNoSlotAndOffsetsFollowTheSeason() throws {
        var settings = CalendarRules.platformDefault
        settings.timeZone = "Europe/Berlin"
        settings.workingHours = (1...7).map { WorkingHours(weekday: Int32($0), opens: "00:00", closes: "24:00") }
        settings.slotMinutes = 30
        let calendar = try #require(SlotCalendar(settings))
        // 28 March 2027: clocks jump from 02:00 to 03:00 in Berlin.
        let day = try #require(LocalDate(parsing: "2027-03-28"))
        let times = calendar.slots(on: day).map(\.startTime.description)
        #expect(!times.contains("02:00") && !times.contains("02:30"))
        #expect(times.count == 46)
        let winterDay = try #require(LocalDate(parsing: "2027-01-10"))
        let summerDay = try #require(LocalDate(parsing: "2027-07-10"))
        let winter = try #require(calendar.instant(winterDay, LocalTime(minutes: 600)))
        let summer = try #require(calendar.instant(summerDay, LocalTime(minutes: 600)))
        #expect(calendar.iso8601(winter) == "2027-01-10T10:00:00+01:00")
        #expect(calendar.iso8601(summer) == "2027-07-10T10:00:00+02:00")
        #expect(calendar.isoWeekday(day) == 7)
    }

    @Test func splitDaysMakeTwoRunsOfSlots() throws {
        var settings = CalendarRules.platformDefault
        settings.workingHours = [WorkingHours(weekday: 2, opens: "09:00", closes: "10:00"),
                                 WorkingHours(weekday: 2, opens: "13:00", closes: "13:30")]
        settings.slotMinutes = 30
        let calendar = try #require(SlotCalendar(settings))
        let tuesday = try #require(LocalDate(parsing: "2026-12-01"))
        #expect(calendar.slots(on: tuesday).map(\.startTime.description) == ["09:00", "09:30", "13:00"])
    }
}
