import Foundation
import KYCMessages

/// One bookable slot: an instant range plus how the calendar's zone shows it.
public struct CalendarSlot: Sendable, Equatable {
    public let startUnixMs: Int64
    public let endUnixMs: Int64
    public let date: LocalDate
    public let startTime: LocalTime
    public let endTime: LocalTime
}

/// Why a date and time cannot be booked on a calendar (besides capacity).
public enum SlotRejection: Error, Sendable, Equatable {
    case closedDate
    case outsideWorkingHours
    case offGrid
    case tooSoon
    case beyondHorizon
}

/// A call type's calendar turned into slots: which instants are bookable, and how instants look in its zone.
/// Instants are UTC milliseconds; dates and times are wall-clock values in the calendar's zone (so "09:00" stays
/// 09:00 local across a daylight-saving change). A wall-clock time that does not exist on a day (a DST gap) has no slot.
public struct SlotCalendar: Sendable {
    public let settings: CalendarSettings
    public let timeZone: TimeZone
    private let calendar: Calendar
    private let closedDates: Set<LocalDate>
    private let hoursByWeekday: [Int: [(opens: LocalTime, closes: LocalTime)]]

    /// Nil when the settings' time zone is unknown.
    public init?(_ settings: CalendarSettings) {
        guard let zone = TimeZone(identifier: settings.timeZone) else { return nil }
        self.settings = settings
        self.timeZone = zone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        self.calendar = calendar
        self.closedDates = Set(settings.closedDates.compactMap(LocalDate.init(parsing:)))
        var hours: [Int: [(opens: LocalTime, closes: LocalTime)]] = [:]
        for entry in settings.workingHours {
            guard let opens = LocalTime(parsing: entry.opens),
                  let closes = LocalTime(parsing: entry.closes, allowMidnightEnd: true) else { continue }
            hours[Int(entry.weekday), default: []].append((opens, closes))
        }
        self.hoursByWeekday = hours.mapValues { $0.sorted { $0.opens < $1.opens } }
    }

    var slotMilliseconds: Int64 { Int64(settings.slotMinutes) * 60_000 }

    // MARK: - Instants and wall-clock values

    /// The instant of `time` on `date` in the calendar's zone; nil when that wall-clock time does not exist.
    public func instant(_ date: LocalDate, _ time: LocalTime) -> Int64? {
        let components = DateComponents(year: date.year, month: date.month, day: date.day,
                                        hour: time.minutes / 60, minute: time.minutes % 60)
        guard let instant = calendar.date(from: components) else { return nil }
        let milliseconds = Int64((instant.timeIntervalSince1970 * 1000).rounded())
        // A time inside a DST gap is moved by Foundation; such a time does not exist here.
        let (roundDate, roundTime) = local(milliseconds)
        return roundDate == date && roundTime == time ? milliseconds : nil
    }

    /// The calendar-zone date and time of an instant.
    public func local(_ unixMs: Int64) -> (date: LocalDate, time: LocalTime) {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute],
                                            from: Date(timeIntervalSince1970: Double(unixMs) / 1000))
        return (LocalDate(year: parts.year!, month: parts.month!, day: parts.day!),
                LocalTime(minutes: parts.hour! * 60 + parts.minute!))
    }

    /// ISO 8601 with the zone's offset at that instant, e.g. `2026-12-01T10:00:00+03:00`.
    public func iso8601(_ unixMs: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(unixMs) / 1000)
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let offset = timeZone.secondsFromGMT(for: date)
        let sign = offset < 0 ? "-" : "+"
        let hours = abs(offset) / 3600, minutes = abs(offset) % 3600 / 60
        return LocalDate(year: parts.year!, month: parts.month!, day: parts.day!).description + "T"
            + String(parts.hour!).leftPadded(2) + ":" + String(parts.minute!).leftPadded(2) + ":"
            + String(parts.second!).leftPadded(2) + sign + String(hours).leftPadded(2) + ":"
            + String(minutes).leftPadded(2)
    }

    /// The first instant of `date` in the calendar's zone.
    public func startOfDay(_ date: LocalDate) -> Int64 {
        let components = DateComponents(year: date.year, month: date.month, day: date.day)
        let instant = calendar.date(from: components) ?? Date(timeIntervalSince1970: 0)
        return Int64((calendar.startOfDay(for: instant).timeIntervalSince1970 * 1000).rounded())
    }

    /// The date after `date`.
    public func nextDay(_ date: LocalDate) -> LocalDate {
        if date.day < LocalDate.daysIn(month: date.month, year: date.year) {
            return LocalDate(year: date.year, month: date.month, day: date.day + 1)
        }
        return date.month == 12 ? LocalDate(year: date.year + 1, month: 1, day: 1)
            : LocalDate(year: date.year, month: date.month + 1, day: 1)
    }

    /// ISO weekday of `date`: 1 = Monday … 7 = Sunday.
    public func isoWeekday(_ date: LocalDate) -> Int {
        let components = DateComponents(year: date.year, month: date.month, day: date.day, hour: 12)
        let weekday = calendar.component(.weekday, from: calendar.date(from: components)!)  // 1 = Sunday
        return (weekday + 5) % 7 + 1
    }

    // MARK: - The slot grid

    /// The slots of one day, in time order (closed dates have none).
    public func slots(on date: LocalDate) -> [CalendarSlot] {
        guard !closedDates.contains(date), settings.slotMinutes > 0 else { return [] }
        var result: [CalendarSlot] = []
        for interval in hoursByWeekday[isoWeekday(date)] ?? [] {
            var start = interval.opens.minutes
            while start + Int(settings.slotMinutes) <= interval.closes.minutes {
                let startTime = LocalTime(minutes: start)
                if let instant = instant(date, startTime) {
                    let end = LocalTime(minutes: start + Int(settings.slotMinutes))
                    result.append(CalendarSlot(startUnixMs: instant, endUnixMs: instant + slotMilliseconds, date: date,
                                               startTime: startTime, endTime: end))
                }
                start += Int(settings.slotMinutes)
            }
        }
        return result
    }

    /// Slots that start in `[fromUnixMs, toUnixMs)`, in time order.
    public func slots(fromUnixMs: Int64, toUnixMs: Int64) -> [CalendarSlot] {
        guard fromUnixMs < toUnixMs else { return [] }
        var date = local(fromUnixMs).date
        let last = local(toUnixMs).date
        var result: [CalendarSlot] = []
        while date <= last {
            result += slots(on: date).filter { $0.startUnixMs >= fromUnixMs && $0.startUnixMs < toUnixMs }
            date = nextDay(date)
        }
        return result
    }

    /// The slot starting at `time` on `date`, or why there is none (grid and calendar only).
    public func slot(on date: LocalDate, at time: LocalTime) -> Result<CalendarSlot, SlotRejection> {
        if closedDates.contains(date) { return .failure(.closedDate) }
        let intervals = hoursByWeekday[isoWeekday(date)] ?? []
        let slotMinutes = Int(settings.slotMinutes)
        guard let interval = intervals.first(where: {
            time.minutes >= $0.opens.minutes && time.minutes + slotMinutes <= $0.closes.minutes
        }) else { return .failure(.outsideWorkingHours) }
        guard (time.minutes - interval.opens.minutes) % slotMinutes == 0, let start = instant(date, time) else {
            return .failure(.offGrid)
        }
        return .success(CalendarSlot(startUnixMs: start, endUnixMs: start + slotMilliseconds, date: date,
                                     startTime: time, endTime: LocalTime(minutes: time.minutes + slotMinutes)))
    }

    /// The slot for a booking at `time` on `date` made at `nowUnixMs`: on the grid, after the minimum notice and
    /// inside the booking horizon.
    public func bookableSlot(on date: LocalDate, at time: LocalTime, nowUnixMs: Int64)
        -> Result<CalendarSlot, SlotRejection> {
        switch slot(on: date, at: time) {
        case let .failure(rejection): return .failure(rejection)
        case let .success(slot):
            if slot.startUnixMs < earliestBookableUnixMs(now: nowUnixMs) { return .failure(.tooSoon) }
            if slot.startUnixMs > latestBookableUnixMs(now: nowUnixMs) { return .failure(.beyondHorizon) }
            return .success(slot)
        }
    }

    /// Whether an existing booking starting at `startUnixMs` is still a slot of this calendar (ignoring notice and
    /// horizon, which only apply to new bookings).
    public func isSlotStart(_ startUnixMs: Int64) -> Bool {
        let (date, time) = local(startUnixMs)
        if case let .success(slot) = slot(on: date, at: time) { return slot.startUnixMs == startUnixMs }
        return false
    }

    public func earliestBookableUnixMs(now: Int64) -> Int64 { now + Int64(settings.minimumNoticeMinutes) * 60_000 }
    public func latestBookableUnixMs(now: Int64) -> Int64 { now + Int64(settings.horizonDays) * 86_400_000 }

    /// Whether an appointment starting at `startUnixMs` may still be cancelled at `nowUnixMs`.
    public func canCancel(startUnixMs: Int64, nowUnixMs: Int64) -> Bool {
        nowUnixMs <= startUnixMs - Int64(settings.cancellationCutoffMinutes) * 60_000
    }
}
