/// When a failed delivery is tried again: exponential back-off with jitter, within a retry window, after which the
/// delivery is dead-lettered. A pure value, so the policy is tested without clocks or sockets.
public struct RetrySchedule: Sendable, Equatable {
    /// Delay after the first failed attempt.
    public var initialDelayMilliseconds: Int64 = 5_000
    /// Upper bound of the doubling delay.
    public var maxDelayMilliseconds: Int64 = 3_600_000
    /// How long after the event (or a manual redeliver) retries go on.
    public var windowMilliseconds: Int64 = 24 * 3_600_000
    /// Each delay is scaled by a factor in `1 - jitter ..< 1 + jitter`, so endpoints recovering from an outage are
    /// not hit by every pending delivery in the same instant.
    public var jitter: Double = 0.2

    public init(initialDelayMilliseconds: Int64 = 5_000, maxDelayMilliseconds: Int64 = 3_600_000,
                windowMilliseconds: Int64 = 24 * 3_600_000, jitter: Double = 0.2) {
        self.initialDelayMilliseconds = initialDelayMilliseconds
        self.maxDelayMilliseconds = maxDelayMilliseconds
        self.windowMilliseconds = windowMilliseconds
        self.jitter = jitter
    }

    /// The delay after `failedAttempts` failures (1 = after the first), before jitter: initial × 2^(n-1), capped.
    public func baseDelay(afterFailedAttempts failedAttempts: Int) -> Int64 {
        var delay = initialDelayMilliseconds
        var remaining = max(0, failedAttempts - 1)
        while remaining > 0 && delay < maxDelayMilliseconds {
            delay *= 2
            remaining -= 1
        }
        return min(delay, maxDelayMilliseconds)
    }

    /// What follows a failed attempt.
    public enum Decision: Sendable, Equatable {
        case retry(at: Int64)
        case deadLetter
    }

    /// After the `failedAttempts`-th failure at `now`, with `random` in 0..<1 choosing the jitter: retry at
    /// `now + delay`, or dead-letter when that lies beyond the window that started at `windowStart`.
    public func decision(afterFailedAttempts failedAttempts: Int, now: Int64, windowStart: Int64,
                         random: Double) -> Decision {
        let base = Double(baseDelay(afterFailedAttempts: failedAttempts))
        let factor = 1 - jitter + 2 * jitter * min(max(random, 0), 1)
        let next = now + max(1, Int64(base * factor))
        return next > windowStart + windowMilliseconds ? .deadLetter : .retry(at: next)
    }
}
