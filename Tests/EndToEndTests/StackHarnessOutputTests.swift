import Foundation
import Testing

/// The harness's processes write to log files of their own, never to the test process's output: `swift test` waits
/// until every holder of that pipe has closed it, so a stack outliving a crashed test process held the whole run
/// (StackHarness.start; scripts/run-tests stops what is left).
@Suite("Stack harness output")
struct StackHarnessOutputTests {
    /// Where descriptor `fd` of process `pid` points.
    static func target(of fd: Int, in pid: Int32) throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")
    }

    @Test func everyStartedProcessWritesToItsOwnLogFile() async throws {
        let stack = try StackHarness()
        try await stack.startGateway(appointmentWorkers: 2)
        let ownOutput = try Self.target(of: 1, in: getpid())
        for (executable, started) in stack.processes {
            for (index, process) in started.enumerated() {
                let log = stack.logFile(of: executable, index: index)
                for fd in [1, 2] {
                    let target = try Self.target(of: fd, in: process.processIdentifier)
                    #expect(target == log, "\(executable) #\(index) fd \(fd) → \(target)")
                    #expect(target != ownOutput)
                }
            }
        }
        #expect(stack.processes.values.map(\.count).reduce(0, +) == 3)
        stack.stopAll()
    }
}
