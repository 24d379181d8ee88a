// The wide-reach step sharpness (`CardSharpness.wideStepShare`), and the BLURRY it adds to a shaken card whose print
// reads sharp over `sharpness`'s 4 px.
import Testing
@testable import FrameAnalysis

@Suite struct WideStepShareTests {
    /// `frame` as a shaken exposure that dwelt at a few places: the mean of copies shifted down by `offsets` pixels
    /// (ghost copies, each step a staircase of crisp stairs).
    static func ghosted(_ frame: SyntheticFrame, offsets: [Int]) -> SyntheticFrame {
        var out = frame
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                var sum = 0
                for offset in offsets { sum += Int(frame.pixels[max(0, y - offset) * frame.width + x]) }
                out.pixels[y * frame.width + x] = UInt8(sum / offsets.count)
            }
        }
        return out
    }

    /// A sharp card keeps most of each step's rise in its steepest two pixels however far the step is read; its
    /// share stays well above the threshold and the frame is GOOD.
    @Test func aSharpCardReadsAboveTheThreshold() throws {
        let analysis = try analyzeDocument(documentFrame())
        #expect(analysis.primary == .good, "\(analysis.feedback)")
        let share = try #require(analysis.metrics["wideStepShare"])
        #expect(share >= AnalysisThresholds.default.minWideStepShare + 0.1, "\(share)")
    }

    /// Ghost copies 4 px apart over 12 px: read 4 px either side, a stair passes for a whole step and the card scores
    /// sharp (`sharpness` ≥ 0.5); read 6 px either side, the staircase's rise goes on and the share falls below the
    /// threshold: BLURRY, with the share as its value. With the check off the frame is GOOD.
    @Test func aCardShakenIntoGhostCopiesIsBlurry() throws {
        let frame = Self.ghosted(documentFrame(), offsets: [0, 4, 8, 12])
        let analysis = try analyzeDocument(frame)
        #expect(analysis.feedback.map(\.code) == [.blurry], "\(analysis.feedback)")
        let sharpness = try #require(analysis.metrics["sharpness"])
        #expect(sharpness >= AnalysisThresholds.default.minDocumentSharpness, "\(sharpness)")
        let share = try #require(analysis.metrics["wideStepShare"])
        #expect(analysis.feedback.first?.value == share)
        #expect(analysis.feedback.first?.threshold == AnalysisThresholds.default.minWideStepShare)

        var off = AnalysisThresholds.default
        off.minWideStepShare = 0
        let without = try analyzeDocument(frame, thresholds: off)
        #expect(without.primary == .good, "\(without.feedback)")
        #expect(without.metrics["wideStepShare"] == nil)
    }

    /// Fixtures/README.md: a card shaken nearly vertically (~16 working px), a hand over its bottom side. Its print
    /// reads 0.52 over 4 px and its outline's smear 2.5 px (the hand's edge across the bottom side): GOOD before the
    /// wide-reach check. Read 6 px either side, its steps keep 0.53 of their rise in the steepest two pixels: BLURRY.
    @Test func aShakenCardWithGhostCopiesIsBlurry() throws {
        let input = FrameInput.jpeg(try fixtureBytes("card-shaken-ghost-copies-camsim-portrait-seed101.jpg"))
        let corners: [(Double, Double)] = [(232.57, 844.62), (625.13, 780.5), (668.82, 1033.96), (268.39, 1109.81)]
        let analysis = try analyzeExpectingCard(input, primary: .blurry, corners: corners, within: 0.02)
        #expect(analysis.feedback.count == 1, "\(analysis.feedback)")
        let share = try #require(analysis.metrics["wideStepShare"])
        #expect(share < AnalysisThresholds.default.minWideStepShare, "\(share)")
        let sharpness = try #require(analysis.metrics["sharpness"])
        #expect(sharpness >= AnalysisThresholds.default.minDocumentSharpness, "\(sharpness)")
        let smear = try #require(analysis.metrics["outlineSmear"])
        #expect(smear <= AnalysisThresholds.default.maxOutlineSmear, "\(smear)")

        var off = AnalysisThresholds.default
        off.minWideStepShare = 0
        #expect(try FrameAnalyzer(thresholds: off).analyze(input, mode: .document).primary == .good)
    }

    @Test func theThresholdIsReadFromJSONAndRangeChecked() throws {
        let t = try AnalysisThresholds(json: Array(#"{"minWideStepShare": 0.55}"#.utf8))
        #expect(t.minWideStepShare == 0.55)
        #expect(throws: AnalysisThresholdsError.self) {
            try AnalysisThresholds(json: Array(#"{"minWideStepShare": 1.5}"#.utf8))
        }
    }
}
