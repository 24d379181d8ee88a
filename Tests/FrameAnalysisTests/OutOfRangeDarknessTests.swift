// Where the camera has run out of light (`FrameAnalyzer.outOfRangeDarkness`, ADR 9): below 0.7 × `minBrightness`
// the scene's exposure finding goes first, whatever the search found or did not find.
import Testing
@testable import FrameAnalysis

@Suite struct OutOfRangeDarknessTests {
    /// The bound is 0.7 × `minBrightness` (56 by default): about 2.2 EV below a meter's mid-grey.
    @Test func tooDarkLeadsBelowSeventyPercentOfTheMinimum() {
        let t = AnalysisThresholds.default
        #expect(FrameAnalyzer.exposureLeads(.tooDark, sceneBrightness: 0.7 * t.minBrightness - 1, thresholds: t))
        #expect(!FrameAnalyzer.exposureLeads(.tooDark, sceneBrightness: 0.7 * t.minBrightness + 1, thresholds: t))
        #expect(!FrameAnalyzer.exposureLeads(.tooBright, sceneBrightness: 40, thresholds: t))
    }

    /// The bright bound is `maxBrightness` for the scene alone, and `brightShare` of it where the card itself reads
    /// over the maximum (`FrameAnalyzer.overexposedSceneShare`, 0.8: 180 by default).
    @Test func tooBrightLeadsFromAShareOfTheMaximumOverAWashedOutCard() {
        let t = AnalysisThresholds.default
        let share = FrameAnalyzer().overexposedSceneShare
        #expect(!FrameAnalyzer.exposureLeads(.tooBright, sceneBrightness: t.maxBrightness * share + 1, thresholds: t))
        #expect(FrameAnalyzer.exposureLeads(.tooBright, sceneBrightness: t.maxBrightness * share + 1, thresholds: t,
                                            brightShare: share))
        #expect(!FrameAnalyzer.exposureLeads(.tooBright, sceneBrightness: t.maxBrightness * share - 1, thresholds: t,
                                             brightShare: share))
        #expect(!FrameAnalyzer.exposureLeads(.tooDark, sceneBrightness: 100, thresholds: t, brightShare: share))
    }

    /// Fixtures/README.md: a dim scene (camsim gain 8-24, still under-exposed) at scene luma about 43, whose card no
    /// search finds. Under the bound of half `minBrightness` (40) it said NO_DOCUMENT first; the camera ran out of
    /// light, and light is the first fix: TOO_DARK, then NO_DOCUMENT.
    @Test func aDimSceneWhoseCardIsUnseenSaysTooDarkFirst() throws {
        let input = FrameInput.jpeg(try fixtureBytes("dim-scene-card-unseen-camsim-portrait-seed5.jpg"))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.region == nil)
        #expect(analysis.feedback.map(\.code) == [.tooDark, .noDocument], "\(analysis.feedback)")
        let scene = try #require(analysis.metrics["brightness"])
        let minimum = AnalysisThresholds.default.minBrightness
        #expect(scene >= minimum / 2 && scene < minimum * FrameAnalyzer.outOfRangeDarkness, "scene mean \(scene)")
    }
}
