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
