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
        let height: Int
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
        let decoder = JPEGGrayDecoder(), longSide = analyzer.thresholds.workingLongSide
        var output = "Capture per frame (medians, one thread)        decode us  analysis us  analysis/decode\n"
        for height in [720, 1080] {
            let chosen = labels.frames.filter { $0.mode == "document" && $0.sequence == nil && $0.height == height }
                .sorted { $0.file < $1.file }
            let frames = try load(chosen)
            guard !frames.isEmpty else { continue }
            var decodeSamples = Array(repeating: [UInt64](), count: frames.count)
            var analysisSamples = decodeSamples
            for round in 0..<(warmup + rounds) {
                for (index, jpeg) in frames.enumerated() {
                    let start = MonotonicClock.nowNanoseconds()
                    _ = try decoder.decodeOnly(jpeg, longSide: longSide)
                    let decoded = MonotonicClock.nowNanoseconds()
                    _ = try analyzer.analyze(.jpeg(jpeg), mode: .document)
                    let analysed = MonotonicClock.nowNanoseconds()
                    guard round >= warmup else { continue }
                    decodeSamples[index].append(decoded - start)
                    analysisSamples[index].append(analysed - decoded)
                }
            }
            let costs = chosen.indices.map { index in
                FrameCost(file: chosen[index].file, height: height,
                          decode: LatencySummary(nanoseconds: decodeSamples[index]),
                          analysis: LatencySummary(nanoseconds: analysisSamples[index]))
            }
            for cost in costs.sorted(by: { $0.analysis.p50Microseconds > $1.analysis.p50Microseconds }) {
                let name = cost.file.padding(toLength: max(cost.file.count, 44), withPad: " ", startingAt: 0)
                output += "\(name) \(Self.column(cost.decode.p50Microseconds, 10))"
                    + " \(Self.column(cost.analysis.p50Microseconds, 12)) \(Self.column(cost.ratio, 16, digits: 2))\n"
            }
        }
        print(output, terminator: "")
    }

    /// `value` right-aligned in `width` characters.
    static func column(_ value: Double, _ width: Int, digits: Int = 1) -> String {
        let text = Format.fixed(value, digits)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
