// kyc-bench capture: per-frame cost of the frame-analysis engine on tools/framegen's JPEGs, next to two baselines
// measured in the same run on the same frames: (1) decoding alone (libjpeg-turbo straight to gray at the engine's
// working resolution, the floor any analysis pays) and (3) the equivalent OpenCV pipeline through COpenCVBridge.
import COpenCVBridge
import FrameAnalysis
import Foundation
import KYCCore

/// `kyc-bench capture --frames DIR [--rounds N] [--warmup N]
/// [--profile document|selfie|decode|still-stream|per-frame]`: DIR is a framegen output (labels.json + JPEGs).
/// `--profile` runs only that mode's full analysis (or, `decode`, only the decode of the document frames: the
/// baseline; `still-stream`, only the still sequences played as capture streams), for `perf record` and
/// `heaptrack`; it prints timings and the frames per round (`capture.profile.frames`) but no
/// ratios, since the baselines are skipped. `per-frame` measures each document frame on its own (its decode and its
/// analysis, `CaptureCommand+PerFrame.swift`): which frames set the percentiles the comparison reports.
struct CaptureCommand {
    let directory: String
    let rounds: Int
    let warmup: Int
    /// What `--profile` runs instead of the comparison.
    let profile: Profile?

    enum Profile {
        /// One mode's full analysis of that mode's frames.
        case analysis(FrameMode)
        /// Only the decode of the document frames (the baseline).
        case decode
        /// Only framegen's still sequences, each played as one capture stream (the tracked path).
        case stillStream
        /// Each document frame's decode and analysis on their own, slowest analysis first.
        case perFrame

        /// The labelled frames the profile runs on: their mode, and their sequence (nil: single frames).
        var frames: (mode: String, sequence: String?) {
            switch self {
            case .analysis(.selfie): ("selfie", nil)
            case .analysis, .decode, .perFrame: ("document", nil)
            case .stillStream: ("document", "still")
            }
        }
    }

    static let usage = """
          kyc-bench capture --frames DIR [--rounds N] [--warmup N]
                            [--profile document|selfie|decode|still-stream|per-frame]
              decode-only vs full analysis vs the OpenCV reference pipeline on framegen's 720p/1080p JPEGs
              (tools/framegen/framegen.py --size 1280x720,1920x1080 [--sequence K]: its still and moving sequences
              are also played as capture streams); prints key=value lines and a table;
              --profile runs only that mode's analysis, only the decode, or only the still sequences as streams
              (for perf record and heaptrack), without baselines or ratios; per-frame prints each document
              frame's decode and analysis medians and their ratio, slowest analysis first
        """

    init(arguments: ArraySlice<String>) throws {
        var directory: String?
        var rounds = 20, warmup = 2
        var profile: Profile?
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            guard let value = iterator.next() else {
                throw BenchError(.usage, function: "arguments", message: "\(name) needs a value")
            }
            switch name {
            case "--frames": directory = value
            case "--rounds": rounds = try Self.count(name, value, 1...100_000)
            case "--warmup": warmup = try Self.count(name, value, 0...1_000)
            case "--profile":
                switch value {
                case "document": profile = .analysis(.document)
                case "selfie": profile = .analysis(.selfie)
                case "decode": profile = .decode
                case "still-stream": profile = .stillStream
                case "per-frame": profile = .perFrame
                default:
                    throw BenchError(.usage, function: "arguments",
                                     message: "--profile must be document, selfie, decode, still-stream or per-frame")
                }
            default: throw BenchError(.usage, function: "arguments", message: "unexpected argument '\(name)'")
            }
        }
        guard let directory else { throw BenchError(.usage, function: "arguments", message: "--frames is required") }
        self.directory = directory
        self.rounds = rounds
        self.warmup = warmup
        self.profile = profile
    }

    private static func count(_ name: String, _ value: String, _ range: ClosedRange<Int>) throws -> Int {
        guard let number = Int(value), range.contains(number) else {
            throw BenchError(.usage, function: "arguments",
                             message: "\(name) must be an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return number
    }

    /// Frames per still selfie stream in the selfie stream measurement.
    static let selfieStreamLength = 5

    struct Label: Decodable {
        let file: String
        let mode: String
        let height: Int
        let sequence: String?
    }

    struct Labels: Decodable {
        let frames: [Label]
    }

    func run() throws {
        // Every measurement runs on this one thread, OpenCV's too (as the engine runs it: one analyzer per thread).
        kyc_opencv_run_on_calling_thread()
        let labelsURL = URL(fileURLWithPath: directory).appendingPathComponent("labels.json")
        guard let data = FileManager.default.contents(atPath: labelsURL.path),
              let labels = try? JSONDecoder().decode(Labels.self, from: data) else {
            throw BenchError(.notReady, function: "labels.json", message: "cannot read \(labelsURL.path)")
        }
        if let profile {
            try runProfile(labels, profile)
            return
        }
        var lines: [String] = []
        var table = "Capture (per frame, one thread)        p50 us    p99 us   frames/s\n"
        let thresholds = AnalysisThresholds.default
        lines.append("capture.working_long_side=\(thresholds.workingLongSide)")
        lines.append("capture.opencv_threads=\(kyc_opencv_thread_count())")
        for height in [720, 1080] {
            let documents = try load(labels, mode: "document", height: height)
            guard !documents.isEmpty else { continue }
            let key = "capture.\(height)p"
            let analyzer = FrameAnalyzer()
            let (decode, analysis) = try decodeAndAnalysis(documents, analyzer: analyzer)
            let reference = try measure(documents) { jpeg in
                var result = kyc_reference_result()
                let rc = jpeg.withUnsafeBufferPointer {
                    kyc_reference_pipeline($0.baseAddress, $0.count, Int32(thresholds.workingLongSide), &result)
                }
                guard rc == 0 else {
                    throw BenchError(.invalidResult, function: "kyc_reference_pipeline", message: "failed")
                }
            }
            lines.append("\(key).frames=\(documents.count)")
            report(decode, key: "\(key).decode", title: "\(height)p document: decode only", &lines, &table)
            report(analysis, key: "\(key).analysis", title: "\(height)p document: full analysis", &lines, &table,
                   perSecond: true)
            report(reference, key: "\(key).opencv", title: "\(height)p document: OpenCV reference", &lines, &table)
            lines += ratioLines("\(key).ratio.analysis_over_decode", analysis, over: decode)
            lines += ratioLines("\(key).ratio.opencv_over_analysis", reference, over: analysis)
            // The same frames sent as a sensor a quarter turn off upright would send them (`rotation` 90): the
            // working image is turned before the analysis (docs/capture.md, "Orientation"), which then judges the
            // upright, portrait frame.
            let turned = try measure(documents) { jpeg in
                _ = try analyzer.analyze(.jpeg(jpeg), mode: .document, rotation: .clockwise90)
            }
            report(turned, key: "\(key).turned", title: "\(height)p document: turned a quarter", &lines, &table)
            lines += ratioLines("\(key).ratio.turned_over_analysis", turned, over: analysis)
            let selfies = try load(labels, mode: "selfie", height: height)
            if !selfies.isEmpty {
                let selfie = try measure(selfies) { jpeg in _ = try analyzer.analyze(.jpeg(jpeg), mode: .selfie) }
                report(selfie, key: "\(key).selfie", title: "\(height)p selfie: full analysis", &lines, &table,
                       perSecond: true)
                // Each selfie frame as a still stream of `selfieStreamLength` copies, with the tracker's hint (the
                // face's box), as CaptureService plays a stream: frames with one face are found around it.
                let copies = selfies.flatMap { Array(repeating: $0, count: Self.selfieStreamLength) }
                var tracker = CaptureTracker(), played = 0, tracked = 0
                let stream = try measure(copies, startingRound: { played = 0 }) { jpeg in
                    if played % Self.selfieStreamLength == 0 { tracker = CaptureTracker() }
                    played += 1
                    let frame = try analyzer.analyze(.jpeg(jpeg), mode: .selfie, stream: &tracker)
                    if frame.analysis.metrics["tracked"] != nil { tracked += 1 }
                }
                report(stream, key: "\(key).selfie_stream", title: "\(height)p selfie: still streams", &lines, &table,
                       perSecond: true)
                lines.append("\(key).selfie_stream.tracked_share=\(Format.fixed(Double(tracked) / Double(max(copies.count * (rounds + warmup), 1)), 2))")
            }
        }
        try measureStreams(labels, lines: &lines, table: &table)
        for line in lines { print(line) }
        print("")
        print(table, terminator: "")
    }

    /// framegen's sequences (`--sequence K`) played as capture streams: each frame analysed with the corners the
    /// previous frame found (`CaptureTracker.hint`, as CaptureService does with the tracker state), next to decoding
    /// alone and the single-frame analysis of the same frames. A still card is found again around its previous
    /// outline; a moving one (3–5 % of the width per frame) gets the full search.
    private func measureStreams(_ labels: Labels, lines: inout [String], table: inout String) throws {
        for height in [720, 1080] {
            for kind in ["still", "moving"] {
                let frames = try load(labels, mode: "document", sequence: kind, height: height)
                guard !frames.isEmpty else { continue }
                let key = "capture.\(height)p.stream_\(kind)"
                let analyzer = FrameAnalyzer()
                let decodeSamples = try samples(frames, Self.decoding(for: analyzer))
                let single = try measure(frames) { jpeg in _ = try analyzer.analyze(.jpeg(jpeg), mode: .document) }
                let played = try playStream(frames, analyzer: analyzer)
                let decode = LatencySummary(nanoseconds: decodeSamples)
                let stream = LatencySummary(nanoseconds: played.samples)
                lines.append("\(key).frames=\(frames.count)")
                report(decode, key: "\(key).decode", title: "\(height)p \(kind) stream: decode only", &lines, &table)
                report(single, key: "\(key).single", title: "\(height)p \(kind) stream: single frames", &lines, &table)
                report(stream, key: "\(key).analysis", title: "\(height)p \(kind) stream: analysis", &lines, &table)
                lines.append("\(key).tracked_share=\(Format.fixed(Self.share(of: played.tracked), 2))")
                lines += ratioLines("\(key).ratio.analysis_over_decode", stream, over: decode)
                lines += ratioLines("\(key).ratio.single_over_decode", single, over: decode)
                // The frames found again where they were, apart: what a stream pays most of the time. (Each sample
                // of the stream and of the decode is the same frame of the same round, so a tracked frame's decode
                // is its own.)
                let trackedDecode = zip(decodeSamples, played.tracked).filter(\.1).map(\.0)
                let trackedStream = zip(played.samples, played.tracked).filter(\.1).map(\.0)
                if !trackedStream.isEmpty {
                    let trackedDecodeSummary = LatencySummary(nanoseconds: trackedDecode)
                    let trackedSummary = LatencySummary(nanoseconds: trackedStream)
                    report(trackedDecodeSummary, key: "\(key).tracked_decode",
                           title: "\(height)p \(kind) stream: tracked, decode", &lines, &table)
                    report(trackedSummary, key: "\(key).tracked_analysis",
                           title: "\(height)p \(kind) stream: tracked, analysis", &lines, &table)
                    lines += ratioLines("\(key).ratio.tracked_analysis_over_decode", trackedSummary,
                                        over: trackedDecodeSummary)
                }
            }
        }
    }

    /// `frames` played in order as one capture stream per round (the tracker started again each round), each frame
    /// analysed with the corners the previous one found, as CaptureService does: the timings, and the share of frames
    /// whose card was found again where it was (metric `tracked`).
    private func measureStream(_ frames: [[UInt8]], analyzer: FrameAnalyzer) throws
        -> (timings: LatencySummary, trackedShare: Double) {
        let played = try playStream(frames, analyzer: analyzer)
        return (LatencySummary(nanoseconds: played.samples), Self.share(of: played.tracked))
    }

    /// The share of `flags` that are true (0 for none).
    static func share(of flags: [Bool]) -> Double {
        Double(flags.filter { $0 }.count) / Double(max(flags.count, 1))
    }

    /// `measureStream`'s samples (in `samples`' order) and, for each, whether its frame was tracked.
    private func playStream(_ frames: [[UInt8]], analyzer: FrameAnalyzer) throws
        -> (samples: [UInt64], tracked: [Bool]) {
        var tracker = CaptureTracker()
        var tracked: [Bool] = []
        let samples = try samples(frames, startingRound: { tracker = CaptureTracker() }) { jpeg in
            let frame = try analyzer.analyze(.jpeg(jpeg), mode: .document, stream: &tracker)
            tracked.append(frame.analysis.metrics["tracked"] != nil)
        }
        // (The warm-up rounds' calls come first.)
        return (samples, Array(tracked.suffix(samples.count)))
    }

    /// The decode-only baseline (1) at `analyzer`'s working resolution: libjpeg-turbo straight to gray, one decoder
    /// for every frame.
    static func decoding(for analyzer: FrameAnalyzer) -> ([UInt8]) throws -> Void {
        let decoder = JPEGGrayDecoder(), longSide = analyzer.thresholds.workingLongSide
        return { jpeg in _ = try decoder.decodeOnly(jpeg, longSide: longSide) }
    }

    /// Decoding alone (libjpeg-turbo to gray at the working resolution) and the single-frame document analysis of
    /// `frames`, each measured on its own.
    private func decodeAndAnalysis(_ frames: [[UInt8]], analyzer: FrameAnalyzer) throws
        -> (decode: LatencySummary, analysis: LatencySummary) {
        let decode = try measure(frames, Self.decoding(for: analyzer))
        let analysis = try measure(frames) { jpeg in _ = try analyzer.analyze(.jpeg(jpeg), mode: .document) }
        return (decode, analysis)
    }

    /// Only the full analysis of one mode, only the decode of the document frames, or only the still sequences as
    /// streams, so that a profiler sees nothing else.
    private func runProfile(_ labels: Labels, _ profile: Profile) throws {
        if case .perFrame = profile { return try runPerFrame(labels) }
        let analyzer = FrameAnalyzer()
        let decode = Self.decoding(for: analyzer)
        var table = "Capture profile (per frame, one thread)  p50 us    p99 us   frames/s\n"
        var count = 0
        for height in [720, 1080] {
            let (mode, sequence) = profile.frames
            let frames = try load(labels, mode: mode, sequence: sequence, height: height)
            guard !frames.isEmpty else { continue }
            count += frames.count
            let timings: LatencySummary
            switch profile {
            case .analysis(let frameMode):
                timings = try measure(frames) { jpeg in _ = try analyzer.analyze(.jpeg(jpeg), mode: frameMode) }
                table += row("\(height)p \(mode): full analysis", timings)
            case .decode:
                timings = try measure(frames, decode)
                table += row("\(height)p document: decode only", timings)
            case .stillStream:
                timings = try measureStream(frames, analyzer: analyzer).timings
                table += row("\(height)p still stream: analysis", timings)
            case .perFrame:
                continue
            }
        }
        print("capture.profile.frames=\(count)")
        print(table, terminator: "")
    }

    /// The `height`p frames of one mode, single frames (`sequence` nil) or one of framegen's sequences, in file
    /// order (a sequence's frame order).
    private func load(_ labels: Labels, mode: String, sequence: String? = nil, height: Int) throws -> [[UInt8]] {
        try load(Self.chosen(labels, mode: mode, sequence: sequence, height: height))
    }

    /// The `height`p frames of one mode, single frames (`sequence` nil) or one of framegen's sequences, in file order.
    static func chosen(_ labels: Labels, mode: String, sequence: String? = nil, height: Int) -> [Label] {
        labels.frames.filter { $0.mode == mode && $0.sequence == sequence && $0.height == height }
            .sorted { $0.file < $1.file }
    }

    func load(_ labels: [Label]) throws -> [[UInt8]] {
        try labels.map { label in
            let path = URL(fileURLWithPath: directory).appendingPathComponent(label.file).path
            guard let data = FileManager.default.contents(atPath: path) else {
                throw BenchError(.notReady, function: "read", message: "cannot read \(path)")
            }
            return Array(data)
        }
    }

    /// Each frame `warmup` times unmeasured, then `rounds` measured passes over all frames (one sample per call).
    /// `startingRound` runs before each pass (a stream starts over).
    private func measure(_ frames: [[UInt8]], startingRound: () -> Void = {},
                         _ body: ([UInt8]) throws -> Void) throws -> LatencySummary {
        LatencySummary(nanoseconds: try samples(frames, startingRound: startingRound, body))
    }

    /// `measure`'s samples, in order: round by round, each round's frames in order (sample k is frame k % count).
    private func samples(_ frames: [[UInt8]], startingRound: () -> Void = {},
                         _ body: ([UInt8]) throws -> Void) throws -> [UInt64] {
        for _ in 0..<warmup {
            startingRound()
            for frame in frames { try body(frame) }
        }
        var samples: [UInt64] = []
        samples.reserveCapacity(frames.count * rounds)
        for _ in 0..<rounds {
            startingRound()
            for frame in frames {
                let start = MonotonicClock.nowNanoseconds()
                try body(frame)
                samples.append(MonotonicClock.nowNanoseconds() - start)
            }
        }
        return samples
    }

    /// `NAME_p50=` and `NAME_p99=` lines: `numerator`'s percentile over `denominator`'s.
    private func ratioLines(_ name: String, _ numerator: LatencySummary, over denominator: LatencySummary) -> [String] {
        ["\(name)_p50=\(ratio(numerator.p50Microseconds, denominator.p50Microseconds))",
         "\(name)_p99=\(ratio(numerator.p99Microseconds, denominator.p99Microseconds))"]
    }

    private func ratio(_ numerator: Double, _ denominator: Double) -> String {
        denominator > 0 ? Format.fixed(numerator / denominator, 2) : "nan"
    }

    /// One measurement in both outputs: its key=value lines under `key` (with `key.frames_per_s`, frames one core
    /// analyses per second at the mean, when `perSecond`) and its table row `title`.
    private func report(_ summary: LatencySummary, key: String, title: String, _ lines: inout [String],
                        _ table: inout String, perSecond: Bool = false) {
        lines += summary.keyValueLines(prefix: key)
        if perSecond { lines.append("\(key).frames_per_s=\(Format.fixed(framesPerSecond(summary), 0))") }
        table += row(title, summary)
    }

    private func framesPerSecond(_ summary: LatencySummary) -> Double {
        1_000_000 / max(summary.meanMicroseconds, 0.001)
    }

    private func row(_ name: String, _ summary: LatencySummary) -> String {
        Format.left(name, 36) + Format.right(Format.fixed(summary.p50Microseconds, 1), 9)
            + Format.right(Format.fixed(summary.p99Microseconds, 1), 10)
            + Format.right(Format.fixed(framesPerSecond(summary), 0), 11) + "\n"
    }
}
