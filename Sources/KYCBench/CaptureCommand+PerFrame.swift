// kyc-bench capture --profile per-frame: each document frame's decode and analysis measured on their own, so that
// the frames behind the comparison's percentiles can be named (a p99 is one or two frames of a bench set; a p50 falls
// between two groups of frames).
import FrameAnalysis
import Foundation
import KYCCore

extension CaptureCommand {
    /// One frame's medians over the rounds.
    struct FrameCost {
        let file: String
        let decode: LatencySummary
        let analysis: LatencySummary

        /// Analysis over decode at their medians.
        var ratio: Double { analysis.p50Microseconds / max(decode.p50Microseconds, 1e-9) }
    }

    /// Each single document frame (720p, then 1080p) decoded and analysed in turn, `rounds` times after `warmup`
    /// unmeasured passes, one analyzer for all (as the comparison runs them); prints one row per frame, slowest
    /// analysis first within each size: its decode and analysis medians and their ratio.
    func runPerFrame(_ labels: Labels) throws {
        let analyzer = FrameAnalyzer()
        let decode = Self.decoding(for: analyzer)
        var output = "Capture per frame (medians, one thread)        decode us  analysis us  analysis/decode\n"
        for height in [720, 1080] {
            let chosen = Self.chosen(labels, mode: "document", height: height)
            let frames = try load(chosen)
            guard !frames.isEmpty else { continue }
            var decodeSamples = Array(repeating: [UInt64](), count: frames.count)
            var analysisSamples = decodeSamples
            for round in 0..<(warmup + rounds) {
                for (index, jpeg) in frames.enumerated() {
                    let start = MonotonicClock.nowNanoseconds()
                    try decode(jpeg)
                    let decoded = MonotonicClock.nowNanoseconds()
                    _ = try analyzer.analyze(.jpeg(jpeg), mode: .document)
                    let analysed = MonotonicClock.nowNanoseconds()
                    guard round >= warmup else { continue }
                    decodeSamples[index].append(decoded - start)
                    analysisSamples[index].append(analysed - decoded)
                }
            }
            let costs = chosen.indices.map { index in
                FrameCost(file: chosen[index].file,
                          decode: LatencySummary(nanoseconds: decodeSamples[index]),
                          analysis: LatencySummary(nanoseconds: analysisSamples[index]))
            }
            for cost in costs.sorted(by: { $0.analysis.p50Microseconds > $1.analysis.p50Microseconds }) {
                output += Format.left(cost.file, 44)
                    + " " + Format.right(Format.fixed(cost.decode.p50Microseconds, 1), 10)
                    + " " + Format.right(Format.fixed(cost.analysis.p50Microseconds, 1), 12)
                    + " " + Format.right(Format.fixed(cost.ratio, 2), 16) + "\n"
            }
        }
        print(output, terminator: "")
    }
}
