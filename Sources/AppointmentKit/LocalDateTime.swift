/// A calendar date as the API writes it, `YYYY-MM-DD`, with no zone of its own.
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD` with a day that exists in that month; nil otherwise.
    public init?(parsing text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = Self.number(bytes[0..<4]), let month = Self.number(bytes[5..<7]),
              let day = Self.number(bytes[8..<10]),
              (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day), year >= 1970
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public var description: String {
        String(year).leftPadded(4) + "-" + String(month).leftPadded(2) + "-" + String(day).leftPadded(2)
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }
}

/// A wall-clock time of day as the API writes it, `HH:mm`, stored as minutes after midnight; `24:00` (1440) is
/// allowed only where a closing time is meant.
public struct LocalTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let minutes: Int

    public init(minutes: Int) { self.minutes = minutes }

    /// Parses exactly `HH:mm` (00:00–23:59, or 24:00 when `allowMidnightEnd`); nil otherwise.
    public init?(parsing text: String, allowMidnightEnd: Bool = false) {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":"),
              let hours = LocalDate.number(bytes[0..<2]), let minutes = LocalDate.number(bytes[3..<5]),
              minutes < 60, hours < 24 || (allowMidnightEnd && hours == 24 && minutes == 0) else { return nil }
        self.init(minutes: hours * 60 + minutes)
    }

    public var description: String { String(minutes / 60).leftPadded(2) + ":" + String(minutes % 60).leftPadded(2) }

    public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool { lhs.minutes < rhs.minutes }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
