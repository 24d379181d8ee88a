// GLARE goes before MOVE_CLOSER when the card's glare patch runs on past the outline
// (`FrameAnalyzer.leadsWithGlareBeyondSmallOutlines`, `glareBeyondOutline`; docs/capture.md, "Glare beyond a small
// outline"; ADR 14's amendment).
import Testing
@testable import FrameAnalysis

@Suite struct GlareBeyondOutlineTests {
    /// Fixtures/README.md: the part of a card beside its glare patch won, closed on the patch's edge: MOVE_CLOSER
    /// first. The patch runs on past that outline: GLARE first, the other findings after it.
    @Test func glareRunningPastAPartGoesBeforeMoveCloser() throws {
        let (analysis, before) = try expectSettingDecides(
            "glare-running-past-a-part-of-the-card-camsim-small-seed171.jpg", primary: .glare,
            otherwise: .moveCloser) { $0.leadsWithGlareBeyondSmallOutlines = false }
        #expect(analysis.feedback.map(\.code) == [.glare, .moveCloser], "\(analysis.feedback)")
        #expect(before.feedback.map(\.code) == [.moveCloser, .glare], "\(before.feedback)")
        let beyond = try #require(analysis.metrics["glareBeyondOutline"])
        #expect(beyond >= FrameAnalyzer.minGlareBeyondOutline, "\(beyond)")
    }

    /// A patch inside the outline reads nothing beyond it; one crossing a side reads that side's clipped share.
    @Test func onlyAPatchCrossingASideReadsBeyondIt() {
        let image = GrayImage()
        image.resize(width: 200, height: 100)
        for i in 0..<(200 * 100) { image.base[i] = 120 }
        let quad = Quadrilateral(corners: [SIMD2(40, 20), SIMD2(120, 20), SIMD2(120, 80), SIMD2(40, 80)])
        // A clipped patch well inside the outline.
        for y in 40..<60 { for x in 70..<90 { image.base[y * 200 + x] = 255 } }
        #expect(FrameAnalyzer.glareBeyondOutline(quad, on: image, luma: 250) == 0)
        // The patch runs on past the right side (x = 120; read 3 px outside it) over its middle half.
        for y in 35..<65 { for x in 100..<140 { image.base[y * 200 + x] = 255 } }
        let beyond = FrameAnalyzer.glareBeyondOutline(quad, on: image, luma: 250)
        #expect(beyond > 0.4 && beyond < 0.6, "\(beyond)")
    }
}
