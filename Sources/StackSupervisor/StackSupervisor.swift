import Dispatch
import Foundation
import Glibc
import KYCCore
import Synchronization

/// Runs the gateway and every service as child processes on one machine, restarts a child that exits on its own
/// after a doubling back-off, and on shutdown stops them all: SIGTERM, a grace period, then SIGKILL.
///
/// All process work (spawn, `waitpid`, signals) happens on one thread the supervisor owns, from `start()` until every
/// child is reaped. One thread because `PR_SET_PDEATHSIG` follows the spawning thread (see `ProcessLauncher`), and
/// because a single owner of the per-child state needs no locks beyond the published status snapshot.
///
/// Children are reaped with `waitpid(pid, WNOHANG)` on their own pids, polled every few tens of milliseconds,
/// rather than with a SIGCHLD handler or `waitpid(-1)`: those would steal the exits of processes that other code in
/// the same process started (Foundation.Process, another supervisor in a test run).
///
/// ```swift
/// let supervisor = StackSupervisor(children: specs, logger: logger)
/// try supervisor.start()
/// supervisor.run(until: shutdown)   // returns once every child is gone
/// ```
public final class StackSupervisor: Sendable {
    public let children: [ChildSpec]
    public let configuration: SupervisorConfiguration
    private let logger: Logger

    /// How often the supervisor thread polls `waitpid` when no deadline is nearer.
    static let reapPollNanoseconds: UInt64 = 50_000_000

    private enum Phase: Sendable { case idle, running, finished }

    private struct Shared: Sendable {
        var phase = Phase.idle
        var statuses: [ChildStatus] = []
        var startupError: StackSupervisorError?
    }

    private let shared = Mutex<Shared>(Shared())
    private let stopRequested = Atomic<Bool>(false)
    /// Cuts the supervisor thread's poll wait short when a stop is requested.
    private let wakeUp = DispatchSemaphore(value: 0)
    /// Entered when the supervisor thread starts, left when every child is gone.
    private let finished = DispatchGroup()

    /// - Parameters:
    ///   - children: what to run; `start()` checks each spec.
    ///   - configuration: back-off and shutdown timing.
    ///   - logger: child starts, exits (with status or signal), restarts and shutdown steps are logged here.
    public init(children: [ChildSpec], configuration: SupervisorConfiguration = SupervisorConfiguration(),
                logger: Logger) {
        self.children = children
        self.configuration = configuration
        self.logger = logger
        let placeholders = children.flatMap { spec in
            (0..<max(spec.instances, 0)).map { instance in
                ChildStatus(name: spec.name, instance: instance, pid: nil, restarts: 0, state: .notStarted,
                            lastExit: nil)
            }
        }
        shared.withLock { $0.statuses = placeholders }
    }

    /// Checks every spec and spawns every instance. Returns once all are running; throws (with no child left
    /// running) if a spec is invalid, an executable is missing, or a spawn fails.
    public func start() throws {
        try validate()
        try shared.withLock { state in
            guard state.phase == .idle else {
                throw StackSupervisorError(code: .alreadyStarted, message: "start() was already called")
            }
            state.phase = .running
        }
        let started = DispatchSemaphore(value: 0)
        finished.enter()
        let thread = Thread { [self] in
            superviseChildren(started: started)
            finished.leave()
        }
        thread.name = "StackSupervisor"
        thread.start()
        started.wait()
        if let error = shared.withLock({ $0.startupError }) { throw error }
    }

    /// Blocks until `shutdown` is requested and every child has been stopped and reaped. Until then the supervisor
    /// restarts children that exit. Returns at once if `start()` failed.
    public func run(until shutdown: ShutdownSignal) {
        if shared.withLock({ $0.phase == .idle }) {
            shutdown.wait()
            return
        }
        shutdown.onShutdown { [self] in requestStop() }
        finished.wait()
    }

    /// Stops every child (SIGTERM, grace, SIGKILL) and blocks until all are reaped. Safe to call more than once.
    public func stop() {
        requestStop()
        finished.wait()
    }

    /// A snapshot of every child instance, in spec order.
    public func status() -> [ChildStatus] {
        shared.withLock { $0.statuses }
    }

    private func requestStop() {
        if !stopRequested.exchange(true, ordering: .acquiringAndReleasing) { wakeUp.signal() }
    }

    // MARK: - Checks before anything is spawned

    private func validate() throws {
        for spec in children {
            guard !spec.name.isEmpty else {
                throw StackSupervisorError(code: .invalidSpecification, message: "a child spec has an empty name",
                                           path: spec.executablePath)
            }
            guard spec.instances >= 1 else {
                throw StackSupervisorError(
                    code: .invalidSpecification,
                    message: "\(spec.name): instances must be at least 1, got \(spec.instances)")
            }
            let path = spec.executablePath
            var info = stat()
            guard !path.isEmpty, stat(path, &info) == 0 else {
                throw StackSupervisorError(code: .executableNotFound,
                                           message: "\(spec.name): no executable at \(path)", path: path)
            }
            guard info.st_mode & S_IFMT == S_IFREG, access(path, X_OK) == 0 else {
                throw StackSupervisorError(code: .notExecutable,
                                           message: "\(spec.name): \(path) is not an executable file", path: path)
            }
        }
    }

    // MARK: - The supervisor thread

    /// One supervised instance: its spec, its full environment and its state machine. Lives on the supervisor thread.
    private struct Slot {
        let spec: ChildSpec
        let instance: Int
        let environment: [String: String]
        var machine: ChildStateMachine
        var logger: Logger
    }

    private func superviseChildren(started: DispatchSemaphore) {
        let timing = ChildStateMachine.Timing(configuration)
        let parentEnvironment = ProcessInfo.processInfo.environment
        var slots: [Slot] = children.flatMap { spec in
            let environment = parentEnvironment.merging(spec.environment) { _, specValue in specValue }
            return (0..<spec.instances).map { instance in
                Slot(spec: spec, instance: instance, environment: environment,
                     machine: ChildStateMachine(timing: timing),
                     logger: logger.with(["child.name": spec.name, "child.instance": String(instance)]))
            }
        }

        let launcher: ProcessLauncher
        do {
            launcher = try ProcessLauncher(killChildrenIfSupervisorDies: configuration.killChildrenIfSupervisorDies)
        } catch {
            finishStartup(failure: error, slots: slots, started: started)
            return
        }
        defer { launcher.close() }
        if configuration.killChildrenIfSupervisorDies && launcher.parentDeathWrapper == nil {
            logger.warning("setpriv not found; children may outlive the supervisor if it is killed",
                           ["searched": ProcessLauncher.setprivCandidates.joined(separator: ",")])
        }

        var startupFailure: (any Error)?
        for index in slots.indices {
            do {
                let pid = try launcher.spawn(slots[index].spec, environment: slots[index].environment)
                slots[index].machine.spawned(pid: pid, now: MonotonicClock.nowNanoseconds())
                slots[index].logger.info("child started", ["child.pid": String(pid)])
            } catch {
                startupFailure = error
                slots[index].logger.error("child failed to start", ["error": "\(error)"])
                break
            }
        }
        publish(slots)

        if let startupFailure {
            // Stop what did start, so that a failed start() leaves nothing running.
            requestStop()
            superviseUntilStopped(&slots, launcher: launcher)
            finishStartup(failure: startupFailure, slots: slots, started: started)
            return
        }
        started.signal()
        superviseUntilStopped(&slots, launcher: launcher)
        shared.withLock { $0.phase = .finished }
        logger.info("all children stopped")
    }

    private func finishStartup(failure: any Error, slots: [Slot], started: DispatchSemaphore) {
        let error = failure as? StackSupervisorError
            ?? StackSupervisorError(code: .systemCallFailed, message: "\(failure)")
        publish(slots)
        shared.withLock {
            $0.startupError = error
            $0.phase = .finished
        }
        started.signal()
    }

    /// Reaps, restarts and (once asked) stops children until every one is stopped.
    private func superviseUntilStopped(_ slots: inout [Slot], launcher: ProcessLauncher) {
        var shuttingDown = false
        while true {
            if !shuttingDown && stopRequested.load(ordering: .acquiring) {
                shuttingDown = true
                beginShutdown(&slots)
            }
            for index in slots.indices { reap(&slots[index]) }
            for index in slots.indices { tick(&slots[index], launcher: launcher) }
            publish(slots)
            if shuttingDown && slots.allSatisfy({ $0.machine.isStopped }) { return }
            waitForNextEvent(slots)
        }
    }

    private func beginShutdown(_ slots: inout [Slot]) {
        let graceSeconds = Double(configuration.shutdownGrace.clampedNanoseconds) / 1e9
        logger.info("stopping all children", ["grace.seconds": String(graceSeconds)])
        let now = MonotonicClock.nowNanoseconds()
        for index in slots.indices {
            guard case .terminate(let pid) = slots[index].machine.beginShutdown(now: now) else { continue }
            signal(pid, SIGTERM, slot: slots[index])
        }
    }

    private func reap(_ slot: inout Slot) {
        guard let pid = slot.machine.pid else { return }
        var status: Int32 = 0
        let exit: ChildExit
        do {
            let reaped = try SystemCall.checkErrno("waitpid") { waitpid(pid, &status, WNOHANG) }
            guard reaped == pid else { return }
            exit = ChildExit(waitStatus: status)
        } catch let error as StackSupervisorError where error.errorNumber == ECHILD {
            exit = .unknown
        } catch {
            slot.logger.error("waitpid failed", ["child.pid": String(pid), "error": "\(error)"])
            return
        }
        let metadata = ["child.pid": String(pid), "child.exit": exit.description]
        switch slot.machine.exited(exit, now: MonotonicClock.nowNanoseconds()) {
        case .restart(let delay):
            slot.logger.warning("child exited unexpectedly; restarting after back-off",
                                metadata.merging(["restart.delay.seconds": String(Double(delay) / 1e9),
                                                  "child.restarts": String(slot.machine.restarts)]) { $1 })
        case .stopped:
            if exit == .exited(code: 0) || exit == .signaled(signal: SIGTERM) {
                slot.logger.info("child stopped", metadata)
            } else {
                slot.logger.warning("child stopped abnormally during shutdown", metadata)
            }
        case .ignored:
            break
        }
    }

    private func tick(_ slot: inout Slot, launcher: ProcessLauncher) {
        let now = MonotonicClock.nowNanoseconds()
        switch slot.machine.tick(now: now) {
        case .none:
            break
        case .spawn:
            do {
                let pid = try launcher.spawn(slot.spec, environment: slot.environment)
                slot.machine.spawned(pid: pid, now: now)
                slot.logger.info("child restarted", ["child.pid": String(pid),
                                                     "child.restarts": String(slot.machine.restarts)])
            } catch {
                let delay = slot.machine.spawnFailed(now: now)
                slot.logger.error("child failed to restart; trying again after back-off",
                                  ["error": "\(error)", "restart.delay.seconds": String(Double(delay) / 1e9)])
            }
        case .kill(let pid):
            slot.logger.warning("child still running after the grace period; sending SIGKILL",
                                ["child.pid": String(pid)])
            signal(pid, SIGKILL, slot: slot)
        case .abandon(let pid):
            slot.logger.error("child not reaped after SIGKILL; giving up on it", ["child.pid": String(pid)])
        }
    }

    private func signal(_ pid: pid_t, _ signalNumber: Int32, slot: Slot) {
        do {
            try SystemCall.checkErrno("kill") { kill(pid, signalNumber) }
        } catch {
            // ESRCH: it already exited and waits to be reaped; the next reap handles it.
            slot.logger.debug("kill failed", ["child.pid": String(pid), "error": "\(error)"])
        }
    }

    /// Sleeps until the nearest deadline or the poll interval, whichever is sooner; a stop request cuts it short.
    private func waitForNextEvent(_ slots: [Slot]) {
        let now = MonotonicClock.nowNanoseconds()
        var wait = Self.reapPollNanoseconds
        for slot in slots {
            if let deadline = slot.machine.nextDeadline {
                wait = min(wait, deadline > now ? deadline - now : 0)
            }
        }
        guard wait > 0 else { return }
        _ = wakeUp.wait(timeout: .now() + .nanoseconds(Int(wait)))
    }

    private func publish(_ slots: [Slot]) {
        let statuses = slots.map { slot in
            ChildStatus(name: slot.spec.name, instance: slot.instance, pid: slot.machine.pid,
                        restarts: slot.machine.restarts, state: slot.machine.publicState,
                        lastExit: slot.machine.lastExit)
        }
        shared.withLock { $0.statuses = statuses }
    }
}
