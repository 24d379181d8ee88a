import Glibc
import Testing
@testable import StackSupervisor

/// The child life cycle as a pure value: back-off arithmetic and shutdown deadlines without processes or waiting.
@Suite struct ChildStateMachineTests {
    typealias Machine = StackSupervisor.ChildStateMachine
    static let second: UInt64 = 1_000_000_000

    static func machine(grace: Duration = .seconds(10)) -> Machine {
        let configuration = SupervisorConfiguration(restartBackoffInitial: .seconds(1), restartBackoffMax: .seconds(8),
                                                    stableAfter: .seconds(30), shutdownGrace: grace)
        return Machine(timing: Machine.Timing(configuration, abandonAfterKill: 5 * second))
    }

    @Test func backoffDoublesOnEachQuickCrashUpToTheMaximum() {
        var machine = Self.machine()
        var now: UInt64 = 100 * Self.second
        machine.spawned(pid: 10, now: now)
        var delays: [UInt64] = []
        for round in 0..<6 {
            now += Self.second / 2  // crashes half a second after each start
            guard case .restart(let delay) = machine.exited(.exited(code: 3), now: now) else {
                Issue.record("crash not scheduled for restart")
                return
            }
            delays.append(delay / Self.second)
            #expect(machine.tick(now: now + delay - 1) == .none, "restarted before the back-off ended")
            now += delay
            #expect(machine.tick(now: now) == .spawn)
            machine.spawned(pid: pid_t(11 + round), now: now)
        }
        #expect(delays == [1, 2, 4, 8, 8, 8])
        #expect(machine.restarts == 6)
        #expect(machine.lastExit == .exited(code: 3))
    }

    @Test func backoffResetsAfterAStableRun() {
        var machine = Self.machine()
        var now: UInt64 = 0
        machine.spawned(pid: 10, now: now)
        for _ in 0..<3 {  // three quick crashes: 1 s, 2 s, 4 s
            now += Self.second
            guard case .restart(let delay) = machine.exited(.signaled(signal: SIGSEGV), now: now) else {
                Issue.record("crash not scheduled for restart")
                return
            }
            now += delay
            #expect(machine.tick(now: now) == .spawn)
            machine.spawned(pid: 11, now: now)
        }
        now += 31 * Self.second  // longer than stableAfter
        #expect(machine.exited(.exited(code: 1), now: now) == .restart(afterNanoseconds: Self.second))
    }

    @Test func failedSpawnBacksOffLikeACrash() {
        var machine = Self.machine()
        machine.spawned(pid: 10, now: 0)
        #expect(machine.exited(.exited(code: 1), now: Self.second) == .restart(afterNanoseconds: Self.second))
        #expect(machine.tick(now: 2 * Self.second) == .spawn)
        #expect(machine.spawnFailed(now: 2 * Self.second) == 2 * Self.second)
        #expect(machine.publicState == .waitingToRestart)
        #expect(machine.restarts == 0, "a failed spawn is not a restart")
    }

    @Test func shutdownTerminatesThenKillsAfterTheGrace() {
        var machine = Self.machine(grace: .seconds(10))
        machine.spawned(pid: 42, now: 0)
        #expect(machine.beginShutdown(now: Self.second) == .terminate(pid: 42))
        #expect(machine.publicState == .stopping)
        #expect(machine.nextDeadline == 11 * Self.second)
        #expect(machine.tick(now: 11 * Self.second - 1) == .none)
        #expect(machine.tick(now: 11 * Self.second) == .kill(pid: 42))
        #expect(machine.exited(.signaled(signal: SIGKILL), now: 11 * Self.second) == .stopped)
        #expect(machine.isStopped)
        #expect(machine.pid == nil)
        #expect(machine.lastExit == .signaled(signal: SIGKILL))
    }

    @Test func exitDuringShutdownIsNotACrash() {
        var machine = Self.machine()
        machine.spawned(pid: 42, now: 0)
        _ = machine.beginShutdown(now: Self.second)
        #expect(machine.exited(.exited(code: 0), now: 2 * Self.second) == .stopped)
        #expect(machine.restarts == 0)
        #expect(machine.tick(now: 100 * Self.second) == .none, "a stopped child must never be spawned again")
    }

    @Test func shutdownCancelsAPendingRestart() {
        var machine = Self.machine()
        machine.spawned(pid: 42, now: 0)
        _ = machine.exited(.exited(code: 1), now: 0)
        #expect(machine.beginShutdown(now: 0) == .none)
        #expect(machine.isStopped)
        #expect(machine.tick(now: 100 * Self.second) == .none)
    }

    @Test func unreapableChildIsAbandonedAfterKill() {
        var machine = Self.machine(grace: .seconds(1))
        machine.spawned(pid: 42, now: 0)
        _ = machine.beginShutdown(now: 0)
        #expect(machine.tick(now: Self.second) == .kill(pid: 42))
        #expect(machine.tick(now: 6 * Self.second) == .abandon(pid: 42))
        #expect(machine.isStopped)
    }

    @Test func strayExitIsIgnored() {
        var machine = Self.machine()
        #expect(machine.exited(.exited(code: 0), now: 0) == .ignored)
        #expect(machine.publicState == .notStarted)
    }

    @Test func waitStatusDecoding() {
        #expect(ChildExit(waitStatus: 3 << 8) == .exited(code: 3))
        #expect(ChildExit(waitStatus: 0) == .exited(code: 0))
        #expect(ChildExit(waitStatus: SIGKILL) == .signaled(signal: SIGKILL))
        #expect(ChildExit(waitStatus: SIGSEGV | 0x80) == .signaled(signal: SIGSEGV), "core-dump bit ignored")
        #expect(ChildExit.signaled(signal: SIGTERM).description == "signal 15 (SIGTERM)")
        #expect(ChildExit.exited(code: 3).description == "exit status 3")
    }
}
