import Glibc

extension StackSupervisor {
    /// The life of one child instance as a pure value: the supervisor loop feeds it events (spawned, exited, time
    /// passed, shutdown) with the current monotonic time, and it answers with the action to take. Keeping processes
    /// and clocks out of it lets tests drive back-off and shutdown timing without spawning anything or waiting.
    struct ChildStateMachine: Equatable {
        enum State: Equatable {
            case notStarted
            case running(pid: pid_t, since: UInt64)
            case waitingToRestart(at: UInt64)
            /// SIGTERM sent; SIGKILL at `killAt`.
            case terminating(pid: pid_t, killAt: UInt64)
            /// SIGKILL sent; stop waiting for the reap at `abandonAt` (a process stuck in the kernel).
            case killing(pid: pid_t, abandonAt: UInt64)
            case stopped
        }

        /// Timings in nanoseconds of the monotonic clock.
        struct Timing: Equatable {
            var backoffInitial: UInt64
            var backoffMax: UInt64
            var stableAfter: UInt64
            var shutdownGrace: UInt64
            /// How long to wait for the reap after SIGKILL before giving up on a process.
            var abandonAfterKill: UInt64

            init(_ configuration: SupervisorConfiguration, abandonAfterKill: UInt64 = 5_000_000_000) {
                backoffInitial = configuration.restartBackoffInitial.clampedNanoseconds
                backoffMax = max(configuration.restartBackoffMax.clampedNanoseconds, backoffInitial)
                stableAfter = configuration.stableAfter.clampedNanoseconds
                shutdownGrace = configuration.shutdownGrace.clampedNanoseconds
                self.abandonAfterKill = abandonAfterKill
            }
        }

        enum ExitAction: Equatable {
            /// It crashed: start it again after this many nanoseconds.
            case restart(afterNanoseconds: UInt64)
            /// It ended during shutdown, as asked.
            case stopped
            /// No process was expected to exit (a stray event); nothing to do.
            case ignored
        }

        enum TickAction: Equatable {
            case none
            /// The back-off is over: spawn it, then report `spawned` or `spawnFailed`.
            case spawn
            /// The grace is over and it still runs: send SIGKILL.
            case kill(pid: pid_t)
            /// SIGKILL did not end it in time: stop tracking it.
            case abandon(pid: pid_t)
        }

        enum ShutdownAction: Equatable {
            case none
            /// Send SIGTERM to this process.
            case terminate(pid: pid_t)
        }

        let timing: Timing
        private(set) var state: State = .notStarted
        private(set) var restarts = 0
        /// The wait the next crash will get.
        private(set) var nextBackoff: UInt64
        private(set) var lastExit: ChildExit?

        init(timing: Timing) {
            self.timing = timing
            nextBackoff = timing.backoffInitial
        }

        /// A process for this instance now runs.
        mutating func spawned(pid: pid_t, now: UInt64) {
            switch state {
            case .notStarted:
                state = .running(pid: pid, since: now)
            case .waitingToRestart:
                restarts += 1
                state = .running(pid: pid, since: now)
            case .running, .terminating, .killing, .stopped:
                // The loop only spawns on `.spawn`; anything else is a bug in the loop, not in the child.
                assertionFailure("spawned in state \(state)")
            }
        }

        /// Spawning failed; try again after a back-off, exactly as if the child had crashed at once.
        mutating func spawnFailed(now: UInt64) -> UInt64 {
            scheduleRestart(ranFor: 0, now: now)
        }

        /// The process ended (reaped by `waitpid`).
        mutating func exited(_ exit: ChildExit, now: UInt64) -> ExitAction {
            switch state {
            case .running(_, let since):
                lastExit = exit
                return .restart(afterNanoseconds: scheduleRestart(ranFor: now &- since, now: now))
            case .terminating, .killing:
                lastExit = exit
                state = .stopped
                return .stopped
            case .notStarted, .waitingToRestart, .stopped:
                return .ignored
            }
        }

        /// Time passed; acts on whichever deadline is due.
        mutating func tick(now: UInt64) -> TickAction {
            switch state {
            case .waitingToRestart(let at) where now >= at:
                return .spawn
            case .terminating(let pid, let killAt) where now >= killAt:
                state = .killing(pid: pid, abandonAt: now + timing.abandonAfterKill)
                return .kill(pid: pid)
            case .killing(let pid, let abandonAt) where now >= abandonAt:
                state = .stopped
                return .abandon(pid: pid)
            default:
                return .none
            }
        }

        /// Shutdown was requested: a live process gets SIGTERM; a pending restart is cancelled.
        mutating func beginShutdown(now: UInt64) -> ShutdownAction {
            switch state {
            case .running(let pid, _):
                state = .terminating(pid: pid, killAt: now + timing.shutdownGrace)
                return .terminate(pid: pid)
            case .notStarted, .waitingToRestart:
                state = .stopped
                return .none
            case .terminating, .killing, .stopped:
                return .none
            }
        }

        /// The process to `waitpid` for, if any.
        var pid: pid_t? {
            switch state {
            case .running(let pid, _), .terminating(let pid, _), .killing(let pid, _): pid
            case .notStarted, .waitingToRestart, .stopped: nil
            }
        }

        /// The next time `tick` has something to do.
        var nextDeadline: UInt64? {
            switch state {
            case .waitingToRestart(let at): at
            case .terminating(_, let killAt): killAt
            case .killing(_, let abandonAt): abandonAt
            case .notStarted, .running, .stopped: nil
            }
        }

        var isStopped: Bool { state == .stopped }

        var publicState: ChildState {
            switch state {
            case .notStarted: .notStarted
            case .running: .running
            case .waitingToRestart: .waitingToRestart
            case .terminating, .killing: .stopping
            case .stopped: .stopped
            }
        }

        /// Back-off policy: a child that stayed up for `stableAfter` earns a fresh start from the initial wait;
        /// otherwise each crash doubles the wait up to the maximum, so a crash loop cannot spin the machine.
        private mutating func scheduleRestart(ranFor: UInt64, now: UInt64) -> UInt64 {
            if ranFor >= timing.stableAfter { nextBackoff = timing.backoffInitial }
            let delay = nextBackoff
            nextBackoff = min(nextBackoff.multipliedReportingOverflow(by: 2).partialValue, timing.backoffMax)
            if nextBackoff < delay { nextBackoff = timing.backoffMax }
            state = .waitingToRestart(at: now + delay)
            return delay
        }
    }
}
