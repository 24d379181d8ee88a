// kyc-bench capture-stream: plays a framegen sequence as one capture stream through the broker's client endpoint
// to whatever CaptureService processes serve "capture", carrying the tracker state from reply to request as the
// mobile SDK does. Prints one JSON line per frame (which instance answered, the feedback, the capture decision, the
// metrics) and the round-trip latency summary; the end-to-end tests use the lines, operators the latency.
import Foundation
import KYCCore
import KYCMessages
import Messaging
import ZeroMQ

/// `kyc-bench capture-stream --endpoint tcp://127.0.0.1:P --frames DIR [--sequence still|moving] [--stream ID]
/// [--rotation DEG]`
struct CaptureStreamCommand {
    let endpoint: String
    let directory: String
    let sequence: String
    let streamID: String
    let timeoutMilliseconds: Int64
    /// Sent as `AnalyzeFrameRequest.rotation` with every frame (the service refuses what is not a quarter turn).
    let rotation: Int32

    static let usage = """
          kyc-bench capture-stream --endpoint ENDPOINT --frames DIR [--sequence still|moving] [--stream ID]
                                   [--timeout-ms N] [--rotation 0|90|180|270]
              sends framegen's seq_<sequence>_* frames in order as one stream to capture.AnalyzeFrame through the
              broker's client endpoint (each with the rotation); prints a JSON line per frame (file, instance,
              feedback, capture, upright width and height, metrics by name) and round-trip latency key=value lines
        """

    init(arguments: ArraySlice<String>) throws {
        var values: [String: String] = [:]
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            guard ["--endpoint", "--frames", "--sequence", "--stream", "--timeout-ms", "--rotation"].contains(name) else {
                throw BenchError(.usage, function: "arguments", message: "unexpected argument '\(name)'")
            }
            guard let value = iterator.next() else {
                throw BenchError(.usage, function: "arguments", message: "\(name) needs a value")
            }
            values[name] = value
        }
        guard let endpoint = values["--endpoint"], let directory = values["--frames"] else {
            throw BenchError(.usage, function: "arguments", message: "--endpoint and --frames are required")
        }
        self.endpoint = endpoint
        self.directory = directory
        sequence = values["--sequence"] ?? "still"
        streamID = values["--stream"] ?? "bench-stream"
        guard let timeout = Int64(values["--timeout-ms"] ?? "10000"), (1...600_000).contains(timeout) else {
            throw BenchError(.usage, function: "arguments", message: "--timeout-ms must be 1...600000")
        }
        timeoutMilliseconds = timeout
        guard let degrees = Int32(values["--rotation"] ?? "0") else {
            throw BenchError(.usage, function: "arguments", message: "--rotation must be a number of degrees")
        }
        rotation = degrees
    }

    func run() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasPrefix("seq_\(sequence)_") && $0.hasSuffix(".jpg") }.sorted()
        guard !files.isEmpty else {
            throw BenchError(.notReady, function: "frames", message: "no seq_\(sequence)_*.jpg in \(directory)")
        }
        let context = try ZMQContext()
        let client = ServiceClient(context: context, endpoint: endpoint)
        defer { client.close() }
        var state: [UInt8] = []
        var samples: [UInt64] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: directory + "/" + file) else {
                throw BenchError(.notReady, function: "read", message: "cannot read \(file)")
            }
            let request = AnalyzeFrameRequest(frame: Array(data), format: .jpeg, mode: .document, streamID: streamID,
                                              trackerState: state, rotation: rotation)
            var envelope = RequestEnvelope()
            envelope.tenant = "bench"
            envelope.method = "capture.AnalyzeFrame"
            envelope.payload = request.serialized()
            let start = MonotonicClock.nowNanoseconds()
            let reply = try client.request(service: "capture", envelope: envelope,
                                           timeoutMilliseconds: timeoutMilliseconds)
            samples.append(MonotonicClock.nowNanoseconds() - start)
            guard reply.status == .ok else {
                print(Self.json(["file": file, "status": "\(reply.status)", "error": reply.effectiveErrorCode]))
                continue
            }
            let analysis = try AnalyzeFrameReply(serialized: reply.payload)
            state = analysis.trackerState
            print(Self.json(["file": file, "instance": analysis.instance, "capture": analysis.capture,
                             "feedback": analysis.feedback.map(\.code), "width": analysis.width,
                             "height": analysis.height,
                             "metrics": Dictionary(analysis.metrics.map { ($0.name, $0.value) },
                                                   uniquingKeysWith: { first, _ in first })]))
        }
        for line in LatencySummary(nanoseconds: samples).keyValueLines(prefix: "capture_stream.round_trip") {
            print(line)
        }
    }

    private static func json(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
