import Foundation
import Testing
import TestSupport

/// tools/profiling/same_outputs.py, the byte-for-byte check that a change meant to keep the engine's outputs kept
/// them (docs/capture.md, "Profiling"): run on a small framegen set with sequences, the real `kycctl` against itself
/// and against itself with a threshold that changes answers.
@Suite("same_outputs.py end to end")
struct SameOutputsToolEndToEndTests {
    static let script = CaptureEndToEndTests.repositoryRoot
        .appendingPathComponent("tools/profiling/same_outputs.py").path

    @Test func identicalBuildsPassAndAChangedOneIsNamedFrameByFrame() throws {
        let scratch = try TemporaryDirectory("kyc-same-outputs")
        let frames = scratch.file("frames")
        try Framegen.documents(into: frames, seed: 7, ["--sequence", "5"])
        let kycctl = StackHarness.buildDirectory.appendingPathComponent("kycctl").path

        // The same build: every output (the frames alone and as a stream, each sequence, the still ones fully
        // tracked too) the same.
        let same = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), [
            "python3", Self.script, "--base", kycctl, "--new", kycctl, "--tracked", frames,
        ])
        #expect(same.status == 0, "\(same.output) \(same.error)")
        #expect(same.output.contains("outputs: 5, differing: 0"), "\(same.output)")

        // A threshold that tells every card to come closer: the single frames and the stream differ, named with the
        // first frame that does; the exit status says so.
        try #"{"minFill": 0.74}"#.write(toFile: scratch.file("far.json"), atomically: true, encoding: .utf8)
        let changed = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), [
            "python3", Self.script, "--base", kycctl, "--new", kycctl,
            "--new-args", "--thresholds \(scratch.file("far.json"))", frames,
        ])
        #expect(changed.status == 1, "\(changed.output) \(changed.error)")
        let lines = changed.output.split(separator: "\n").map(String.init)
        let documents = try #require(lines.first { $0.contains(" documents: ") }, "\(changed.output)")
        #expect(documents.hasPrefix("DIFF \(frames) documents: ") && documents.contains("first at document_"),
                "\(documents)")
        #expect(lines.contains { $0.contains(" documents-stream: ") }, "\(changed.output)")

        // A build that cannot be run is an error, not a comparison.
        let missing = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), [
            "python3", Self.script, "--base", kycctl, "--new", scratch.file("no-such-kycctl"), frames,
        ])
        #expect(missing.status == 2, "\(missing.output) \(missing.error)")
    }
}
