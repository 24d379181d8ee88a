// `kycctl analyze`: the frame-analysis engine offline, for tuning thresholds. One JSON object per frame on stdout:
// {file, width, height, region, metrics, feedback, capture}. Files are JPEGs, or raw camera frames of one layout with
// --raw. An unreadable file or frame stops with exit code 2. --trace adds the document search's steps (searchTrace),
// for engine developers.
import FrameAnalysis
import Foundation

/// One line of `kycctl analyze` output.
private struct AnalyzeOutputLine: Encodable {
    var file: String
    var width: Int
    var height: Int
    var region: DocumentRegion?
    var faces: [FaceRegion]
    var metrics: [String: Double]
    var feedback: [Feedback]
    /// The auto-capture tracker's decision (with --sequence the files are one stream).
    var capture: Bool
    /// With --timing: the analysis's wall-clock time (decode included, file read excluded), in microseconds.
    var elapsedMicroseconds: Double?
    /// With --trace: the document search's steps, in order (`FrameAnalyzer.searchTrace`).
    var searchTrace: [SearchStep]?

    private enum CodingKeys: String, CodingKey {
        case file, width, height, region, faces, metrics, feedback, capture, elapsedMicroseconds, searchTrace
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(region, forKey: .region)   // null when no document: the key is always present
        if !faces.isEmpty { try c.encode(faces, forKey: .faces) }
        try c.encode(metrics, forKey: .metrics)
        try c.encode(feedback, forKey: .feedback)
        try c.encode(capture, forKey: .capture)
        try c.encodeIfPresent(elapsedMicroseconds, forKey: .elapsedMicroseconds)
        try c.encodeIfPresent(searchTrace, forKey: .searchTrace)
    }
}

func analyze(_ arguments: ArraySlice<String>) throws {
    try stoppingOnFileError("analyze") { try analyzeFrames(arguments) }
}

/// Runs a frame command (`analyze`, `diagnose`): a file it cannot read stops it with exit code 2 and
/// `kycctl COMMAND: reason`, without the usage text.
func stoppingOnFileError(_ command: String, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as AnalyzeFileError {
        // Lines already printed stay valid; the operator learns which file stopped the run.
        FileHandle.standardError.write(Data("kycctl \(command): \(error.message)\n".utf8))
        exit(2)
    }
}

private func analyzeFrames(_ arguments: ArraySlice<String>) throws {
    let options = try Options(arguments, switches: ["sequence", "video-range", "timing", "trace"])
    let mode: FrameMode
    switch options.values["mode"] ?? "document" {
    case "document": mode = .document
    case "selfie": mode = .selfie
    case let other: throw CommandLineError(description: "--mode must be document or selfie, not '\(other)'")
    }
    var thresholds = AnalysisThresholds.default
    if let path = options.values["thresholds"] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandLineError(description: "cannot read thresholds file \(path)")
        }
        do {
            thresholds = try AnalysisThresholds(json: [UInt8](data))
        } catch {
            throw CommandLineError(description: "thresholds file \(path): \(error)")
        }
    }
    var rotation = FrameRotation.none
    if let text = options.values["rotation"] {
        guard let degrees = Int(text), let value = FrameRotation(degrees: degrees) else {
            throw CommandLineError(description: "--rotation must be 0, 90, 180 or 270, not '\(text)'")
        }
        rotation = value
    }
    var raw: RawFrameLayout?
    if let text = options.values["raw"] {
        guard let layout = RawFrameLayout(argument: text) else {
            throw CommandLineError(description: "--raw must be FORMAT:WIDTHxHEIGHT[:STRIDE] with FORMAT gray8, nv12 "
                                   + "or nv21 (e.g. nv21:1280x720), not '\(text)'")
        }
        raw = layout
    }
    let videoRange = options.switches.contains("video-range")
    if videoRange && raw == nil {
        throw CommandLineError(description: "--video-range applies to --raw frames only (a JPEG's luma is full range)")
    }
    for key in options.values.keys where !["mode", "thresholds", "rotation", "raw"].contains(key) {
        throw CommandLineError(description: "unknown option --\(key)")
    }
    guard !options.positional.isEmpty else { throw CommandLineError(description: "analyze needs at least one FILE") }

    let traces = options.switches.contains("trace")
    if traces && mode != .document {
        throw CommandLineError(description: "--trace applies to document frames only (it lists the document search's steps)")
    }
    let analyzer = FrameAnalyzer(thresholds: thresholds)
    analyzer.tracesSearch = traces
    let sequence = options.switches.contains("sequence")
    let timing = options.switches.contains("timing")
    var tracker = CaptureTracker()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    for path in options.positional {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AnalyzeFileError(message: "cannot read \(path)")
        }
        // Without --sequence every file is its own stream (captured only when stillFrames is 1).
        if !sequence { tracker = CaptureTracker() }
        let frame: StreamFrame
        let clock = ContinuousClock()
        let started = clock.now
        do {
            // In a sequence each frame is looked for around the previous frame's region first, as the service does.
            let input = raw?.input([UInt8](data), lumaRange: videoRange ? .video : .full) ?? .jpeg([UInt8](data))
            frame = try analyzer.analyze(input, mode: mode, rotation: rotation, stream: &tracker)
        } catch {
            throw AnalyzeFileError(message: "\(path): \(error.message) (\(error.code.rawValue))")
        }
        let elapsed = started.duration(to: clock.now)
        let analysis = frame.analysis
        let line = AnalyzeOutputLine(file: path, width: analysis.width, height: analysis.height,
                                     region: analysis.region, faces: analysis.faces, metrics: analysis.metrics.values,
                                     feedback: frame.feedback, capture: frame.capture,
                                     elapsedMicroseconds: timing ? elapsed / .microseconds(1) : nil,
                                     searchTrace: traces ? analyzer.searchTrace : nil)
        print(String(decoding: try encoder.encode(line), as: UTF8.self))
    }
}

/// A frame file that cannot be read or decoded: exit code 2 with the reason, without the usage text.
struct AnalyzeFileError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
