import Foundation
import TestSupport

/// tools/framegen/framegen.py run for the suites that need its frames (every call in one process: a pool whose worker
/// dies waits for it for ever, seen once in CI with the suites running side by side, where a lone process exits with
/// an error the test reports).
enum Framegen {
    /// framegen with `arguments` (seed, counts, sizes, modes, sequences) into `directory`; throws with its error output
    /// when it fails.
    static func generate(into directory: String, _ arguments: [String]) throws {
        let script = CaptureEndToEndTests.repositoryRoot.appendingPathComponent("tools/framegen/framegen.py").path
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"),
                                    ["python3", script, "--out", directory, "--jobs", "1"] + arguments)
        guard result.status == 0 else { throw HarnessError("framegen failed: \(result.error)") }
    }

    /// One 720p document frame per class of seed `seed` into `directory`, with `arguments` added (`--sequence K`).
    static func documents(into directory: String, seed: Int, _ arguments: [String] = []) throws {
        try generate(into: directory, ["--seed", String(seed), "--count-per-class", "1", "--size", "1280x720",
                                       "--modes", "document"] + arguments)
    }
}
