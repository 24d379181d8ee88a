import Foundation
import Testing
import TestSupport

/// `kyc-bench capture`: `--profile per-frame`, each document frame's decode and analysis medians, the tool that names
/// the frames behind the benchmark's percentiles (docs/capture.md, "Profiling"); and the stream rows a full run
/// prints, a still stream's tracked frames measured apart.
@Suite("kyc-bench capture")
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
        try Framegen.documents(into: frames, seed: 7)
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

    /// The key=value lines of a full `kyc-bench capture` run.
    static func values(_ output: String) -> [String: Double] {
        var values: [String: Double] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Double(parts[1]) { values[String(parts[0])] = value }
        }
        return values
    }

    /// framegen's still sequence played as a capture stream: its tracked frames (found again around the previous
    /// frame's corners) are measured apart, with their own decode, and their ratio is the two medians'; the moving
    /// sequence is reported beside it (`make bench` reads these rows, docs/benchmarks.md).
    @Test func aStillStreamsTrackedFramesAreMeasuredApart() throws {
        let scratch = try TemporaryDirectory("kyc-bench-streams")
        let frames = scratch.file("frames")
        try Framegen.documents(into: frames, seed: 7, ["--sequence", "6"])

        let bench = StackHarness.buildDirectory.appendingPathComponent("kyc-bench")
        let result = try runProcess(bench, ["capture", "--frames", frames, "--rounds", "2", "--warmup", "0"])
        #expect(result.status == 0, "\(result.error)")
        let values = Self.values(result.output)
        let still = "capture.720p.stream_still"
        #expect(values["\(still).frames"] == 6, "\(result.output)")
        // A still card is found again on most frames (the first and the one that may be captured are searched whole).
        let share = try #require(values["\(still).tracked_share"], "\(result.output)")
        #expect(share > 0 && share < 1, "\(share)")
        let decode = try #require(values["\(still).tracked_decode.p50_us"], "\(result.output)")
        let analysis = try #require(values["\(still).tracked_analysis.p50_us"], "\(result.output)")
        let ratio = try #require(values["\(still).ratio.tracked_analysis_over_decode_p50"], "\(result.output)")
        #expect(decode > 0 && analysis > 0)
        // The same frames of the same rounds on both sides: the tracked share of the stream's 2 × 6 samples.
        let samples = try #require(values["\(still).tracked_analysis.samples"])
        #expect(values["\(still).tracked_decode.samples"] == samples)
        #expect(abs(samples / 12 - share) <= 0.005 + 1e-9, "\(samples) samples, share \(share)")
        // (Medians printed to 0.1 us, the ratio to 0.01: see the per-frame test's bound.)
        #expect(abs(ratio - analysis / decode) <= (0.005 + 0.05 * (1 + ratio + 0.01) / decode) * 1.001,
                "\(ratio) vs \(analysis) / \(decode)")
        #expect(values["capture.720p.stream_moving.frames"] == 6, "\(result.output)")
    }
}
