import Foundation
import Testing
import TestSupport

/// `kyc-bench capture --profile per-frame`: each document frame's decode and analysis medians, the tool that names the
/// frames behind the benchmark's percentiles (docs/capture.md, "Profiling").
@Suite("kyc-bench capture per frame")
struct CaptureBenchEndToEndTests {
    struct Row {
        let file: String
        let decode: Double
        let analysis: Double
        let ratio: Double
    }

    /// The table's rows (every line after the header).
    static func rows(_ output: String) throws -> [Row] {
        try output.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: " ")
            guard fields.count == 4, let decode = Double(fields[1]), let analysis = Double(fields[2]),
                  let ratio = Double(fields[3]) else { throw HarnessError("unreadable row: \(line)") }
            return Row(file: String(fields[0]), decode: decode, analysis: analysis, ratio: ratio)
        }
    }

    @Test func everyDocumentFrameGetsARowSlowestAnalysisFirst() throws {
        let scratch = try TemporaryDirectory("kyc-bench-per-frame")
        let frames = scratch.file("frames")
        let generated = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), [
            "python3", CaptureEndToEndTests.repositoryRoot.appendingPathComponent("tools/framegen/framegen.py").path,
            "--out", frames, "--seed", "7", "--count-per-class", "1", "--size", "1280x720", "--modes", "document",
            // One process: a pool whose worker dies waits for it for ever (seen once in CI, the suites running side
            // by side), where a lone process exits with an error the test reports.
            "--jobs", "1",
        ])
        #expect(generated.status == 0, "\(generated.error)")
        let documents = try FileManager.default.contentsOfDirectory(atPath: frames)
            .filter { $0.hasPrefix("document_") && $0.hasSuffix(".jpg") }
        #expect(documents.count == 10)

        let bench = StackHarness.buildDirectory.appendingPathComponent("kyc-bench")
        let result = try runProcess(bench, ["capture", "--frames", frames, "--rounds", "2", "--warmup", "0",
                                            "--profile", "per-frame"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("Capture per frame"), "\(result.output)")
        let rows = try Self.rows(result.output)
        #expect(Set(rows.map(\.file)) == Set(documents) && rows.count == documents.count, "\(rows.map(\.file))")
        for row in rows {
            #expect(row.decode > 0 && row.analysis > 0, "\(row)")
            // The ratio is the two medians' (printed to 0.01, each median to 0.1 µs: a/d read from the rounded
            // medians is off by at most 0.05 · (1 + a/d) / d).
            let roundingBound = 0.005 + 0.05 * (1 + row.ratio + 0.01) / row.decode
            #expect(abs(row.ratio - row.analysis / row.decode) <= roundingBound * 1.001, "\(row)")
        }
        #expect(rows.map(\.analysis) == rows.map(\.analysis).sorted(by: >), "\(rows.map(\.analysis))")

        let refused = try runProcess(bench, ["capture", "--frames", frames, "--profile", "per-frames"])
        #expect(refused.status != 0)
        #expect(refused.error.contains("per-frame"), "\(refused.error)")
    }
}
