import Foundation
import KYCCore
import KYCMessages
import Messaging
import Storage

/// The appointment ledger of every tenant: booking, cancelling, listing, availability and the agents' agenda.
///
/// Double booking is prevented by the database, not by this process: every booking reads capacity and writes the
/// appointment inside one `BEGIN IMMEDIATE` transaction, which SQLite serialises across every process sharing the
/// file. Instants are UTC milliseconds; `now` is injectable so tests control time.
public final class AppointmentBook: Sendable {
    /// Longest availability range a client may ask for.
    public static let maximumRangeDays: Int64 = 31
    /// Range used when a client gives no end.
    public static let defaultRangeDays: Int64 = 7
    /// Most appointments one identity listing returns (newest first).
    public static let listLimit = 200

    let database: Database
    let now: @Sendable () -> Int64

    public init(database: Database, now: @escaping @Sendable () -> Int64 = { WallClock.nowMilliseconds() }) throws {
        self.database = database
        self.now = now
        _ = try database.migrate(AppointmentSchema.migrations)
    }

    // MARK: - Booking

    /// Books the slot, or returns the appointment an identical earlier request with the same `uid` booked.
    public func book(_ request: BookAppointmentRequest, tenant: String, principal: Principal) throws
        -> BookAppointmentReply {
        let form = try BookingForm(request, principal: principal)
        let now = self.now()
        return try database.transaction(.immediate) { tx -> BookAppointmentReply in
            if let existing = try tx.queryOne("SELECT * FROM appointments WHERE tenant = ? AND uid = ?",
                                              [.text(tenant), .text(form.uid)]) {
                // A repeated uId (client retry or broker redelivery) answers what the first request did.
                guard try existing.string("request_fingerprint") == form.fingerprint else {
                    throw AppointmentFailure.idempotencyConflict
                }
                return BookAppointmentReply(appointment: try render(existing, tenant: tenant, now: now, in: tx),
                                            created: false)
            }
            guard let callType = try CallTypeCatalog.activeCallType(form.callType, tenant: tenant, in: tx) else {
                throw AppointmentFailure.unknownCallType(form.callType)
            }
            let settings = try CalendarStore.calendar(tenant: tenant, callType: callType.code, in: tx).settings
            guard let calendar = SlotCalendar(settings) else { throw ServiceError.internal("calendar unavailable") }
            let slot: CalendarSlot
            switch calendar.bookableSlot(on: form.date, at: form.startTime, nowUnixMs: now) {
            case let .success(found): slot = found
            case let .failure(rejection): throw Self.violation(rejection, settings: settings)
            }
            if let active = try tx.queryOne("""
                SELECT uid FROM appointments WHERE tenant = ? AND call_type = ? AND identity_type = ?
                AND identity_no = ? AND status = 'booked' AND end_unix_ms > ?
                """, [.text(tenant), .text(callType.code), .text(form.identity.type.rawValue),
                      .text(form.identity.number), .integer(now)]) {
                throw AppointmentFailure.alreadyBooked(try active.string("uid"))
            }
            let taken = try tx.queryOne("""
                SELECT COUNT(*) AS n FROM appointments
                WHERE tenant = ? AND call_type = ? AND start_unix_ms = ? AND status = 'booked'
                """, [.text(tenant), .text(callType.code), .integer(slot.startUnixMs)])?.int("n") ?? 0
            guard taken < Int64(settings.capacity) else { throw AppointmentFailure.slotFull }
            _ = try tx.execute("""
                INSERT INTO appointments(tenant, uid, call_type, identity_type, identity_no, name, surname, phone,
                    email, start_unix_ms, end_unix_ms, time_zone, is_priority_customer, status, created_unix_ms,
                    booked_by, request_fingerprint)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'booked', ?, ?, ?)
                """, [.text(tenant), .text(form.uid), .text(callType.code), .text(form.identity.type.rawValue),
                      .text(form.identity.number), .text(form.name), .text(form.surname), .text(form.phone),
                      .text(form.email), .integer(slot.startUnixMs), .integer(slot.endUnixMs),
                      .text(settings.timeZone), .bool(form.isPriorityCustomer), .integer(now),
                      .text(principal.id), .text(form.fingerprint)])
            let row = try tx.queryOne("SELECT * FROM appointments WHERE tenant = ? AND uid = ?",
                                      [.text(tenant), .text(form.uid)])!
            return BookAppointmentReply(appointment: try render(row, tenant: tenant, now: now, in: tx), created: true)
        }
    }

    static func violation(_ rejection: SlotRejection, settings: CalendarSettings) -> ServiceError {
        switch rejection {
        case .closedDate:
            .invalidArgument(field: "date", code: "date_closed", message: "no video calls on this date")
        case .outsideWorkingHours:
            .invalidArgument(field: "startTime", code: "outside_working_hours",
                             message: "startTime is outside the working hours of this date")
        case .offGrid:
            .invalidArgument(field: "startTime", code: "not_on_slot_grid",
                             message: "startTime must be the start of a \(settings.slotMinutes)-minute slot")
        case .tooSoon:
            .invalidArgument(field: "startTime", code: "too_soon",
                             message: "appointments need \(settings.minimumNoticeMinutes) minutes' notice")
        case .beyondHorizon:
            .invalidArgument(field: "date", code: "beyond_horizon",
                             message: "appointments can be booked at most \(settings.horizonDays) days ahead")
        }
    }

    // MARK: - Cancelling

    /// Cancels by `uid`, or the identity's active appointment of `callType`. A session only reaches its own
    /// identity's appointments (another identity's `uid` is "not found", revealing nothing).
    public func cancel(_ request: CancelAppointmentRequest, tenant: String, principal: Principal) throws
        -> CancelAppointmentReply {
        let now = self.now()
        if !request.uid.isEmpty {
            if principal.kind == .unspecified { throw AppointmentFailure.callerNotAllowed }
            let own = principal.kind == .session ? CallerIdentity.sessionIdentity(principal) : nil
            if principal.kind == .session && own == nil { throw AppointmentFailure.sessionWithoutIdentity }
            return try database.transaction(.immediate) { tx -> CancelAppointmentReply in
                guard let row = try tx.queryOne("SELECT * FROM appointments WHERE tenant = ? AND uid = ?",
                                                [.text(tenant), .text(request.uid)]) else {
                    throw AppointmentFailure.appointmentNotFound
                }
                if let own, try row.string("identity_type") != own.type.rawValue
                    || row.string("identity_no") != own.number {
                    throw AppointmentFailure.appointmentNotFound
                }
                return try cancelRow(row, tenant: tenant, principal: principal, now: now, in: tx)
            }
        }
        var found: [FieldViolation] = []
        if request.callType.isEmpty {
            found.append(FieldViolation(field: "callType", code: "required", message: "callType is required"))
        }
        var identity: CustomerIdentity?
        switch try CallerIdentity.resolve(principal, identityType: request.identityType,
                                          identityNo: request.identityNo) {
        case let .identity(resolved): identity = resolved
        case let .invalid(violations): found += violations
        }
        guard found.isEmpty, let identity else { throw AppointmentFailure.violations(found) }
        return try database.transaction(.immediate) { tx -> CancelAppointmentReply in
            guard let row = try tx.queryOne("""
                SELECT * FROM appointments WHERE tenant = ? AND call_type = ? AND identity_type = ?
                AND identity_no = ? AND status = 'booked' AND end_unix_ms > ? ORDER BY start_unix_ms LIMIT 1
                """, [.text(tenant), .text(request.callType), .text(identity.type.rawValue), .text(identity.number),
                      .integer(now)]) else {
                return CancelAppointmentReply(cancelled: false, appointment: nil)
            }
            return try cancelRow(row, tenant: tenant, principal: principal, now: now, in: tx)
        }
    }

    private func cancelRow(_ row: Row, tenant: String, principal: Principal, now: Int64, in tx: Transaction) throws
        -> CancelAppointmentReply {
        guard try row.string("status") == "booked" else {
            return CancelAppointmentReply(cancelled: false, appointment: try render(row, tenant: tenant, now: now, in: tx))
        }
        let callType = try row.string("call_type")
        let settings = try CalendarStore.calendar(tenant: tenant, callType: callType, in: tx).settings
        let start = try row.int("start_unix_ms")
        guard now <= start - Int64(settings.cancellationCutoffMinutes) * 60_000 else {
            throw AppointmentFailure.cancellationWindowClosed
        }
        let uid = try row.string("uid")
        let reason = principal.kind == .session ? "cancelled_by_customer" : "cancelled_by_backend"
        _ = try tx.execute("""
            UPDATE appointments SET status = 'cancelled', cancel_reason = ?, cancelled_unix_ms = ?
            WHERE tenant = ? AND uid = ?
            """, [.text(reason), .integer(now), .text(tenant), .text(uid)])
        let updated = try tx.queryOne("SELECT * FROM appointments WHERE tenant = ? AND uid = ?",
                                      [.text(tenant), .text(uid)])!
        return CancelAppointmentReply(cancelled: true, appointment: try render(updated, tenant: tenant, now: now, in: tx))
    }

    // MARK: - Reading

    /// The identity's appointments (active, past and cancelled), newest first.
    public func list(_ request: ListAppointmentsRequest, tenant: String, principal: Principal) throws
        -> ListAppointmentsReply {
        let identity: CustomerIdentity
        switch try CallerIdentity.resolve(principal, identityType: request.identityType,
                                          identityNo: request.identityNo) {
        case let .identity(resolved): identity = resolved
        case let .invalid(violations): throw AppointmentFailure.violations(violations)
        }
        let now = self.now()
        let rows = try database.query("""
            SELECT * FROM appointments WHERE tenant = ? AND identity_type = ? AND identity_no = ?
            ORDER BY start_unix_ms DESC, created_unix_ms DESC LIMIT ?
            """, [.text(tenant), .text(identity.type.rawValue), .text(identity.number), .integer(Self.listLimit)])
        let names = try CallTypeCatalog.names(tenant: tenant, in: database)
        return ListAppointmentsReply(appointments: try rows.map { try Self.appointment($0, names: names, now: now) })
    }

    /// Free places per slot between two instants or dates of the calendar's zone.
    public func availability(_ request: AvailabilityRequest, tenant: String) throws -> AvailabilityReply {
        guard !request.callType.isEmpty else {
            throw ServiceError.invalidArgument(field: "callType", code: "required", message: "callType is required")
        }
        guard let callType = try CallTypeCatalog.activeCallType(request.callType, tenant: tenant, in: database) else {
            throw AppointmentFailure.unknownCallType(request.callType)
        }
        let settings = try CalendarStore.calendar(tenant: tenant, callType: callType.code, in: database).settings
        guard let calendar = SlotCalendar(settings) else { throw ServiceError.internal("calendar unavailable") }
        let now = self.now()
        let range = try AvailabilityRange(request, calendar: calendar, now: now)
        let from = max(range.fromUnixMs, calendar.earliestBookableUnixMs(now: now))
        let to = min(range.toUnixMs, calendar.latestBookableUnixMs(now: now) + 1)
        let slots = calendar.slots(fromUnixMs: from, toUnixMs: to)
        guard !slots.isEmpty else { return AvailabilityReply(timeZone: settings.timeZone, slots: []) }
        var taken: [Int64: Int64] = [:]
        for row in try database.query("""
            SELECT start_unix_ms, COUNT(*) AS n FROM appointments
            WHERE tenant = ? AND call_type = ? AND status = 'booked' AND start_unix_ms >= ? AND start_unix_ms <= ?
            GROUP BY start_unix_ms
            """, [.text(tenant), .text(callType.code), .integer(slots.first!.startUnixMs),
                  .integer(slots.last!.startUnixMs)]) {
            taken[try row.int("start_unix_ms")] = try row.int("n")
        }
        let available = slots.compactMap { slot -> AvailableSlot? in
            let free = max(0, Int64(settings.capacity) - (taken[slot.startUnixMs] ?? 0))
            guard free > 0 || request.includeFull else { return nil }
            return AvailableSlot(date: slot.date.description, startTime: slot.startTime.description,
                                 endTime: slot.endTime.description, count: Int32(free), capacity: settings.capacity)
        }
        return AvailabilityReply(timeZone: settings.timeZone, slots: available)
    }

    /// The agents' list for one day: booked appointments by start, priority customers first within a slot, then in
    /// booking order.
    public func agenda(_ request: AgendaRequest, tenant: String) throws -> AgendaReply {
        var found: [FieldViolation] = []
        if request.callType.isEmpty {
            found.append(FieldViolation(field: "callType", code: "required", message: "callType is required"))
        }
        let date = LocalDate(parsing: request.date)
        if date == nil {
            found.append(FieldViolation(field: "date", code: request.date.isEmpty ? "required" : "invalid_date",
                                        message: "date must be YYYY-MM-DD"))
        }
        guard found.isEmpty, let date else { throw AppointmentFailure.violations(found) }
        guard let callType = try CallTypeCatalog.activeCallType(request.callType, tenant: tenant, in: database) else {
            throw AppointmentFailure.unknownCallType(request.callType)
        }
        let settings = try CalendarStore.calendar(tenant: tenant, callType: callType.code, in: database).settings
        guard let calendar = SlotCalendar(settings) else { throw ServiceError.internal("calendar unavailable") }
        let rows = try database.query("""
            SELECT * FROM appointments WHERE tenant = ? AND call_type = ? AND status = 'booked'
            AND start_unix_ms >= ? AND start_unix_ms < ?
            ORDER BY start_unix_ms, is_priority_customer DESC, created_unix_ms, uid
            """, [.text(tenant), .text(callType.code), .integer(calendar.startOfDay(date)),
                  .integer(calendar.startOfDay(calendar.nextDay(date)))])
        let names = try CallTypeCatalog.names(tenant: tenant, in: database)
        let now = self.now()
        return AgendaReply(timeZone: settings.timeZone,
                           appointments: try rows.map { try Self.appointment($0, names: names, now: now) })
    }

    // MARK: - Rendering

    private func render(_ row: Row, tenant: String, now: Int64, in runner: some StatementRunner) throws -> Appointment {
        try Self.appointment(row, names: CallTypeCatalog.names(tenant: tenant, in: runner), now: now)
    }

    /// An appointment row as the API shows it, times in the zone it was booked in.
    static func appointment(_ row: Row, names: [String: String], now: Int64) throws -> Appointment {
        let zone = try row.string("time_zone")
        let calendar = SlotCalendar(CalendarSettings(timeZone: zone)) ?? SlotCalendar(CalendarRules.platformDefault)!
        let start = try row.int("start_unix_ms"), end = try row.int("end_unix_ms")
        let callType = try row.string("call_type")
        let identityType = try row.string("identity_type")
        let status: String
        if try row.string("status") == "cancelled" { status = "cancelled" }
        else { status = end > now ? "active" : "past" }
        return Appointment(
            uid: try row.string("uid"), callType: callType, callTypeName: names[callType] ?? callType,
            identityType: IdentityDocumentTypeName.display(identityType), identityNo: try row.string("identity_no"),
            name: try row.string("name"), surname: try row.string("surname"), phone: try row.string("phone"),
            email: try row.string("email"), startUnixMs: start, endUnixMs: end, startDate: calendar.iso8601(start),
            endDate: calendar.iso8601(end), isPriorityCustomer: try row.bool("is_priority_customer"), status: status,
            cancelReason: try row.string("cancel_reason"), createdUnixMs: try row.int("created_unix_ms"))
    }
}
