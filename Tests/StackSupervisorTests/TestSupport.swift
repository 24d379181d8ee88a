import Foundation
import Glibc
import KYCCore
import Synchronization
@testable import StackSupervisor
import TestSupport

/// The scratch directory that children write their pid and markers into.
extension TemporaryDirectory {
    func files(prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
    }

    func read(_ name: String) -> String? {
        try? String(contentsOfFile: path + "/" + name, encoding: .utf8)
    }
}

/// A `/bin/sh -c` child; the script sees the scratch directory as `$D`. Files are written to a temporary name and
/// renamed, so a poller never reads half a line.
func shellChild(_ name: String, _ script: String, in directory: TemporaryDirectory, instances: Int = 1,
                environment: [String: String] = [:]) -> ChildSpec {
    ChildSpec(name: name, executablePath: "/bin/sh", arguments: ["-c", script],
              environment: environment.merging(["D": directory.path]) { $1 }, instances: instances)
}

/// Shell snippet: atomically writes `content` to `$D/<file>`.
func writeFile(_ file: String, _ content: String) -> String {
    "echo \"\(content)\" > \"$D/.tmp-$$\" && mv \"$D/.tmp-$$\" \"$D/\(file)\""
}

/// Polls `condition` until it holds or `timeout` passes; returns whether it held. Never a fixed wait for readiness.
func eventually(timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// Whether a process with this pid exists (zombies count: they have not been reaped).
func processExists(_ pid: pid_t) -> Bool {
    kill(pid, 0) == 0 || errno == EPERM
}

func makeLogger(_ sink: InMemoryLogSink) -> Logger {
    Logger(service: "stack-supervisor-tests", level: .debug, sink: sink)
}

/// Short timings so that crash loops and shutdowns finish quickly in tests.
func quickConfiguration(grace: Duration = .seconds(5)) -> SupervisorConfiguration {
    SupervisorConfiguration(restartBackoffInitial: .milliseconds(200), restartBackoffMax: .milliseconds(400),
                            stableAfter: .seconds(30), shutdownGrace: grace)
}

/// A flag another thread sets; a class so that closures can share it.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}
