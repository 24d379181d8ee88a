import Foundation

/// Wall-clock and monotonic time in the units the platform uses on the wire.
public enum WallClock {
    /// Milliseconds since the Unix epoch (deadlines in envelopes are in this unit).
    public static func nowMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}

public enum MonotonicClock {
    /// Nanoseconds on a clock that never goes backwards; for timeouts and latency.
    public static func nowNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    public static func nowMilliseconds() -> Int64 { Int64(nowNanoseconds() / 1_000_000) }
}

/// Instants as text: UTC with milliseconds, `2026-11-30T08:15:00.123Z`, the one format logs, JSON answers and webhook
/// bodies use.
public enum UTCTimestamp {
    public static func iso8601(milliseconds: Int64) -> String {
        let remainder = ((milliseconds % 1000) + 1000) % 1000
        var seconds = time_t((milliseconds - remainder) / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.tm_year + 1900, parts.tm_mon + 1,
                      parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec, Int(remainder))
    }
}
