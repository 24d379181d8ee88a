import Foundation
import Glibc
import KYCCore
import Testing
@testable import StackSupervisor
import TestSupport

/// Real child processes (`/bin/sh -c` scripts) under a real supervisor. Serialized: several tests block a thread in
/// `stop()` for up to a grace period, and the machine has two cores.
@Suite(.serialized) struct StackSupervisorProcessTests {
    @Test func startsEveryInstanceWithTheParentEnvironmentPlusTheSpecs() async throws {
        let directory = try TemporaryDirectory("stack-supervisor-tests")
        defer { directory.remove() }
        // Children that outlive any wait here: with `sleep 30`, a full test run on a loaded two-core machine resumed
        // this test (its task starved of pool threads by blocking tests) after the children had exited and been
        // restarted, and it counted six or nine of them. stop() ends them.
        let script = writeFile("started-$$", "$$|$GREETING|$PATH") + "; exec sleep 600"
        let supervisor = StackSupervisor(
            children: [
                shellChild("Alpha", script, in: directory, instances: 2, environment: ["GREETING": "hello"]),
                shellChild("Beta", script, in: directory, environment: ["GREETING": "hi"]),
            ],
            configuration: quickConfiguration(), logger: makeLogger(InMemoryLogSink()))
        try supervisor.start()
        defer { supervisor.stop() }

        #expect(await eventually { directory.files(prefix: "started-").count == 3 })
        let statuses = supervisor.status()
        #expect(statuses.map(\.name) == ["Alpha", "Alpha", "Beta"])
        #expect(statuses.map(\.instance) == [0, 1, 0])
        #expect(statuses.allSatisfy { $0.state == .running && $0.restarts == 0 })
        let reported = directory.files(prefix: "started-").compactMap { directory.read($0) }
        let fields = reported.map { $0.trimmingCharacters(in: .newlines).split(separator: "|", omittingEmptySubsequences: false) }
        #expect(Set(fields.compactMap { Int32($0[0]) }) == Set(statuses.compactMap(\.pid)),
                "each child runs under the pid status() reports")
        #expect(fields.map { String($0[1]) }.sorted() == ["hello", "hello", "hi"])
        let parentPath = ProcessInfo.processInfo.environment["PATH"] ?? ""
        #expect(fields.allSatisfy { String($0[2]) == parentPath }, "the parent's environment is inherited")
    }

    @Test func crashingChildIsRestartedAfterADoublingBackoff() async throws {
        let directory = try TemporaryDirectory("stack-supervisor-tests")
        defer { directory.remove() }
        let sink = InMemoryLogSink()
        let supervisor = StackSupervisor(
            children: [shellChild("Crasher", "date +%s%N >> \"$D/starts\"; exit 3", in: directory)],
            configuration: quickConfiguration(), logger: makeLogger(sink))
        try supervisor.start()
        defer { supervisor.stop() }

        func starts() -> [Int64] { (directory.read("starts") ?? "").split(separator: "\n").compactMap { Int64($0) } }
        // The fourth start is the third restart; wait for its line, which it writes just after being spawned.
        #expect(await eventually { starts().count >= 4 })
        let status = try #require(supervisor.status().first)
        #expect(status.restarts >= 3)
        #expect(status.lastExit == .exited(code: 3))
        let starts = starts()
        try #require(starts.count >= 4)
        let gapsMilliseconds = zip(starts.dropFirst(), starts).map { ($0 - $1) / 1_000_000 }
        // 200 ms, then doubled to 400 ms, then capped at 400 ms; a gap can only be longer than its back-off.
        #expect(gapsMilliseconds[0] >= 195)
        #expect(gapsMilliseconds[1] >= 395)
        #expect(gapsMilliseconds[2] >= 395)
        #expect(sink.lines.contains { $0.contains("exited unexpectedly") && $0.contains("child.exit=\"exit status 3\"") })
    }

    @Test func shutdownSendsSIGTERMAndEveryChildIsGoneWithinTheGrace() async throws {
        let directory = try TemporaryDirectory("stack-supervisor-tests")
        defer { directory.remove() }
        // Exits 0 on SIGTERM, after leaving a marker, as a well-behaved service does.
        let script = "trap '\(writeFile("term-$$", "term")); kill $! 2>/dev/null; exit 0' TERM; "
            + writeFile("pid-$$", "$$") + "; sleep 30 & wait"
        let supervisor = StackSupervisor(
            children: [shellChild("Polite", script, in: directory, instances: 3)],
            configuration: quickConfiguration(grace: .seconds(10)), logger: makeLogger(InMemoryLogSink()))
        try supervisor.start()
        #expect(await eventually { directory.files(prefix: "pid-").count == 3 })
        let pids = supervisor.status().compactMap(\.pid)
        #expect(pids.count == 3)

        supervisor.stop()

        let statuses = supervisor.status()
        #expect(statuses.allSatisfy { $0.state == .stopped && $0.pid == nil })
        #expect(statuses.allSatisfy { $0.lastExit == .exited(code: 0) }, "each ended on SIGTERM, none was SIGKILLed")
        #expect(directory.files(prefix: "term-").count == 3)
        #expect(pids.allSatisfy { !processExists($0) })
    }

    @Test func childIgnoringSIGTERMIsKilledAfterTheGrace() async throws {
        let directory = try TemporaryDirectory("stack-supervisor-tests")
        defer { directory.remove() }
        let sink = InMemoryLogSink()
        let supervisor = StackSupervisor(
            children: [
                shellChild("Stubborn", "trap '' TERM; " + writeFile("pid-$$", "$$") + "; exec sleep 60", in: directory),
                shellChild("Polite", "exec sleep 60", in: directory),
            ],
            configuration: quickConfiguration(grace: .milliseconds(300)), logger: makeLogger(sink))
        try supervisor.start()
        #expect(await eventually { directory.files(prefix: "pid-").count == 1 })
        let pids = supervisor.status().compactMap(\.pid)

        supervisor.stop()

        let statuses = supervisor.status()
        #expect(statuses[0].lastExit == .signaled(signal: SIGKILL))
        #expect(statuses[1].lastExit == .signaled(signal: SIGTERM))
        #expect(statuses.allSatisfy { $0.state == .stopped })
        #expect(pids.allSatisfy { !processExists($0) })
        #expect(sink.lines.contains { $0.contains("sending SIGKILL") && $0.contains("child.name=Stubborn") })
        #expect(!sink.lines.contains { $0.contains("sending SIGKILL") && $0.contains("child.name=Polite") })
    }

    @Test func runReturnsAfterShutdownIsSignalled() async throws {
        let directory = try TemporaryDirectory("stack-supervisor-tests")
        defer { directory.remove() }
        let supervisor = StackSupervisor(
            children: [shellChild("Sleeper", writeFile("pid-$$", "$$") + "; exec sleep 30", in: directory)],
            configuration: quickConfiguration(), logger: makeLogger(InMemoryLogSink()))
        try supervisor.start()
        #expect(await eventually { directory.files(prefix: "pid-").count == 1 })
        let pid = try #require(supervisor.status().first?.pid)

        let shutdown = ShutdownSignal()
        let returned = Flag()
        let runner = Thread {
            supervisor.run(until: shutdown)
            returned.set()
        }
        runner.start()
        #expect(await eventually(timeout: .milliseconds(300)) { returned.isSet } == false,
                "run(until:) must block while no shutdown is requested")
        shutdown.trigger()
        #expect(await eventually { returned.isSet })
        #expect(!processExists(pid))
        #expect(supervisor.status().first?.state == .stopped)
    }

    @Test func childrenStartWithDefaultSignalHandlingWhateverTheSupervisorBlocks() async throws {
        let directory = try TemporaryDirectory("stack-supervisor-tests")
        defer { directory.remove() }
        let supervisor = StackSupervisor(
            children: [shellChild("Sleeper", writeFile("pid-$$", "$$") + "; exec sleep 30", in: directory)],
            configuration: quickConfiguration(), logger: makeLogger(InMemoryLogSink()))
        // As in `kycctl`: `ShutdownSignal.install()` sets SIGTERM to SIG_IGN process-wide, and the supervisor thread
        // inherits this thread's signal mask. Ignored and blocked signals both survive exec, so a child must get
        // neither, or SIGTERM could not stop it. The process-wide change lasts only for the start() call.
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        sigaddset(&blocked, SIGINT)
        var previousMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previousMask)
        let previousHandler = signal(SIGTERM, SIG_IGN)
        let started = Result { try supervisor.start() }
        signal(SIGTERM, previousHandler)
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        try started.get()
        defer { supervisor.stop() }

        let pid = try #require(supervisor.status().first?.pid)
        let statusPath = "/proc/\(pid)/status"
        #expect(await eventually { (try? String(contentsOfFile: statusPath, encoding: .utf8))?.contains("Name:\tsleep") == true })
        let status = try String(contentsOfFile: statusPath, encoding: .utf8)
        let termBit: UInt64 = 1 << UInt64(SIGTERM - 1)
        for field in ["SigBlk:", "SigIgn:"] {
            let line = status.split(separator: "\n").first { $0.hasPrefix(field) }
            let mask = line.flatMap { UInt64($0.dropFirst(field.count).trimmingCharacters(in: .whitespaces), radix: 16) }
            #expect(mask.map { $0 & termBit == 0 } == true, "\(field) must not hold SIGTERM")
        }
        // Polled: `Name:\tsleep` shows from execve on, while the dynamic loader still holds a library open on fd 3 for
        // a moment (seen under load in the full run). A descriptor leaked from the supervisor would stay open forever.
        let openDescriptors = { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.sorted() }
        #expect(await eventually { openDescriptors() == ["0", "1", "2"] },
                "descriptors beyond stderr are closed: \(openDescriptors() ?? [])")
    }

    @Test func missingExecutableFailsStartNamingThePath() throws {
        let missing = "/nonexistent/kyc-suite/Gateway"
        let supervisor = StackSupervisor(
            children: [ChildSpec(name: "Gateway", executablePath: missing)], logger: makeLogger(InMemoryLogSink()))
        let error = #expect(throws: StackSupervisorError.self) { try supervisor.start() }
        #expect(error?.code == .executableNotFound)
        #expect(error?.path == missing)
        #expect(error?.description.contains(missing) == true)
    }

    @Test func nonExecutableFileFailsStart() throws {
        let directory = try TemporaryDirectory("stack-supervisor-tests")
        defer { directory.remove() }
        let path = directory.path + "/NotAProgram"
        _ = FileManager.default.createFile(atPath: path, contents: Data("#!/bin/sh\n".utf8),
                                       attributes: [.posixPermissions: 0o644])
        let supervisor = StackSupervisor(
            children: [ChildSpec(name: "Odd", executablePath: path)], logger: makeLogger(InMemoryLogSink()))
        let error = #expect(throws: StackSupervisorError.self) { try supervisor.start() }
        #expect(error?.code == .notExecutable)
        #expect(error?.path == path)
    }

    @Test func zeroInstancesIsRejected() {
        let supervisor = StackSupervisor(
            children: [ChildSpec(name: "Empty", executablePath: "/bin/sh", instances: 0)],
            logger: makeLogger(InMemoryLogSink()))
        #expect(throws: StackSupervisorError.self) { try supervisor.start() }
    }

    @Test func secondStartIsRejected() throws {
        let supervisor = StackSupervisor(
            children: [ChildSpec(name: "Sleeper", executablePath: "/bin/sleep", arguments: ["30"])],
            configuration: quickConfiguration(), logger: makeLogger(InMemoryLogSink()))
        try supervisor.start()
        defer { supervisor.stop() }
        let error = #expect(throws: StackSupervisorError.self) { try supervisor.start() }
        #expect(error?.code == .alreadyStarted)
    }
}

@Suite struct SiblingExecutableTests {
    @Test func findsAnExecutableInTheSameDirectory() {
        #expect(StackSupervisor.locateSiblingExecutable("sh", nextTo: "/bin/true") == "/bin/sh")
        #expect(StackSupervisor.locateSiblingExecutable("no-such-program-kyc", nextTo: "/bin/true") == nil)
        #expect(StackSupervisor.locateSiblingExecutable("../bin/sh", nextTo: "/bin/true") == nil)
        #expect(StackSupervisor.locateSiblingExecutable("", nextTo: "/bin/true") == nil)
    }

    @Test func findsTheRunningExecutableBesideItself() throws {
        let own = try #require(StackSupervisor.currentExecutablePath())
        let name = (own as NSString).lastPathComponent
        #expect(StackSupervisor.locateSiblingExecutable(name) == own)
    }
}
