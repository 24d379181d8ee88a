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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repositoryRoot.appendingPathComponent("tools/framegen/framegen.py").path,
                             "--out", directory, "--seed", "11", "--count-per-class", "0", "--sequence",
                             String(count)]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw HarnessError("framegen failed") }
        return directory
    }

    @Test func aStreamServedAlternatelyByTwoProcessesReachesACapture() async throws {
        let scratch = try TemporaryDirectory("kyc-e2e-capture")
        defer { scratch.remove() }
        let frames = try Self.stillSequence(count: 6, in: scratch)
        let stack = try StackHarness()
        defer { stack.stopAll() }
        try stack.start("Gateway", extraEnvironment: ["KYC_REQUIRED_SERVICES": "capture"])
        try stack.start("CaptureService")
        try stack.start("CaptureService")
        try await stack.waitForWorkers("capture", count: 2)

        let result = try stack.runTool("kyc-bench", ["capture-stream", "--endpoint", stack.brokerClientEndpoint,
                                                     "--frames", frames, "--stream", "e2e-stream"])
        #expect(result.status == 0)
        let replies = result.output.split(separator: "\n").compactMap { line -> [String: Any]? in
            guard line.hasPrefix("{") else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
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
}
