import Foundation
import Testing
import TestSupport

/// tools/framegen/compare.py, the A/B comparison of `kycctl` builds on labelled sets that every engine change is
/// judged with (docs/capture.md, tools/camsim/README.md): run on a small framegen set with the real `kycctl` as the
/// reference and, as the second build, the same binary with a threshold that makes every card too far away.
@Suite("compare.py end to end")
struct CompareToolEndToEndTests {
    static let script = CaptureEndToEndTests.repositoryRoot.appendingPathComponent("tools/framegen/compare.py").path

    /// One document frame per class from framegen (seed 11, 720p): the generator the engine is tuned on, every
    /// frame judged as labelled.
    static func documentSet(in scratch: TemporaryDirectory) throws -> String {
        let directory = scratch.file("set")
        try Framegen.documents(into: directory, seed: 11)
        return directory
    }

    static func run(_ executable: String, _ arguments: [String]) throws
        -> (status: Int32, output: String, error: String) {
        try runProcess(URL(fileURLWithPath: executable), arguments)
    }

    /// An executable script that runs `kycctl` with `arguments` added after its subcommand.
    static func wrapper(_ name: String, in scratch: TemporaryDirectory, body: String) throws -> String {
        let path = scratch.file(name)
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    /// The real `kycctl`, and a second build: the same binary with a threshold that makes every card too far away.
    static func farBuild(in scratch: TemporaryDirectory) throws -> (kycctl: String, far: String) {
        let kycctl = StackHarness.buildDirectory.appendingPathComponent("kycctl").path
        try #"{"minFill": 0.74}"#.write(toFile: scratch.file("far.json"), atomically: true, encoding: .utf8)
        let far = try wrapper("far-kycctl", in: scratch, body:
            "command=$1; shift; exec \(kycctl) \"$command\" --thresholds \(scratch.file("far.json")) \"$@\"")
        return (kycctl, far)
    }

    @Test func aWorseBuildIsScoredAndItsChangedFramesMarkedWorse() throws {
        let scratch = try TemporaryDirectory("kyc-compare")
        let set = try Self.documentSet(in: scratch)
        let (kycctl, far) = try Self.farBuild(in: scratch)
        let out = scratch.file("out")
        let result = try Self.run("/usr/bin/env", ["python3", Self.script, "--set", "g=\(set)", "--run",
                                                   "before=\(kycctl)", "--run", "after=\(far)", "--out", out,
                                                   "--confusion", "--outlines"])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        // Per set: the reference judges every frame as labelled; the far build tells the cards to come closer.
        let row = try #require(lines.first { $0.hasPrefix("  g ") }, "\(result.output)")
        #expect(row.contains("before: 10/10 unsafe 0"), "\(row)")
        let afterRight = try #require(row.firstMatch(of: /after: (\d+)\/10/)).1
        #expect(Int(afterRight)! < 10, "\(row)")
        // Every changed frame is listed, the GOOD card among them, marked worse; the totals count them.
        let good = try #require(lines.first { $0.contains("document_good_0000_720p.jpg (GOOD)") }, "\(result.output)")
        #expect(good.contains("['GOOD'] -> ['MOVE_CLOSER'") && good.hasSuffix("worse"), "\(good)")
        // With each build's corner error on the frame: a threshold moves no outline, so both are the same.
        let errors = try #require(good.firstMatch(of: /corners (\d\.\d{3}) -> (\d\.\d{3})/), "\(good)")
        #expect(errors.1 == errors.2 && Double(errors.1)! < 0.02, "\(good)")
        let listed = lines.filter { $0.hasPrefix("  g document_") }
        let totals = try #require(lines.first { $0.contains(" changed, ") }, "\(result.output)")
        let counts = try #require(totals.firstMatch(of: /(\d+) changed, (\d+) better, (\d+) worse/))
        #expect(Int(counts.1) == listed.count && Int(counts.2) == 0, "\(totals)")
        #expect(Int(counts.3)! == 10 - Int(afterRight)!, "\(totals)")
        // --outlines: no frame with the same answer has a moved outline (a fill threshold moves none).
        #expect(totals.hasSuffix("; 0 outlines moved with the same answer"), "\(totals)")
        #expect(!lines.contains { $0.contains("outline moved") }, "\(result.output)")
        #expect(result.output.contains("MOVE_CLOSER"), "confusion table: \(result.output)")
        // Each build's answers are kept for a later look, one line per frame.
        let kept = try String(contentsOfFile: out + "/after/g.jsonl", encoding: .utf8)
        #expect(kept.split(separator: "\n").count == 10)
    }

    /// --outlines: a build whose outlines are moved (the real answers, every corner shifted 40 px right) and whose
    /// codes are the same is listed frame by frame as "outline moved", with both corner errors, and counted.
    @Test func outlinesMovedUnderTheSameAnswerAreListed() throws {
        let scratch = try TemporaryDirectory("kyc-compare-outlines")
        let set = try Self.documentSet(in: scratch)
        let kycctl = StackHarness.buildDirectory.appendingPathComponent("kycctl").path
        let shift = #"import json, subprocess, sys\#n"#
            + #"run = subprocess.run(sys.argv[1:], capture_output=True, text=True)\#n"#
            + #"for line in run.stdout.splitlines():\#n"#
            + #"    o = json.loads(line)\#n"#
            + #"    for c in (o.get('region') or {}).get('corners', []): c['x'] += 40\#n"#
            + #"    print(json.dumps(o))\#n"#
            + #"sys.stderr.write(run.stderr)\#n"#
            + #"sys.exit(run.returncode)\#n"#
        try shift.write(toFile: scratch.file("shift.py"), atomically: true, encoding: .utf8)
        let shifted = try Self.wrapper("shifted-kycctl", in: scratch, body:
            "exec python3 \(scratch.file("shift.py")) \(kycctl) \"$@\"")
        let result = try Self.run("/usr/bin/env", ["python3", Self.script, "--set", "g=\(set)", "--run",
                                                   "before=\(kycctl)", "--run", "shifted=\(shifted)", "--out",
                                                   scratch.file("out"), "--outlines"])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        let moved = lines.filter { $0.contains("outline moved") }
        // Every frame with a card found is moved; the empty frame (NO_DOCUMENT, no region) is not.
        #expect(moved.count >= 8, "\(result.output)")
        for line in moved {
            let errors = try #require(line.firstMatch(of: /corners (\d\.\d{3}) -> (\d\.\d{3})/), "\(line)")
            #expect(Double(errors.2)! > Double(errors.1)! + 0.01, "\(line)")
        }
        let totals = try #require(lines.first { $0.contains(" changed, ") }, "\(result.output)")
        #expect(totals.hasSuffix("; \(moved.count) outlines moved with the same answer"), "\(totals)")
        #expect(totals.hasPrefix("  0 changed"), "\(totals)")
    }

    /// --trace: the builds run with `kycctl analyze --trace`; per build, how many frames each search answered (every
    /// frame counted once, "-" for a frame without an outline), and each changed frame names the search that
    /// answered it in each build. A threshold moves no outline, so the searches are the same. Document mode only.
    @Test func traceNamesTheSearchThatAnsweredEachFrame() throws {
        let scratch = try TemporaryDirectory("kyc-compare-trace")
        let set = try Self.documentSet(in: scratch)
        let (kycctl, far) = try Self.farBuild(in: scratch)
        let result = try Self.run("/usr/bin/env", ["python3", Self.script, "--set", "g=\(set)", "--run",
                                                   "before=\(kycctl)", "--run", "after=\(far)", "--out",
                                                   scratch.file("out"), "--trace"])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        for build in ["before", "after"] {
            let row = try #require(lines.first { $0.hasPrefix("  \(build): ") && !$0.contains("/") },
                                   "\(result.output)")
            let counts = row.matches(of: /([A-Za-z.\-]+) (\d+)/).map { (String($0.1), Int($0.2)!) }
            #expect(counts.map(\.1).reduce(0, +) == 10, "\(row)")
            #expect(counts.contains { $0.0.hasPrefix("find.") } && !counts.contains { $0.0 == "?" }, "\(row)")
            // A search run apart answers only through a `locate.*` step; here one frame (`cut_off_0000`) runs the
            // search at the detection scale after the answer's search, and its outline (0.69) is not taken.
            #expect(!counts.contains { ["detectionScale.", "window.", "colour."].contains(where: $0.0.hasPrefix) },
                    "\(row)")
        }
        let changed = lines.filter { $0.hasPrefix("  g document_") }
        #expect(!changed.isEmpty, "\(result.output)")
        for line in changed {
            let searches = try #require(line.firstMatch(of: /\[([A-Za-z.\-]+) -> ([A-Za-z.\-]+)\]/), "\(line)")
            #expect(searches.1 == searches.2 && searches.1 != "?", "\(line)")
        }
        let selfie = try Self.run("/usr/bin/env", ["python3", Self.script, "--mode", "selfie", "--trace", "--set",
                                                   "g=\(set)", "--run", "before=\(kycctl)"])
        #expect(selfie.status == 2 && selfie.error.contains("--trace"), "\(selfie.error)")
    }

    /// A build that cannot answer must not read as a build that gets every frame wrong: exit 2, with its error.
    @Test func aFailingBuildStopsTheComparisonWithItsError() throws {
        let scratch = try TemporaryDirectory("kyc-compare-broken")
        let set = try Self.documentSet(in: scratch)
        let broken = try Self.wrapper("broken-kycctl", in: scratch, body: "echo 'kycctl: no such engine' >&2; exit 2")
        let result = try Self.run("/usr/bin/env", ["python3", Self.script, "--set", "g=\(set)", "--run",
                                                   "broken=\(broken)", "--out", scratch.file("out")])
        #expect(result.status == 2)
        #expect(result.error.contains("build broken on set g") && result.error.contains("no such engine"),
                "\(result.error)")
    }
}
