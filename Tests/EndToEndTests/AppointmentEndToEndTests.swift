import Foundation
import Testing

/// Appointments through the real gateway, broker and AppointmentService processes, over HTTP.
@Suite("Appointments end to end", .serialized)
struct AppointmentEndToEndTests {
    /// 50 clients race for the last 3 places of a slot through two service processes: the database transaction,
    /// not one process's lock, decides, so exactly 3 win and 47 get `slot_full`.
    @Test func fiftyClientsRaceForTheLastThreePlaces() async throws {
        let stack = try StackHarness()
        defer { stack.stopAll() }
        let key = try stack.createAPIKey(tenant: "acme")
        let admin = try stack.createAPIKey(tenant: "acme", admin: true)
        try await stack.startGateway(appointmentWorkers: 2)
        #expect(try await stack.openCalendarEveryDay(adminKey: admin, capacity: 5).status == 200)
        let date = StackHarness.istanbulDate(daysAhead: 3)
        for index in 0..<2 {
            let early = try await stack.request("POST", "/v1/appointments", token: key, body: StackHarness.bookingBody(
                uid: "early-\(index)", identityNo: String(format: "E%07d", index), date: date))
            #expect(early.status == 201)
        }
        let bodies = (0..<50).map { index in
            StackHarness.bookingBody(uid: "race-\(index)", identityNo: String(format: "R%07d", index), date: date)
        }
        let results = try await stack.postConcurrently("/v1/appointments", token: key, bodies: bodies)
        #expect(results.filter { $0.status == 201 }.count == 3)
        #expect(results.filter { $0.status == 409 && $0.code == "slot_full" }.count == 47)

        let available = try await stack.request(
            "GET", "/v1/appointments/available?callType=onboarding&startDate=\(date)&endDate=\(date)&includeFull=true",
            token: key)
        let slots = try #require(available.json["slots"] as? [[String: Any]])
        let slot = try #require(slots.first { $0["startTime"] as? String == "10:00" })
        #expect(slot["count"] as? Int == 0)
        let withoutFull = try await stack.request(
            "GET", "/v1/appointments/available?callType=onboarding&startDate=\(date)&endDate=\(date)", token: key)
        #expect((withoutFull.json["slots"] as? [[String: Any]])?.contains { $0["startTime"] as? String == "10:00" } == false)
        let agenda = try await stack.request("GET", "/v1/agenda?callType=onboarding&date=\(date)", token: key)
        let agendaSlots = try #require(agenda.json["slots"] as? [[String: Any]])
        #expect((agendaSlots.first?["appointments"] as? [Any])?.count == 5)
    }

    @Test func mobileBookingIdempotencyValidationAndCancellationWindow() async throws {
        let stack = try StackHarness()
        defer { stack.stopAll() }
        let key = try stack.createAPIKey(tenant: "acme")
        let admin = try stack.createAPIKey(tenant: "acme", admin: true)
        try await stack.startGateway(appointmentWorkers: 1)
        #expect(try await stack.openCalendarEveryDay(adminKey: admin, capacity: 2).status == 200)
        let token = try await stack.openMobileSession(apiKey: key, identityNo: "10000000146")
        let date = StackHarness.istanbulDate(daysAhead: 2)
        // The mobile body claims priority; the session's backend said no.
        let body = StackHarness.bookingBody(uid: "mob-1", identityType: "T.C. Kimlik Kartı", identityNo: "10000000146",
                                            date: date, extra: #","isPriorityCustomer":true"#)

        let booked = try await stack.request("POST", "/v1/appointments", token: token, body: body)
        #expect(booked.status == 201)
        #expect(booked.json["uId"] as? String == "mob-1")
        #expect(booked.json["isPriorityCustomer"] as? Bool == false)
        #expect(booked.json["startDate"] as? String == "\(date)T10:00:00+03:00")
        #expect(booked.json["phone"] as? String == "+905321234567")
        #expect(booked.json["status"] as? String == "active")

        let replay = try await stack.request("POST", "/v1/appointments", token: token, body: body)
        #expect(replay.status == 200)
        #expect(replay.json["uId"] as? String == "mob-1")
        #expect(replay.json["startDate"] as? String == booked.json["startDate"] as? String)
        let changed = try await stack.request("POST", "/v1/appointments", token: token, body: StackHarness.bookingBody(
            uid: "mob-1", identityType: "TCKN", identityNo: "10000000146", date: date, time: "10:15"))
        #expect(changed.status == 409)
        #expect(changed.errorCode == "idempotency_conflict")
        let second = try await stack.request("POST", "/v1/appointments", token: token, body: StackHarness.bookingBody(
            uid: "mob-2", identityType: "TCKN", identityNo: "10000000146", date: date, time: "11:00"))
        #expect(second.errorCode == "already_booked")

        // Validation, field by field.
        let invalid: [(String, String, String)] = [
            (StackHarness.bookingBody(uid: "v1", identityType: "TCKN", identityNo: "10000000147", date: date),
             "identityNo", "invalid_identity_number"),
            (StackHarness.bookingBody(uid: "v2", identityNo: "P0000001", date: date, phone: "12"), "phone",
             "invalid_phone_number"),
            (StackHarness.bookingBody(uid: "v3", identityNo: "P0000001", date: date, time: "10:05"), "startTime",
             "not_on_slot_grid"),
            (StackHarness.bookingBody(uid: "v4", identityNo: "P0000001", date: StackHarness.istanbulDate(daysAhead: 45)),
             "date", "beyond_horizon"),
            (#"{"callType":"onboarding","date":20261201}"#, "date", "invalid_type"),
        ]
        for (badBody, field, code) in invalid {
            let response = try await stack.request("POST", "/v1/appointments", token: key, body: badBody)
            #expect(response.status == 422, "\(field)")
            #expect(response.errorField == field)
            #expect(response.errorCode == code)
        }
        // Another identity through this session: refused.
        let foreign = try await stack.request("POST", "/v1/appointments", token: token, body: StackHarness.bookingBody(
            uid: "mob-3", identityNo: "P0000002", date: date))
        #expect(foreign.status == 403)
        #expect(foreign.errorCode == "identity_mismatch")
        let foreignList = try await stack.request("GET", "/v1/appointments?identityType=PASSPORT&identityNo=P0000002",
                                                  token: token)
        #expect(foreignList.status == 403)

        let own = try await stack.request("GET", "/v1/appointments", token: token)
        let list = try #require(own.json["appointments"] as? [[String: Any]])
        #expect(list.map { $0["uId"] as? String } == ["mob-1"])
        #expect(list.first?["callTypeValue"] as? String == "Remote onboarding video call")

        // A cut-off of a week closes the window for a booking two days ahead.
        #expect(try await stack.openCalendarEveryDay(adminKey: admin, capacity: 2,
                                                     cancellationCutoffMinutes: 7 * 24 * 60).status == 200)
        let late = try await stack.request("POST", "/v1/appointments/cancel", token: token,
                                           body: #"{"callType":"onboarding"}"#)
        #expect(late.status == 409)
        #expect(late.errorCode == "cancellation_window_closed")
        #expect(try await stack.openCalendarEveryDay(adminKey: admin, capacity: 2).status == 200)
        let cancelled = try await stack.request("DELETE", "/v1/appointments/mob-1", token: token)
        #expect(cancelled.status == 200)
        #expect(cancelled.json["cancelled"] as? Bool == true)
        let nothingLeft = try await stack.request("POST", "/v1/appointments/cancel", token: token,
                                                  body: #"{"callType":"onboarding"}"#)
        #expect(nothingLeft.json["cancelled"] as? Bool == false)
    }

    @Test func appointmentsSurviveAServiceRestartAndCalendarChangesNeverDropThemSilently() async throws {
        let stack = try StackHarness()
        defer { stack.stopAll() }
        let key = try stack.createAPIKey(tenant: "acme")
        let admin = try stack.createAPIKey(tenant: "acme", admin: true)
        try await stack.startGateway(appointmentWorkers: 1)
        #expect(try await stack.openCalendarEveryDay(adminKey: admin, capacity: 2).status == 200)
        let date = StackHarness.istanbulDate(daysAhead: 4)
        for index in 0..<2 {
            let booked = try await stack.request("POST", "/v1/appointments", token: key, body: StackHarness.bookingBody(
                uid: "keep-\(index)", identityNo: String(format: "K%07d", index), date: date,
                extra: index == 1 ? #","isPriorityCustomer":true"# : ""))
            #expect(booked.status == 201)
        }

        // Restart the service: stop it, wait until the broker has let go of its worker, start a new process.
        let service = try #require(stack.processes["AppointmentService"]?.first)
        try await stack.stopProcess(service)
        stack.processes["AppointmentService"] = []
        try await stack.waitForNoWorkers("appointment")
        let restarted = try stack.start("AppointmentService")
        defer { try? stack.stopProcessBlocking(restarted) }
        try await stack.waitForWorkers("appointment", count: 1)
        let listed = try await stack.request("GET", "/v1/appointments?identityType=Pasaport&identityNo=K0000000",
                                             token: key)
        #expect((listed.json["appointments"] as? [[String: Any]])?.first?["uId"] as? String == "keep-0")

        // Halving the capacity would strand one booking: refused, then forced.
        let refused = try await stack.openCalendarEveryDay(adminKey: admin, capacity: 1)
        #expect(refused.status == 409)
        #expect(refused.errorCode == "bookings_stranded")
        let forced = try await stack.openCalendarEveryDay(adminKey: admin, capacity: 1, force: true)
        #expect(forced.status == 200)
        #expect(forced.json["cancelledAppointments"] as? Int == 1)
        let stranded = try await stack.request("GET", "/v1/appointments?identityType=PASSPORT&identityNo=K0000000",
                                               token: key)
        let appointment = try #require((stranded.json["appointments"] as? [[String: Any]])?.first)
        #expect(appointment["status"] as? String == "cancelled")
        #expect(appointment["cancelReason"] as? String == "calendar_changed")

        let calendar = try await stack.request("GET", "/v1/admin/call-types/onboarding/calendar", token: admin)
        #expect(calendar.json["capacity"] as? Int == 1)
        #expect(calendar.json["customized"] as? Bool == true)
        let notAdmin = try await stack.request("GET", "/v1/admin/call-types", token: key)
        #expect(notAdmin.status == 403)
        let types = try await stack.request("GET", "/v1/admin/call-types", token: admin)
        #expect((types.json["callTypes"] as? [[String: Any]])?.count == 5)
    }
}
