import KYCCore
import KYCMessages
import Storage

/// Reads and writes calendars: a tenant's own calendar for a call type, else the platform's seeded one for that
/// code, else `CalendarRules.platformDefault`.
enum CalendarStore {
    /// The calendar in force and whether the tenant has its own.
    static func calendar(tenant: String, callType: String, in runner: some StatementRunner) throws
        -> (settings: CalendarSettings, customized: Bool) {
        if let row = try runner.queryOne("SELECT * FROM calendars WHERE tenant = ? AND call_type = ?",
                                         [.text(tenant), .text(callType)]) {
            return (try settings(row), true)
        }
        if let row = try runner.queryOne("SELECT * FROM calendars WHERE tenant = '' AND call_type = ?",
                                         [.text(callType)]) {
            return (try settings(row), false)
        }
        return (CalendarRules.platformDefault, false)
    }

    /// Writes the tenant's own calendar for a call type.
    static func save(_ settings: CalendarSettings, tenant: String, callType: String, now: Int64,
                     in transaction: Transaction) throws {
        let hours = settings.workingHours.map { "\($0.weekday) \($0.opens) \($0.closes)" }.joined(separator: "\n")
        _ = try transaction.execute("""
            INSERT INTO calendars(tenant, call_type, time_zone, working_hours, slot_minutes, capacity, closed_dates,
                                  horizon_days, minimum_notice_minutes, cancellation_cutoff_minutes, updated_unix_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (tenant, call_type) DO UPDATE SET
                time_zone = excluded.time_zone, working_hours = excluded.working_hours,
                slot_minutes = excluded.slot_minutes, capacity = excluded.capacity,
                closed_dates = excluded.closed_dates, horizon_days = excluded.horizon_days,
                minimum_notice_minutes = excluded.minimum_notice_minutes,
                cancellation_cutoff_minutes = excluded.cancellation_cutoff_minutes,
                updated_unix_ms = excluded.updated_unix_ms
            """, [.text(tenant), .text(callType), .text(settings.timeZone), .text(hours),
                  .integer(Int64(settings.slotMinutes)), .integer(Int64(settings.capacity)),
                  .text(settings.closedDates.joined(separator: "\n")), .integer(Int64(settings.horizonDays)),
                  .integer(Int64(settings.minimumNoticeMinutes)), .integer(Int64(settings.cancellationCutoffMinutes)),
                  .integer(now)])
    }

    private static func settings(_ row: Row) throws -> CalendarSettings {
        let hours = try row.string("working_hours").split(separator: "\n").compactMap { line -> WorkingHours? in
            let parts = line.split(separator: " ")
            guard parts.count == 3, let weekday = Int32(parts[0]) else { return nil }
            return WorkingHours(weekday: weekday, opens: String(parts[1]), closes: String(parts[2]))
        }
        return CalendarSettings(
            timeZone: try row.string("time_zone"), workingHours: hours,
            slotMinutes: Int32(try row.int("slot_minutes")), capacity: Int32(try row.int("capacity")),
            closedDates: try row.string("closed_dates").split(separator: "\n").map(String.init),
            horizonDays: Int32(try row.int("horizon_days")),
            minimumNoticeMinutes: Int32(try row.int("minimum_notice_minutes")),
            cancellationCutoffMinutes: Int32(try row.int("cancellation_cutoff_minutes")))
    }
}
