import Foundation
import Testing
import TestSupport

/// scripts/run-tests, which `make test` and CI call: a process a test started and left running once `swift test`
/// has returned fails the run and is stopped. Played with a stand-in for `swift` (the script's SWIFT variable) that
/// starts such a process, detached and writing nowhere, as a crashed test process leaves its stack behind.
@Suite("run-tests end to end")
struct RunTestsScriptEndToEndTests {
    static let script = CaptureEndToEndTests.repositoryRoot.appendingPathComponent("scripts/run-tests").path

    /// The frame-set variables run-tests reads (every `KYC_…_DIR` the script names: a set added there is covered
    /// here too), pointing nowhere, so that it does not prepare the real sets.
    static let frameSets: [String] = {
        let text = (try? String(contentsOfFile: script, encoding: .utf8)) ?? ""
        let names = text.matches(of: /KYC_[A-Z_]+_DIR/).map { String($0.output) }
        return Array(Set(names)).sorted()
    }()

    /// Runs run-tests with `swift` replaced by a script whose body is `body`.
    static func runTests(swiftBody: String, in scratch: TemporaryDirectory) throws
        -> (status: Int32, output: String, error: String) {
        let swift = try CompareToolEndToEndTests.wrapper("swift", in: scratch, body: swiftBody)
        return try runProcess(URL(fileURLWithPath: "/usr/bin/env"),
                              ["SWIFT=\(swift)"] + frameSets.map { "\($0)=\(scratch.path)/none" }
                                  + ["bash", script, "--filter", "Nothing"])
    }

    @Test func aProcessLeftRunningFailsTheRunAndIsStopped() throws {
        let scratch = try TemporaryDirectory("kyc-run-tests")
        let pidFile = scratch.file("leftover.pid")
        // The left-over process records its pid, so that the test can tell it was stopped.
        let result = try Self.runTests(swiftBody: """
            setsid sleep 600 </dev/null >/dev/null 2>&1 &
            echo $! > '\(pidFile)'
            exit 0
            """, in: scratch)
        #expect(result.status == 1)
        #expect(result.error.contains("the tests left 1 processes running"), "\(result.error)")
        #expect(result.error.contains("sleep 600"), "\(result.error)")
        let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        // Stopped, or a zombie waiting for init to reap it (its environment is then empty): not running either way.
        let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?
            .split(separator: ")").last?.split(separator: " ").first
        #expect(state == nil || state == "Z", "process \(pid) is still running: state \(state.map(String.init) ?? "")")
    }

    @Test func aRunThatLeavesNothingRunningPasses() throws {
        // Every set's variable is read from the script (the five sets of scripts/prepare-test-frames).
        #expect(Self.frameSets.count == 5 && Self.frameSets.contains("KYC_CAMSIM_SMALL_DIR"), "\(Self.frameSets)")
        let scratch = try TemporaryDirectory("kyc-run-tests")
        let result = try Self.runTests(swiftBody: "echo ran; exit 0", in: scratch)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("ran"))
    }
}
