import Foundation
import KYCMessages
import Messaging

/// The platform's default calendar and the rules an administrator's calendar must follow.
public enum CalendarRules {
    /// Europe/Istanbul, Monday–Friday 09:00–18:00, 15-minute slots, 2 places, 30 days ahead, 60 minutes' notice,
    /// cancellation up to 30 minutes before the start.
    public static let platformDefault = CalendarSettings(
        timeZone: "Europe/Istanbul",
        workingHours: (1...5).map { WorkingHours(weekday: Int32($0), opens: "09:00", closes: "18:00") },
        slotMinutes: 15, capacity: 2, closedDates: [], horizonDays: 30, minimumNoticeMinutes: 60,
        cancellationCutoffMinutes: 30)

    public static let slotMinutesRange: ClosedRange<Int32> = 5...480
    public static let capacityRange: ClosedRange<Int32> = 1...1000
    public static let horizonDaysRange: ClosedRange<Int32> = 1...366
    public static let minimumNoticeRange: ClosedRange<Int32> = 0...(60 * 24 * 30)
    public static let cancellationCutoffRange: ClosedRange<Int32> = 0...(60 * 24 * 7)
    public static let maximumClosedDates = 1000
    public static let maximumWorkingHours = 7 * 8

    /// Every rule the settings break, as field violations named by their JSON path; empty when valid.
    public static func violations(of settings: CalendarSettings) -> [FieldViolation] {
        var found: [FieldViolation] = []
        func add(_ field: String, _ code: String, _ message: String) {
            found.append(FieldViolation(field: field, code: code, message: message))
        }
        if TimeZone(identifier: settings.timeZone) == nil {
            add("timeZone", "invalid_time_zone", "timeZone must be an IANA time zone such as Europe/Istanbul")
        }
        if settings.workingHours.count > maximumWorkingHours {
            add("workingHours", "too_many", "at most \(maximumWorkingHours) working-hours entries")
        }
        var parsed: [(index: Int, weekday: Int32, opens: LocalTime, closes: LocalTime)] = []
        for (index, entry) in settings.workingHours.enumerated() {
            let path = "workingHours[\(index)]"
            guard (1...7).contains(entry.weekday) else {
                add("\(path).weekday", "invalid_weekday", "weekday must be MON…SUN (1…7)")
                continue
            }
            guard let opens = LocalTime(parsing: entry.opens) else {
                add("\(path).opens", "invalid_time", "opens must be HH:mm")
                continue
            }
            guard let closes = LocalTime(parsing: entry.closes, allowMidnightEnd: true) else {
                add("\(path).closes", "invalid_time", "closes must be HH:mm (24:00 for midnight)")
                continue
            }
            guard opens < closes else {
                add("\(path).closes", "invalid_range", "closes must be after opens")
                continue
            }
            if parsed.contains(where: { $0.weekday == entry.weekday && $0.opens < closes && opens < $0.closes }) {
                add(path, "overlapping_hours", "working hours overlap another entry for the same weekday")
            }
            parsed.append((index, entry.weekday, opens, closes))
        }
        if !slotMinutesRange.contains(settings.slotMinutes) {
            add("slotMinutes", "out_of_range", "slotMinutes must be \(slotMinutesRange.lowerBound)…\(slotMinutesRange.upperBound)")
        }
        if !capacityRange.contains(settings.capacity) {
            add("capacity", "out_of_range", "capacity must be \(capacityRange.lowerBound)…\(capacityRange.upperBound)")
        }
        if settings.closedDates.count > maximumClosedDates {
            add("closedDates", "too_many", "at most \(maximumClosedDates) closed dates")
        }
        for (index, text) in settings.closedDates.enumerated() where LocalDate(parsing: text) == nil {
            add("closedDates[\(index)]", "invalid_date", "closed dates must be YYYY-MM-DD")
        }
        if !horizonDaysRange.contains(settings.horizonDays) {
            add("horizonDays", "out_of_range", "horizonDays must be \(horizonDaysRange.lowerBound)…\(horizonDaysRange.upperBound)")
        }
        if !minimumNoticeRange.contains(settings.minimumNoticeMinutes) {
            add("minimumNoticeMinutes", "out_of_range",
                "minimumNoticeMinutes must be \(minimumNoticeRange.lowerBound)…\(minimumNoticeRange.upperBound)")
        }
        if !cancellationCutoffRange.contains(settings.cancellationCutoffMinutes) {
            add("cancellationCutoffMinutes", "out_of_range",
                "cancellationCutoffMinutes must be \(cancellationCutoffRange.lowerBound)…\(cancellationCutoffRange.upperBound)")
        }
        return found
    }

    /// Settings in a canonical form: working hours by weekday and time, closed dates sorted and unique.
    static func normalized(_ settings: CalendarSettings) -> CalendarSettings {
        var copy = settings
        copy.workingHours.sort { ($0.weekday, $0.opens) < ($1.weekday, $1.opens) }
        copy.closedDates = Array(Set(settings.closedDates)).sorted()
        return copy
    }
}
