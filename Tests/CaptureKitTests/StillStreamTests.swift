import FrameAnalysis
import Foundation
import Testing

/// A capture stream looks for the card around the previous frame's corners before searching the frame
/// (`FrameAnalyzer.analyze(_:mode:previous:)`, `DocumentFinder.track`). That must make a frame cheaper, never
/// change what the user is told: on every document frame of the framegen and camsim sets, analysed once alone and
/// then again as the next frame of a still stream (its own corners as the previous ones), the feedback is the same,
/// most frames with a document are found by tracking, and the corners are as close to the truth as the full search's.
/// A frame analysed after a different frame (the previous corners of another card) is also judged as it is alone.
@Suite("Document frames in a still capture stream")
struct StillStreamTests {
    struct Comparison: Sendable {
        var frames = 0
        var withDocument = 0
        var tracked = 0
        /// Frames whose primary feedback differs from the frame analysed alone, still and after another frame.
        var changedStill: [String] = []
        var changedAfterOther: [String] = []
        var singleError = 0.0, streamError = 0.0, errorFrames = 0
    }

    static func compare(_ set: GeneratedFrames) -> Comparison {
        let analyzer = FrameAnalyzer()
        var result = Comparison()
        var other: [FramePoint]?
        for label in set.labels where label.mode == "document" && label.sequence == nil {
            guard let bytes = try? set.bytes(label), let single = try? analyzer.analyze(.jpeg(bytes), mode: .document),
                  let afterOther = try? analyzer.analyze(.jpeg(bytes), mode: .document, previous: other)
            else { continue }
            result.frames += 1
            if afterOther.primary != single.primary { result.changedAfterOther.append(label.file) }
            guard let region = single.region else {
                other = nil
                continue
            }
            result.withDocument += 1
            let corners = region.corners.map { FramePoint(x: $0.x / Double(single.width), y: $0.y / Double(single.height)) }
            other = corners
            guard let still = try? analyzer.analyze(.jpeg(bytes), mode: .document, previous: corners) else {
                continue
            }
            if still.metrics["tracked"] != nil { result.tracked += 1 }
            if still.primary != single.primary { result.changedStill.append(label.file) }
            if let truth = label.corners, let found = still.region?.corners, found.count == 4, label.sharp == true,
               label.expected != "CUT_OFF" {
                result.singleError += AccuracyEvaluation.cornerError(truth: truth, found: region.corners,
                                                                     width: label.width, height: label.height)
                result.streamError += AccuracyEvaluation.cornerError(truth: truth, found: found,
                                                                     width: label.width, height: label.height)
                result.errorFrames += 1
            }
        }
        return result
    }

    static func expectSameAnswers(_ set: Result<GeneratedFrames, GenerationError>, name: String) async throws {
        let comparison = try await onOwnThread { try compare(set.get()) }
        print("\(name): \(comparison.frames) document frames, \(comparison.withDocument) with a document, "
              + "\(comparison.tracked) of those tracked in a still stream; mean corner error alone "
              + String(format: "%.4f", comparison.singleError / Double(max(comparison.errorFrames, 1)))
              + ", tracked " + String(format: "%.4f", comparison.streamError / Double(max(comparison.errorFrames, 1))))
        #expect(comparison.frames > 0)
        #expect(comparison.changedStill.isEmpty, "feedback changed in a still stream: \(comparison.changedStill)")
        #expect(comparison.changedAfterOther.isEmpty,
                "feedback changed after another frame's corners: \(comparison.changedAfterOther)")
        // Tracking runs: a card seen whole and still is found around its previous corners (cut-off cards and cards
        // within a band of the frame's edge are not tracked; about half of every set's frames with a document are).
        #expect(Double(comparison.tracked) >= 0.3 * Double(comparison.withDocument),
                "only \(comparison.tracked) of \(comparison.withDocument) tracked")
        #expect(comparison.streamError <= comparison.singleError + 0.0005 * Double(comparison.errorFrames))
    }

    /// The labelled sets, by the name the tests print.
    static let sets: [String: Result<GeneratedFrames, GenerationError>] = [
        "framegen": GeneratedFrames.accuracySet, "camsim": GeneratedFrames.camsimSet,
        "camsim portrait": GeneratedFrames.camsimPortraitSet, "camsim selfies": GeneratedFrames.camsimSelfieSet,
    ]

    @Test(arguments: ["framegen", "camsim", "camsim portrait"])
    func documentFramesAreJudgedTheSameInAStream(set name: String) async throws {
        try await Self.expectSameAnswers(try #require(Self.sets[name]), name: name)
    }

    /// framegen seed 7's moving sequence: 8 frames in which a first version of the tracking locked onto the card's
    /// own print lines in frames 3 and 7 (corner error 0.0005 -> 0.024) before the corner-reach limit. Small: made
    /// by the test itself unless `KYC_FRAMEGEN_MOVING_DIR` names it.
    static let movingSequence = GeneratedFrames.generate(
        script: "tools/framegen/framegen.py", preparedIn: "KYC_FRAMEGEN_MOVING_DIR",
        arguments: ["--seed", "7", "--count-per-class", "0", "--size", "1280x720", "--sequence", "8"])

    /// framegen's moving sequences move the card 3–5 % of the frame's width between frames, further than a side's
    /// band reaches: offered the previous frame's corners directly (not through the tracker, whose motion rule would
    /// withhold them), the finder does not take the card's print in the bands for it and searches the frame whole,
    /// finding what each frame alone finds; played through the tracker, no frame is even tried around them.
    @Test(arguments: ["framegen", "framegen seed 7 moving"])
    func aMovingCardIsSearchedForAfresh(set name: String) async throws {
        // (On a thread of its own: the first call generates seed 7's sequence.)
        try await onOwnThread {
            let set = try (name == "framegen" ? GeneratedFrames.accuracySet : Self.movingSequence).get()
            let frames = set.labels.filter { $0.sequence == "moving" }.sorted { $0.file < $1.file }
            #expect(frames.count >= 2)
            let analyzer = FrameAnalyzer()
            var previous: [FramePoint]?
            var tracker = CaptureTracker()
            for label in frames {
                let bytes = try set.bytes(label)
                let alone = try analyzer.analyze(.jpeg(bytes), mode: .document)
                let afterPrevious = try analyzer.analyze(.jpeg(bytes), mode: .document, previous: previous)
                #expect(afterPrevious.metrics["tracked"] == nil, "\(label.file) tracked")
                #expect(afterPrevious == alone, "\(label.file)")
                previous = alone.region.map { region in
                    region.corners.map { FramePoint(x: $0.x / Double(alone.width), y: $0.y / Double(alone.height)) }
                }
                let inStream = try analyzer.analyze(.jpeg(bytes), mode: .document, stream: &tracker)
                #expect(inStream.analysis == alone, "\(label.file) in the stream")
            }
        }
    }

    // MARK: Selfies

    /// The one face's box of `analysis`, normalised as CaptureTracker keeps it (nil unless exactly one face).
    static func faceBox(_ analysis: FrameAnalysis) -> [FramePoint]? {
        guard analysis.faces.count == 1, let f = analysis.faces.first else { return nil }
        let w = Double(analysis.width), h = Double(analysis.height)
        return [FramePoint(x: f.x / w, y: f.y / h), FramePoint(x: (f.x + f.width) / w, y: (f.y + f.height) / h)]
    }

    /// Every selfie frame of `set` alone, then again with its own face box as the previous frame's (a still selfie
    /// stream): the same feedback on every frame, and the face found around its box on a good share of them.
    static func expectSameSelfieAnswers(_ set: Result<GeneratedFrames, GenerationError>, name: String) async throws {
        let (frames, single, tracked, changed) = try await onOwnThread {
            let set = try set.get()
            let analyzer = FrameAnalyzer()
            var frames = 0, single = 0, tracked = 0, changed: [String] = []
            for label in set.labels where label.mode == "selfie" {
                let bytes = try set.bytes(label)
                let alone = try analyzer.analyze(.jpeg(bytes), mode: .selfie)
                frames += 1
                guard let box = faceBox(alone) else { continue }
                single += 1
                let still = try analyzer.analyze(.jpeg(bytes), mode: .selfie, previous: box)
                if still.metrics["tracked"] != nil { tracked += 1 }
                if still.feedback.map(\.code) != alone.feedback.map(\.code) { changed.append(label.file) }
            }
            return (frames, single, tracked, changed)
        }
        print("\(name): \(frames) selfie frames, \(single) with one face, \(tracked) of those tracked in a still stream")
        #expect(frames > 0)
        #expect(changed.isEmpty, "selfie feedback changed in a still stream: \(changed)")
        #expect(Double(tracked) >= 0.4 * Double(single), "only \(tracked) of \(single) tracked")
    }

    @Test(arguments: ["framegen", "camsim selfies"])
    func selfiesAreJudgedTheSameInAStream(set name: String) async throws {
        try await Self.expectSameSelfieAnswers(try #require(Self.sets[name]), name: name)
    }

    /// A stream where nothing is found (nobody in view, no card shown) is searched lightly, except one frame in
    /// `wholeSearchEvery` (4), and tells the same first feedback throughout as each frame alone does; the face or
    /// card that arrives then is found on the very next frame when the first search sees it, and the frame after
    /// that is answered as it is alone.
    @Test(arguments: [("selfie", "NO_FACE"), ("document", "NO_DOCUMENT")])
    func aStreamWhereNothingIsFoundSearchesWholeOneFrameInFour(mode: String, empty: String) async throws {
        let set = try GeneratedFrames.accuracySet.get()
        let frameMode: FrameMode = mode == "selfie" ? .selfie : .document
        let nothing = try #require(set.labels.first { $0.mode == mode && $0.expected == empty && $0.sequence == nil })
        let arriving = try #require(set.labels.first { $0.mode == mode && $0.expected == "GOOD" && $0.sequence == nil })
        let (emptyBytes, arrivingBytes) = (try set.bytes(nothing), try set.bytes(arriving))
        try await onOwnThread {
            let analyzer = FrameAnalyzer()
            let alone = try analyzer.analyze(.jpeg(emptyBytes), mode: frameMode)
            #expect(alone.primary.rawValue == empty && alone.metrics["lightSearch"] == nil)
            var tracker = CaptureTracker()
            var light: [Bool] = []
            for _ in 0..<7 {
                let frame = try analyzer.analyze(.jpeg(emptyBytes), mode: frameMode, stream: &tracker)
                #expect(frame.feedback.map(\.code) == alone.feedback.map(\.code))
                light.append(frame.analysis.metrics["lightSearch"] == 1)
            }
            #expect(light == [false, true, true, true, false, true, true])
            // The user shows the face or card while the search is light: the first search finds it at once.
            let arrivingAlone = try analyzer.analyze(.jpeg(arrivingBytes), mode: frameMode)
            let arrived = try analyzer.analyze(.jpeg(arrivingBytes), mode: frameMode, stream: &tracker)
            #expect(arrived.analysis.metrics["lightSearch"] == 1)
            #expect(arrived.feedback == arrivingAlone.feedback && arrived.analysis.faces == arrivingAlone.faces
                    && arrived.analysis.region == arrivingAlone.region)
            let next = try analyzer.analyze(.jpeg(arrivingBytes), mode: frameMode, stream: &tracker)
            #expect(next.analysis.metrics["lightSearch"] == nil && next.feedback.map(\.code) == arrivingAlone.feedback.map(\.code))
        }
    }

    /// A face whose size sits at a threshold is searched whole: a tracked box may differ from the first pass's by a
    /// few pixels, which must not decide FACE_TOO_LARGE or GOOD. A face far from its previous box is searched whole.
    @Test func aSelfieFaceAtAThresholdOrFarFromItsBoxIsSearchedWhole() async throws {
        let set = try GeneratedFrames.accuracySet.get()
        let label = try #require(set.labels.first { $0.mode == "selfie" && $0.expected == "GOOD" })
        let bytes = try set.bytes(label)
        try await onOwnThread {
            let analyzer = FrameAnalyzer()
            let alone = try analyzer.analyze(.jpeg(bytes), mode: .selfie)
            let box = try #require(Self.faceBox(alone))
            #expect(try analyzer.analyze(.jpeg(bytes), mode: .selfie, previous: box).metrics["tracked"] == 1)
            var atTheSize = AnalysisThresholds.default
            atTheSize.maxFaceSize = try #require(alone.metrics["faceSize"])
            let strict = FrameAnalyzer(thresholds: atTheSize)
            #expect(try strict.analyze(.jpeg(bytes), mode: .selfie, previous: box).metrics["tracked"] == nil)
            let width = box[1].x - box[0].x
            let far = box.map { FramePoint(x: $0.x + (box[0].x > 0.5 ? -2 : 2) * width, y: $0.y) }
            let moved = try analyzer.analyze(.jpeg(bytes), mode: .selfie, previous: far)
            #expect(moved.metrics["tracked"] == nil)
            #expect(moved == alone)
        }
    }
}
