import Foundation
import KYCMessages
import Messaging

/// The instant range an availability request asks about. `startDate`/`endDate` are ISO 8601: a date
/// (`2026-12-01`, a whole day of the calendar's zone; the end date is inclusive) or a date-time with an offset or
/// `Z`. No start means now; no end means `defaultRangeDays` after the start. Longer than 31 days is refused.
struct AvailabilityRange {
    let fromUnixMs: Int64
    let toUnixMs: Int64

    init(_ request: AvailabilityRequest, calendar: SlotCalendar, now: Int64) throws {
        var found: [FieldViolation] = []
        var from: Int64 = now
        if !request.startDate.isEmpty {
            if let parsed = Self.instant(request.startDate, calendar: calendar, endOfDay: false) { from = parsed }
            else { found.append(Self.invalid("startDate")) }
        }
        var to = from + AppointmentBook.defaultRangeDays * 86_400_000
        if !request.endDate.isEmpty {
            if let parsed = Self.instant(request.endDate, calendar: calendar, endOfDay: true) { to = parsed }
            else { found.append(Self.invalid("endDate")) }
        }
        if found.isEmpty {
            if to <= from {
                found.append(FieldViolation(field: "endDate", code: "invalid_range",
                                            message: "endDate must be after startDate"))
            } else if to - from > AppointmentBook.maximumRangeDays * 86_400_000 {
                found.append(FieldViolation(field: "endDate", code: "range_too_long",
                                            message: "the range may span at most \(AppointmentBook.maximumRangeDays) days"))
            }
        }
        guard found.isEmpty else { throw AppointmentFailure.violations(found) }
        fromUnixMs = from
        toUnixMs = to
    }

    private static func invalid(_ field: String) -> FieldViolation {
        FieldViolation(field: field, code: "invalid_date",
                       message: "\(field) must be an ISO 8601 date (YYYY-MM-DD) or date-time with offset")
    }

    /// A date's first instant (or the next day's, for an inclusive end), or a date-time's instant.
    static func instant(_ text: String, calendar: SlotCalendar, endOfDay: Bool) -> Int64? {
        if let date = LocalDate(parsing: text) {
            return calendar.startOfDay(endOfDay ? calendar.nextDay(date) : date)
        }
        guard text.utf8.count <= 40 else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        return nil
    }
}
