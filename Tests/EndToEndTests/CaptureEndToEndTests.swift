import Foundation
import Testing
import TestSupport

/// CaptureService behind the gateway's broker: two processes, one stream whose frames the broker hands to them in
/// turn (least recently used worker first), the tracker state travelling in each request and reply, reaching a
/// capture decision. The stream is played by `kyc-bench capture-stream` (a ServiceClient on the broker's client
/// endpoint) on frames from tools/framegen.
@Suite("CaptureService end to end", .serialized)
struct CaptureEndToEndTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A still GOOD document filmed `count` times, from the generator, written inside `scratch`.
    static func stillSequence(count: Int, in scratch: TemporaryDirectory) throws -> String {
        let directory = scratch.file("frames")
        try Framegen.generate(into: directory, ["--seed", "11", "--count-per-class", "0", "--sequence", String(count)])
        return directory
    }

    /// A gateway requiring "capture" and `processes` CaptureService processes, registered with its broker.
    static func captureStack(processes: Int) async throws -> StackHarness {
        let stack = try StackHarness()
        try stack.start("Gateway", extraEnvironment: ["KYC_REQUIRED_SERVICES": "capture"])
        for _ in 0..<processes { try stack.start("CaptureService") }
        try await stack.waitForWorkers("capture", count: processes)
        return stack
    }

    /// `kyc-bench capture-stream` over `frames` as stream `stream` (plus `arguments`): one JSON object per frame.
    static func play(_ frames: String, stream: String, on stack: StackHarness,
                     arguments: [String] = []) throws -> [[String: Any]] {
        let result = try stack.runTool("kyc-bench", ["capture-stream", "--endpoint", stack.brokerClientEndpoint,
                                                     "--frames", frames, "--stream", stream] + arguments)
        #expect(result.status == 0)
        return result.output.split(separator: "\n").compactMap { line -> [String: Any]? in
            guard line.hasPrefix("{") else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }

    @Test func aStreamServedAlternatelyByTwoProcessesReachesACapture() async throws {
        let scratch = try TemporaryDirectory("kyc-e2e-capture")
        defer { scratch.remove() }
        let frames = try Self.stillSequence(count: 6, in: scratch)
        let stack = try await Self.captureStack(processes: 2)
        defer { stack.stopAll() }

        let replies = try Self.play(frames, stream: "e2e-stream", on: stack)
        #expect(replies.count == 6)
        let instances = replies.compactMap { $0["instance"] as? String }
        #expect(Set(instances).count == 2, "both processes served the stream: \(instances)")
        // Consecutive frames went to different processes, so the state really travelled between them.
        #expect(zip(instances, instances.dropFirst()).allSatisfy { $0 != $1 }, "\(instances)")
        let captures = replies.map { $0["capture"] as? Bool ?? false }
        let firstCapture = try #require(captures.firstIndex(of: true), "no capture: \(replies)")
        // Default thresholds: three GOOD and still frames in a row.
        #expect(firstCapture == 2, "\(replies)")
        #expect(replies.prefix(firstCapture + 1).allSatisfy { ($0["feedback"] as? [String])?.first == "GOOD" })
    }

    /// The rotation travels through the broker to the service: a stream sent upside down (rotation 180, as a phone
    /// held the other way up sends it) is turned back and captured as the upright one; a quarter turn swaps the
    /// reply's width and height; anything else is refused on `rotation` and the service keeps serving.
    @Test func aStreamSentTurnedIsAnsweredUpright() async throws {
        let scratch = try TemporaryDirectory("kyc-e2e-capture-turned")
        defer { scratch.remove() }
        let frames = try Self.stillSequence(count: 4, in: scratch)
        let stack = try await Self.captureStack(processes: 1)
        defer { stack.stopAll() }
        func play(_ rotation: String, stream: String) throws -> [[String: Any]] {
            try Self.play(frames, stream: stream, on: stack, arguments: ["--rotation", rotation])
        }
        let upsideDown = try play("180", stream: "turned-180")
        #expect(upsideDown.count == 4)
        #expect(upsideDown.map { $0["capture"] as? Bool ?? false } == [false, false, true, false], "\(upsideDown)")
        #expect(upsideDown.allSatisfy { $0["width"] as? Int == 1280 && $0["height"] as? Int == 720 })
        let quarter = try play("90", stream: "turned-90")
        #expect(quarter.allSatisfy { $0["width"] as? Int == 720 && $0["height"] as? Int == 1280 }, "\(quarter)")
        let refused = try play("45", stream: "turned-45")
        #expect(refused.count == 4 && refused.allSatisfy { $0["error"] as? String == "invalid_value" }, "\(refused)")
        #expect(try play("0", stream: "upright").count == 4)
    }

    /// A card whose sides only colour shows (ADR 12), through the broker to two processes in turn: every frame is
    /// found in colour and GOOD, the frames after the first are followed in colour by whichever process gets them
    /// (the "found in colour" flag travels in the sealed tracker state; without it each would be searched whole, and
    /// `tracked` would be absent), and the stream captures once.
    @Test func aCardOnlyColourShowsIsFollowedAcrossProcesses() async throws {
        let scratch = try TemporaryDirectory("kyc-e2e-capture-colour")
        defer { scratch.remove() }
        let fixture = Self.repositoryRoot
            .appendingPathComponent("Tests/FrameAnalysisTests/Fixtures/colour-edged-card-camsim-seed4.jpg")
        let directory = scratch.file("frames")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for index in 0..<6 {
            try FileManager.default.copyItem(atPath: fixture.path, toPath: directory + "/seq_still_00\(index).jpg")
        }
        let stack = try await Self.captureStack(processes: 2)
        defer { stack.stopAll() }

        let replies = try Self.play(directory, stream: "colour-stream", on: stack)
        #expect(replies.count == 6)
        let instances = replies.compactMap { $0["instance"] as? String }
        #expect(zip(instances, instances.dropFirst()).allSatisfy { $0 != $1 }, "\(instances)")
        let metrics = replies.map { $0["metrics"] as? [String: Double] ?? [:] }
        #expect(metrics.allSatisfy { $0["colourEdges"] == 1 }, "\(replies)")
        #expect(replies.allSatisfy { ($0["feedback"] as? [String])?.first == "GOOD" }, "\(replies)")
        #expect(metrics.filter { $0["tracked"] == 1 }.count == 4, "\(replies)")
        #expect(replies.filter { $0["capture"] as? Bool == true }.count == 1, "\(replies)")
    }
}
