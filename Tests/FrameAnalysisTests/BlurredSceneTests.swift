// A frame smeared as a whole (the camera shaken, or focused nowhere near the card): the outline found in it is as
// likely the blur's as the card's, so BLURRY goes before the findings on that outline (ADR 13).
import Testing
@testable import FrameAnalysis

@Suite struct BlurredSceneTests {
    /// Fixtures/README.md: a card defocused with the whole scene; the finder's best outline runs past the frame's top
    /// (CUT_OFF, then TILTED, with BLURRY last). The scene reads far below `maxBlurredSceneSharpness`: BLURRY first,
    /// the outline's findings kept after it.
    @Test func aSmearedSceneSaysBlurryBeforeTheOutlinesFindings() throws {
        let input = FrameInput.jpeg(try fixtureBytes("smeared-scene-outline-past-frame-camsim-seed3.jpg"))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.feedback.map(\.code) == [.blurry, .cutOff, .tilted], "\(analysis.feedback)")
        let scene = try #require(analysis.metrics["sceneSharpness"])
        #expect(scene < AnalysisThresholds.default.maxBlurredSceneSharpness / 2, "\(scene)")

        var canonical = AnalysisThresholds.default
        canonical.maxBlurredSceneSharpness = 0
        let ordered = try FrameAnalyzer(thresholds: canonical).analyze(input, mode: .document)
        #expect(ordered.feedback.map(\.code) == [.cutOff, .tilted, .blurry], "\(ordered.feedback)")
        #expect(ordered.metrics["sceneSharpness"] == nil)
    }

    /// Fixtures/README.md: a card smeared with its scene on a striped desk; the finder's outline was a slanted one
    /// across the card and the stripes, running out of the frame's right edge (CUT_OFF, TILTED, BLURRY last under the
    /// old bar); since session 52 the card pitched far is found past it (`DocumentFinder.pitchedCardPast`), TILTED.
    /// Its scene reads 0.33: smeared, above the old bar of 0.3 and under 0.36 (session 36): BLURRY first.
    @Test func aSceneJustAboveTheOldBarIsSmearedToo() throws {
        let input = FrameInput.jpeg(try fixtureBytes("smeared-scene-just-above-the-old-bar-camsim-portrait-seed118.jpg"))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.feedback.map(\.code) == [.blurry, .tilted], "\(analysis.feedback)")
        let scene = try #require(analysis.metrics["sceneSharpness"])
        #expect(scene > 0.3 && scene < AnalysisThresholds.default.maxBlurredSceneSharpness, "\(scene)")

        var old = AnalysisThresholds.default
        old.maxBlurredSceneSharpness = 0.3
        let before = try FrameAnalyzer(thresholds: old).analyze(input, mode: .document)
        #expect(before.feedback.map(\.code) == [.tilted, .blurry], "\(before.feedback)")
    }

    /// Fixtures/README.md: a card cut by the top of a portrait frame on a striped desk, all in focus; the part in view
    /// reads just soft (0.48), so BLURRY follows CUT_OFF. The scene is sharp: the outline is real, and bringing the
    /// card into the frame stays the first fix.
    @Test func aSharpSceneKeepsTheOutlinesFindingsFirst() throws {
        let analysis = try FrameAnalyzer().analyze(
            .jpeg(try fixtureBytes("soft-part-in-sharp-scene-camsim-portrait-seed5.jpg")), mode: .document)
        #expect(analysis.feedback.map(\.code) == [.cutOff, .blurry], "\(analysis.feedback)")
        let scene = try #require(analysis.metrics["sceneSharpness"])
        #expect(scene > AnalysisThresholds.default.maxBlurredSceneSharpness + 0.15, "\(scene)")
    }

    /// Fixtures/README.md: a small passport page held up before a room that depth of field leaves soft (the scene
    /// read 0.25 when this rule also took MOVE_CLOSER); the page reads 0.49, just soft for its size. MOVE_CLOSER
    /// stays first: moving closer enlarges the card and lets its sharpness be judged, while a BLURRY first would ask
    /// the user to steady a camera that is steady.
    @Test func aSmallCardBeforeASoftBackgroundIsStillToldToComeCloser() throws {
        let analysis = try FrameAnalyzer().analyze(
            .jpeg(try fixtureBytes("small-card-before-soft-room-camsim-portrait-seed14.jpg")), mode: .document)
        #expect(analysis.feedback.map(\.code) == [.moveCloser, .blurry], "\(analysis.feedback)")
        #expect(analysis.metrics["sceneSharpness"] == nil)
    }

    /// Only a soft card whose first finding is on its outline pays for the scene's measure: a sharp GOOD card does not.
    @Test func aSharpCardIsNotMeasuredAgainAsAScene() throws {
        let analysis = try FrameAnalyzer().analyze(
            .jpeg(try fixtureBytes("header-band-at-background-shade-camsim-seed3.jpg")), mode: .document)
        #expect(analysis.primary == .good)
        #expect(analysis.metrics["sceneSharpness"] == nil)
    }

    @Test func theThresholdIsReadFromJSONAndRangeChecked() throws {
        let t = try AnalysisThresholds(json: Array(#"{"maxBlurredSceneSharpness": 0.2}"#.utf8))
        #expect(t.maxBlurredSceneSharpness == 0.2)
        #expect(throws: AnalysisThresholdsError.self) {
            try AnalysisThresholds(json: Array(#"{"maxBlurredSceneSharpness": 1.5}"#.utf8))
        }
    }

    /// Fixtures/README.md: a BLURRY frame whose smeared card was told MOVE_CLOSER on a small outline (its photo), the
    /// card reading 0.059, far under `smearedCardShare` of the bar: BLURRY first, MOVE_CLOSER after. With the share at
    /// 0, MOVE_CLOSER keeps its place as it does for a card soft for its size.
    @Test func aCardSmearedFarPastItsSizeSaysBlurryBeforeMoveCloser() throws {
        let (analysis, canonical) = try expectSettingDecides("smeared-card-told-move-closer-camsim-seed106.jpg",
                                                             primary: .blurry, otherwise: .moveCloser) {
            $0.smearedCardShare = 0
        }
        #expect(analysis.feedback.map(\.code) == [.blurry, .moveCloser], "\(analysis.feedback)")
        #expect(canonical.feedback.map(\.code) == [.moveCloser, .blurry], "\(canonical.feedback)")
        let card = try #require(analysis.metrics["sharpness"])
        #expect(card < AnalysisThresholds.default.minDocumentSharpness * 0.3, "\(card)")
    }

    /// Fixtures/README.md: a small card held far, in focus but at the optics' limit for its size (0.319, under the
    /// bar): MOVE_CLOSER first, which also lets its sharpness be judged. At a share of 0.7 (0.35) it would be told
    /// BLURRY first: the bound sits under the small cards told MOVE_CLOSER on the measured sets (0.285 and up).
    @Test func aSmallCardSoftForItsSizeKeepsMoveCloserFirst() throws {
        try expectSettingDecides("small-card-soft-for-its-size-camsim-portrait-seed120.jpg", primary: .moveCloser,
                                 otherwise: .blurry) { $0.smearedCardShare = 0.7 }
    }
}
