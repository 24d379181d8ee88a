// `kycctl diagnose`: where the document finder loses the cards of a labelled frame set (tools/framegen's or
// tools/camsim's labels.json), for engine developers (docs/capture.md, "Diagnosing a missed card"). One JSON object
// per document frame with true corners: its label and `FrameAnalyzer.diagnoseDocument` against the labelled corners
// (the engine's answer included). An unreadable labels file or frame stops with exit code 2.
import FrameAnalysis
import Foundation

/// The part of a labels.json frame entry the diagnosis reads.
private struct LabelledFrames: Decodable {
    struct Frame: Decodable {
        var file: String
        var mode: String?
        var expected: String
        var corners: [[Double]]?
    }
    var frames: [Frame]
}

/// One line of `kycctl diagnose` output.
private struct DiagnoseOutputLine: Encodable {
    var file: String
    var expected: String
    var diagnosis: DocumentDiagnosis
}

func diagnose(_ arguments: ArraySlice<String>) throws {
    try stoppingOnFileError("diagnose") { try diagnoseFrames(arguments) }
}

private func diagnoseFrames(_ arguments: ArraySlice<String>) throws {
    let options = try Options(arguments, switches: ["misses"])
    for key in options.values.keys where key != "labels" {
        throw CommandLineError(description: "unknown option --\(key)")
    }
    guard let labelsPath = options.values["labels"] else {
        throw CommandLineError(description: "diagnose needs --labels DIR/labels.json")
    }
    guard let data = FileManager.default.contents(atPath: labelsPath) else {
        throw AnalyzeFileError(message: "cannot read \(labelsPath)")
    }
    let labels: LabelledFrames
    do {
        labels = try JSONDecoder().decode(LabelledFrames.self, from: data)
    } catch {
        throw AnalyzeFileError(message: "\(labelsPath) is not a frame set's labels.json (\(error))")
    }
    let directory = URL(fileURLWithPath: labelsPath).deletingLastPathComponent()
    let wanted = Set(options.positional.map { URL(fileURLWithPath: $0).lastPathComponent })
    let misses = options.switches.contains("misses")
    let analyzer = FrameAnalyzer()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    for frame in labels.frames where (frame.mode ?? "document") == "document" {
        guard wanted.isEmpty || wanted.contains(frame.file),
              let corners = frame.corners, corners.count == 4, corners.allSatisfy({ $0.count == 2 }) else { continue }
        let path = directory.appendingPathComponent(frame.file).path
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw AnalyzeFileError(message: "cannot read \(path)")
        }
        let input = FrameInput.jpeg([UInt8](bytes))
        do {
            let diagnosis = try analyzer.diagnoseDocument(input, truth: corners.map { FramePoint(x: $0[0], y: $0[1]) })
            if misses && diagnosis.feedback.first?.code.rawValue == frame.expected { continue }
            let line = DiagnoseOutputLine(file: path, expected: frame.expected, diagnosis: diagnosis)
            print(String(decoding: try encoder.encode(line), as: UTF8.self))
        } catch let error as FrameAnalysisError {
            throw AnalyzeFileError(message: "\(path): \(error.message) (\(error.code.rawValue))")
        }
    }
}
