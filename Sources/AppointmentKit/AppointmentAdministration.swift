import Foundation
import KYCCore
import KYCMessages
import Messaging
import Storage

/// What administrators change: the tenant's call types and each call type's calendar. A change never silently
/// drops bookings: one that would strand future bookings is refused (`bookings_stranded` / `call_type_in_use`)
/// unless `force` is set, and then those bookings are cancelled with a recorded reason in the same transaction.
public final class AppointmentAdministration: Sendable {
    static let codePattern = "^[a-z0-9_]{1,64}$"
    static let maximumCallTypes = 100

    let database: Database
    let now: @Sendable () -> Int64

    public init(database: Database, now: @escaping @Sendable () -> Int64 = { WallClock.nowMilliseconds() }) throws {
        self.database = database
        self.now = now
        _ = try database.migrate(AppointmentSchema.migrations)
    }

    // MARK: - Call types

    public func callTypes(tenant: String) throws -> AdminCallTypesReply {
        let (types, customized) = try CallTypeCatalog.activeCallTypes(tenant: tenant, in: database)
        return AdminCallTypesReply(callTypes: types, customized: customized)
    }

    /// Replaces the tenant's call types (both handlers) with `request.callTypes`, in that display order.
    public func putCallTypes(_ request: PutCallTypesRequest, tenant: String) throws -> AdminCallTypesReply {
        var found: [FieldViolation] = []
        if request.callTypes.isEmpty {
            found.append(FieldViolation(field: "callTypes", code: "required", message: "at least one call type"))
        }
        if request.callTypes.count > Self.maximumCallTypes {
            found.append(FieldViolation(field: "callTypes", code: "too_many",
                                        message: "at most \(Self.maximumCallTypes) call types"))
        }
        var seen: Set<String> = []
        for (index, type) in request.callTypes.enumerated() {
            let path = "callTypes[\(index)]"
            if type.code.range(of: Self.codePattern, options: .regularExpression) == nil {
                found.append(FieldViolation(field: "\(path).code", code: "invalid_format",
                                            message: "code must be 1 to 64 of a-z, 0-9 and _"))
            } else if !seen.insert(type.code).inserted {
                found.append(FieldViolation(field: "\(path).code", code: "duplicate", message: "code is listed twice"))
            }
            let name = type.name.trimmingCharacters(in: .whitespacesAndNewlines)
            if name.isEmpty || name.count > 200 {
                found.append(FieldViolation(field: "\(path).name", code: "invalid_length",
                                            message: "name must be 1 to 200 characters"))
            }
            if type.handler != "KYC" && type.handler != "KYB" {
                found.append(FieldViolation(field: "\(path).handler", code: "invalid_handler",
                                            message: "handler must be KYC or KYB"))
            }
        }
        guard found.isEmpty else { throw AppointmentFailure.violations(found) }
        let now = self.now()
        return try database.transaction(.immediate) { tx -> AdminCallTypesReply in
            let current = try CallTypeCatalog.activeCallTypes(tenant: tenant, in: tx).callTypes.map(\.code)
            let removed = current.filter { !seen.contains($0) }
            var stranded: [String] = []
            for code in removed {
                stranded += try tx.query("""
                    SELECT uid FROM appointments WHERE tenant = ? AND call_type = ? AND status = 'booked'
                    AND start_unix_ms > ?
                    """, [.text(tenant), .text(code), .integer(now)]).map { try $0.string("uid") }
            }
            if !stranded.isEmpty && !request.force {
                throw ServiceError.conflict(
                    code: "call_type_in_use",
                    message: "\(stranded.count) upcoming appointments use a call type this change removes; "
                        + "send force=true to cancel them")
            }
            try Self.cancel(stranded, reason: "call_type_removed", tenant: tenant, now: now, in: tx)
            _ = try tx.execute("UPDATE call_types SET active = 0 WHERE tenant = ?", [.text(tenant)])
            for (index, type) in request.callTypes.enumerated() {
                _ = try tx.execute("""
                    INSERT INTO call_types(tenant, code, name, handler, position, active) VALUES (?, ?, ?, ?, ?, 1)
                    ON CONFLICT (tenant, code) DO UPDATE SET name = excluded.name, handler = excluded.handler,
                        position = excluded.position, active = 1
                    """, [.text(tenant), .text(type.code),
                          .text(type.name.trimmingCharacters(in: .whitespacesAndNewlines)), .text(type.handler),
                          .integer(Int64(index + 1))])
            }
            let (types, customized) = try CallTypeCatalog.activeCallTypes(tenant: tenant, in: tx)
            return AdminCallTypesReply(callTypes: types, customized: customized,
                                       cancelledAppointments: Int32(stranded.count))
        }
    }

    // MARK: - Calendars

    public func calendar(_ request: CalendarRequest, tenant: String) throws -> CalendarReply {
        guard try CallTypeCatalog.activeCallType(request.callType, tenant: tenant, in: database) != nil else {
            throw AppointmentFailure.callTypeNotFound(request.callType)
        }
        let (settings, customized) = try CalendarStore.calendar(tenant: tenant, callType: request.callType,
                                                                in: database)
        return CalendarReply(callType: request.callType, calendar: settings, customized: customized)
    }

    /// Replaces the call type's calendar. Future bookings that would no longer sit on a slot of the new calendar,
    /// or that exceed its capacity (the latest-booked non-priority ones first), are stranded.
    public func putCalendar(_ request: CalendarRequest, tenant: String) throws -> CalendarReply {
        guard let proposed = request.calendar else {
            throw ServiceError.invalidArgument(field: "calendar", code: "required", message: "a calendar is required")
        }
        let violations = CalendarRules.violations(of: proposed)
        guard violations.isEmpty else { throw AppointmentFailure.violations(violations) }
        let settings = CalendarRules.normalized(proposed)
        guard let calendar = SlotCalendar(settings) else { throw ServiceError.internal("calendar unavailable") }
        let now = self.now()
        return try database.transaction(.immediate) { tx -> CalendarReply in
            guard try CallTypeCatalog.activeCallType(request.callType, tenant: tenant, in: tx) != nil else {
                throw AppointmentFailure.callTypeNotFound(request.callType)
            }
            let upcoming = try tx.query("""
                SELECT uid, start_unix_ms FROM appointments
                WHERE tenant = ? AND call_type = ? AND status = 'booked' AND start_unix_ms > ?
                ORDER BY start_unix_ms, is_priority_customer DESC, created_unix_ms, uid
                """, [.text(tenant), .text(request.callType), .integer(now)])
            var stranded: [(uid: String, start: Int64)] = []
            var kept: [Int64: Int32] = [:]
            for row in upcoming {
                let uid = try row.string("uid"), start = try row.int("start_unix_ms")
                if calendar.isSlotStart(start) && kept[start, default: 0] < settings.capacity {
                    kept[start, default: 0] += 1
                } else {
                    stranded.append((uid, start))
                }
            }
            if !stranded.isEmpty && !request.force {
                throw ServiceError.conflict(
                    code: "bookings_stranded",
                    message: "this change would strand \(stranded.count) upcoming appointments (the first at "
                        + "\(calendar.iso8601(stranded[0].start))); send force=true to cancel them")
            }
            try Self.cancel(stranded.map(\.uid), reason: "calendar_changed", tenant: tenant, now: now, in: tx)
            try CalendarStore.save(settings, tenant: tenant, callType: request.callType, now: now, in: tx)
            return CalendarReply(callType: request.callType, calendar: settings, customized: true,
                                 cancelledAppointments: Int32(stranded.count))
        }
    }

    static func cancel(_ uids: [String], reason: String, tenant: String, now: Int64, in tx: Transaction) throws {
        for uid in uids {
            _ = try tx.execute("""
                UPDATE appointments SET status = 'cancelled', cancel_reason = ?, cancelled_unix_ms = ?
                WHERE tenant = ? AND uid = ?
                """, [.text(reason), .integer(now), .text(tenant), .text(uid)])
        }
    }
}
