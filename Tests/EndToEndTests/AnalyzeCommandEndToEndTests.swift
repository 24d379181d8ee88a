import Foundation
import Testing
import TestSupport

/// `kycctl analyze`, the engine offline for operators: one JSON object per frame, a stream with `--sequence` answered
/// as CaptureService answers it (tracked frames, HOLD_STEADY, the capture decision), exit code 2 for a bad file.
@Suite("kycctl analyze end to end")
struct AnalyzeCommandEndToEndTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        try runProcess(StackHarness.buildDirectory.appendingPathComponent("kycctl"), arguments)
    }

    struct Line: Decodable {
        struct Feedback: Decodable { let code: String }
        let file: String
        let width: Int
        let height: Int
        let metrics: [String: Double]
        let feedback: [Feedback]
        let capture: Bool
        let elapsedMicroseconds: Double?
        struct Step: Decodable {
            struct Point: Decodable { let x, y: Double }
            let step: String
            let corners: [Point]
            let confidence: Double
            let borderClosed: Bool
        }
        let searchTrace: [Step]?
    }

    static func lines(_ output: String) throws -> [Line] {
        try output.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
    }

    @Test func aStillStreamIsTrackedAndCapturedOnAFrameSearchedWhole() throws {
        let scratch = try TemporaryDirectory("kyc-analyze-still")
        let frames = try CaptureEndToEndTests.stillSequence(count: 5, in: scratch)
        let files = try FileManager.default.contentsOfDirectory(atPath: frames)
            .filter { $0.hasPrefix("seq_still_") }.sorted().map { frames + "/" + $0 }
        #expect(files.count == 5)
        let result = try Self.run(["analyze", "--sequence"] + files)
        #expect(result.status == 0, "\(result.error)")
        let lines = try Self.lines(result.output)
        #expect(lines.map(\.file) == files)
        #expect(lines.allSatisfy { $0.feedback.first?.code == "GOOD" }, "\(lines.map(\.feedback))")
        // Captured on the third (AnalysisThresholds' default stillFrames), which is searched whole; the frames
        // between are found around the previous corners.
        #expect(lines.map(\.capture) == [false, false, true, false, false])
        #expect(lines.map { $0.metrics["tracked"] != nil } == [false, true, false, true, true])
        // Without --sequence every file is its own stream: nothing tracked, nothing captured.
        let alone = try Self.lines(try Self.run(["analyze"] + files).output)
        #expect(alone.allSatisfy { $0.metrics["tracked"] == nil && !$0.capture })
    }

    @Test func aMovingStreamIsToldToHoldSteady() throws {
        let scratch = try TemporaryDirectory("kyc-analyze-moving")
        let frames = try CaptureEndToEndTests.stillSequence(count: 3, in: scratch)
        let files = try FileManager.default.contentsOfDirectory(atPath: frames)
            .filter { $0.hasPrefix("seq_moving_") }.sorted().map { frames + "/" + $0 }
        let lines = try Self.lines(try Self.run(["analyze", "--sequence"] + files).output)
        #expect(lines.map { $0.feedback.first?.code } == ["GOOD", "HOLD_STEADY", "HOLD_STEADY"])
        #expect(lines.allSatisfy { !$0.capture })
    }

    /// `--timing` gives every line the engine's time for its frame (a positive number of microseconds), for an
    /// operator looking for a set's dear frames; without it the key is absent, so outputs stay comparable byte for
    /// byte. Everything else on the line is the same either way.
    @Test func timingAddsEachFramesAnalysisTimeAndNothingElse() throws {
        let scratch = try TemporaryDirectory("kyc-analyze-timing")
        let frames = try CaptureEndToEndTests.stillSequence(count: 2, in: scratch)
        let files = try FileManager.default.contentsOfDirectory(atPath: frames)
            .filter { $0.hasPrefix("seq_still_") }.sorted().map { frames + "/" + $0 }
        let timed = try Self.run(["analyze", "--timing", "--sequence"] + files)
        #expect(timed.status == 0, "\(timed.error)")
        let timedLines = try Self.lines(timed.output)
        #expect(timedLines.count == 2)
        #expect(timedLines.allSatisfy { ($0.elapsedMicroseconds ?? 0) > 0 }, "\(timed.output)")
        let plain = try Self.run(["analyze", "--sequence"] + files)
        #expect(!plain.output.contains("elapsedMicroseconds"))
        // The same lines with the key taken out.
        let stripped = timed.output.replacing(/,"elapsedMicroseconds":[0-9.e+-]+/, with: "")
        #expect(stripped == plain.output)
    }

    /// `--trace` gives every line the document search's steps, in input pixels (FrameAnalysisTests'
    /// `SearchTraceTests` check the steps themselves): the pitched card found past a winner running out of the frame
    /// ends on the outline it answered on; without it the key is absent and the lines are the same. Selfie frames
    /// have no document search: refused before any frame is read.
    @Test func traceAddsTheDocumentSearchsSteps() throws {
        let fixture = CaptureEndToEndTests.repositoryRoot.appendingPathComponent(
            "Tests/FrameAnalysisTests/Fixtures/card-pitched-far-its-side-run-out-on-the-grain-camsim-small-seed153.jpg")
            .path
        let traced = try Self.run(["analyze", "--trace", fixture])
        #expect(traced.status == 0, "\(traced.error)")
        let line = try #require(try Self.lines(traced.output).first)
        let steps = try #require(line.searchTrace)
        #expect(steps.map(\.step) == ["find.first", "find.pitchedPastWinner", "find.result"], "\(traced.output)")
        #expect(steps.allSatisfy { $0.corners.count == 4 && $0.confidence > 0 && !$0.borderClosed })
        #expect(line.feedback.first?.code == "TILTED")
        let plain = try Self.run(["analyze", fixture])
        #expect(!plain.output.contains("searchTrace"))
        #expect(traced.output.replacing(/,"searchTrace":\[.*\]/, with: "") == plain.output)
        let selfie = try Self.run(["analyze", "--mode", "selfie", "--trace", fixture])
        #expect(selfie.status != 0 && selfie.error.contains("--trace") && selfie.output.isEmpty, "\(selfie)")
    }

    /// A phone photo stored sideways with EXIF Orientation 6 (FrameAnalysisTests' fixture) is read upright; an
    /// operator's --rotation turns it further, and anything but a quarter turn is refused before any frame is read.
    @Test func aSidewaysPhotoIsReadUprightAndRotationTurnsItFurther() throws {
        let photo = CaptureEndToEndTests.repositoryRoot
            .appendingPathComponent("Tests/FrameAnalysisTests/Fixtures/sideways-selfie-exif6-framegen.jpg").path
        let upright = try Self.lines(try Self.run(["analyze", "--mode", "selfie", photo]).output)
        #expect(upright.map { [$0.width, $0.height] } == [[640, 360]])
        #expect(upright.first?.feedback.first?.code == "GOOD")
        let upsideDown = try Self.lines(try Self.run(["analyze", "--mode", "selfie", "--rotation", "180", photo]).output)
        #expect(upsideDown.first?.feedback.first?.code == "NO_FACE")
        let quarter = try Self.lines(try Self.run(["analyze", "--mode", "selfie", "--rotation", "90", photo]).output)
        #expect(quarter.map { [$0.width, $0.height] } == [[360, 640]])
        let refused = try Self.run(["analyze", "--rotation", "45", photo])
        #expect(refused.status == 2 && refused.output.isEmpty)
        #expect(refused.error.contains("--rotation must be 0, 90, 180 or 270"), "\(refused.error)")
    }

    /// A device's raw dump (an NV21 frame of 640 × 360, luma in video range) read with --raw: the layout, the rotation
    /// and the range apply as in CaptureService; a bad layout or a file of the wrong size stops with exit code 2.
    @Test func rawCameraFramesAreReadWithTheirLayout() throws {
        let scratch = try TemporaryDirectory("kyc-analyze-raw")
        let (width, height) = (640, 360)
        var luma = [UInt8](repeating: 235, count: width * height)   // video-range white: a blank, bright wall
        for y in 100..<260 { for x in 160..<480 { luma[y * width + x] = 120 } }
        let frame = scratch.file("frame.nv21")
        try Data(luma + [UInt8](repeating: 128, count: width * height / 2)).write(to: URL(fileURLWithPath: frame))
        struct Raw: Decodable {
            let width: Int, height: Int
            let metrics: [String: Double]
        }
        func analyse(_ extra: [String]) throws -> Raw? {
            let result = try Self.run(["analyze", "--raw", "nv21:640x360"] + extra + [frame])
            #expect(result.status == 0, "\(result.error)")
            return try? JSONDecoder().decode(Raw.self, from: Data(result.output.utf8))
        }
        let asIs = try #require(try analyse([]))
        #expect((asIs.width, asIs.height) == (640, 360))
        let expanded = try #require(try analyse(["--video-range"]))
        #expect(try #require(expanded.metrics["brightness"]) > #require(asIs.metrics["brightness"]) + 10)
        let turned = try #require(try analyse(["--rotation", "270"]))
        #expect((turned.width, turned.height) == (360, 640))
        let badLayout = try Self.run(["analyze", "--raw", "nv99:640x360", frame])
        #expect(badLayout.status == 2 && badLayout.error.contains("--raw must be FORMAT:WIDTHxHEIGHT"))
        let jpegRange = try Self.run(["analyze", "--video-range", frame])
        #expect(jpegRange.status == 2 && jpegRange.error.contains("--video-range applies to --raw frames only"))
        let wrongSize = try Self.run(["analyze", "--raw", "nv21:1280x720", frame])
        #expect(wrongSize.status == 2 && wrongSize.error.contains(frame) && wrongSize.error.contains("wrong_raw_size"),
                "\(wrongSize.error)")
    }

    @Test func anUnreadableFileExitsWith2AndSaysWhich() throws {
        let scratch = try TemporaryDirectory("kyc-analyze-bad")
        let missing = scratch.file("no-such-frame.jpg")
        let result = try Self.run(["analyze", missing])
        #expect(result.status == 2)
        #expect(result.error.contains(missing), "\(result.error)")
        let notJPEG = scratch.file("not-a-jpeg.jpg")
        try Data("not a jpeg".utf8).write(to: URL(fileURLWithPath: notJPEG))
        let corrupt = try Self.run(["analyze", notJPEG])
        #expect(corrupt.status == 2)
        #expect(corrupt.error.contains(notJPEG) && corrupt.output.isEmpty, "\(corrupt.error)")
    }
}

/// `kycctl diagnose`: a labelled set's frames against their true corners, one JSON object per document frame.
@Suite("kycctl diagnose end to end")
struct DiagnoseCommandEndToEndTests {
    struct Line: Decodable {
        struct Diagnosis: Decodable {
            struct Side: Decodable { let offset: Double?; let searched: Bool }
            let feedback: [AnalyzeCommandEndToEndTests.Line.Feedback]
            let foundConfidence: Double
            let truthConfidence: Double?
            let truthPrint: Double
            let sides: [Side]
        }
        let file: String
        let expected: String
        let diagnosis: Diagnosis
    }

    /// framegen's sequences (cards the engine finds): every frame is diagnosed with its label and the engine's
    /// answer, the true outline scores and is printed, the still card's sides lie on searched candidate lines; with --misses (none
    /// answered wrongly) nothing is printed; a missing labels file is exit code 2.
    @Test func aLabelledSetIsDiagnosedFrameByFrame() throws {
        let scratch = try TemporaryDirectory("kyc-diagnose")
        let frames = try CaptureEndToEndTests.stillSequence(count: 2, in: scratch)
        let kycctl = StackHarness.buildDirectory.appendingPathComponent("kycctl")
        let result = try runProcess(kycctl, ["diagnose", "--labels", frames + "/labels.json"])
        #expect(result.status == 0, "\(result.error)")
        let lines = try result.output.split(separator: "\n").map {
            try JSONDecoder().decode(Line.self, from: Data($0.utf8))
        }
        #expect(lines.count == 4, "still and moving, two frames each")
        // The engine's answer is `kycctl analyze`'s on each frame alone.
        let analyzed = try AnalyzeCommandEndToEndTests.lines(
            try AnalyzeCommandEndToEndTests.run(["analyze"] + lines.map(\.file)).output)
        #expect(lines.map { $0.diagnosis.feedback.map(\.code) } == analyzed.map { $0.feedback.map(\.code) })
        for line in lines {
            #expect(line.file.hasPrefix(frames + "/seq_"))
            #expect(line.diagnosis.sides.count == 4)
            #expect((line.diagnosis.truthConfidence ?? 0) >= 0.6 && line.diagnosis.truthPrint >= 0.3, "\(line)")
        }
        // (A moving card's smeared side can be missing from the vote's lines and found later, by the band search:
        // the sides are matched to the first search's lines, so only the still card's are checked.)
        let stills = lines.filter { $0.file.contains("seq_still_") }
        #expect(stills.count == 2 && stills.allSatisfy { $0.diagnosis.feedback.first?.code == "GOOD" })
        for still in stills {
            #expect(still.diagnosis.sides.allSatisfy { ($0.offset ?? .infinity) < 2 && $0.searched }, "\(still)")
        }
        let misses = try runProcess(kycctl, ["diagnose", "--misses", "--labels", frames + "/labels.json"]
            + stills.map(\.file))
        #expect(misses.status == 0 && misses.output.isEmpty, "\(misses.output)")
        let missing = try runProcess(kycctl, ["diagnose", "--labels", scratch.file("none.json")])
        #expect(missing.status == 2 && missing.error.contains("cannot read"), "\(missing.error)")
    }
}
