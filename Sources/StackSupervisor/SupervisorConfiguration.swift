/// Timing and policy of `StackSupervisor`. Every field has a default suited to `kycctl up`.
public struct SupervisorConfiguration: Sendable, Equatable {
    /// Wait before the first restart of a crashed child; doubled after each further crash.
    public var restartBackoffInitial: Duration
    /// Upper bound of the restart wait.
    public var restartBackoffMax: Duration
    /// A child that ran at least this long before crashing starts again from `restartBackoffInitial`.
    public var stableAfter: Duration
    /// On shutdown, how long children get between SIGTERM and SIGKILL.
    public var shutdownGrace: Duration
    /// Linux: start each child through `setpriv --pdeathsig KILL` (util-linux) so that the kernel kills it when the
    /// supervisor dies without a chance to clean up (SIGKILL, crash). Ignored when `setpriv` is not installed.
    public var killChildrenIfSupervisorDies: Bool

    public init(restartBackoffInitial: Duration = .seconds(1), restartBackoffMax: Duration = .seconds(32),
                stableAfter: Duration = .seconds(30), shutdownGrace: Duration = .seconds(10),
                killChildrenIfSupervisorDies: Bool = true) {
        self.restartBackoffInitial = restartBackoffInitial
        self.restartBackoffMax = restartBackoffMax
        self.stableAfter = stableAfter
        self.shutdownGrace = shutdownGrace
        self.killChildrenIfSupervisorDies = killChildrenIfSupervisorDies
    }
}

extension Duration {
    /// Whole nanoseconds, clamped to zero below and about 100 years above, for arithmetic on the monotonic clock.
    var clampedNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        if seconds < 0 || (seconds == 0 && attoseconds < 0) { return 0 }
        let cappedSeconds = UInt64(min(seconds, 3_155_760_000))
        return cappedSeconds * 1_000_000_000 + UInt64(max(attoseconds, 0) / 1_000_000_000)
    }
}
