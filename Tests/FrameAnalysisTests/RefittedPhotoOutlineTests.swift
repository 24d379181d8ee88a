// A photo-like winner's outline is refitted to its own edges before the card around it is looked for: on the coarse
// image a photo's side may be turned a few degrees, so that the card's side running along it cuts its voted outline
// and is not taken (`DocumentFinder.refitsPhotoOutlines`; docs/capture.md, "Card around its photo").
import Foundation
import Testing
@testable import FrameAnalysis

@Suite struct RefittedPhotoOutlineTests {
    /// Fixtures/README.md: a card held too close, larger than the frame, whose photo won. The photo's left side as
    /// voted ran from x = 34 to 43 at the detection scale, the card's left side at 38: it cut the photo's outline and
    /// the card's outline closed on the frame's left edge instead (0.52), MOVE_CLOSER on the photo. Refitted, the
    /// photo's side runs at 38.6-39.8, the card's side lies beside it, and the card is MOVE_AWAY. (The photo's face
    /// alone now tells this card too close as well, `FrameAnalyzer.judgesPhotoAnswersByTheirFace`, and since session
    /// 39 the photo inside print running to the frame's edge is a part of a card the frame cuts, CUT_OFF,
    /// `judgesPartsOfPrintAtFrameEdge`, and since session 47 the face around the small answer,
    /// `readsLargePortraitsAroundSmallAnswers`: all three are turned off with the refit, to show the refit's frame.)
    @Test func aCardTooCloseIsFoundAlongItsPhotosRefittedSide() throws {
        try expectRuleDecides("card-too-close-its-side-cuts-the-voted-photo-camsim-seed85.jpg", primary: .moveAway,
                              corners: [(206.36, -103.41), (1897.03, -79.47), (1849.51, 1088.83), (216.97, 1068.52)],
                              within: 0.05, before: .moveCloser) {
            $0.documentFinder.refitsPhotoOutlines = false
            $0.judgesPhotoAnswersByTheirFace = false
            $0.judgesPartsOfPrintAtFrameEdge = false
            $0.readsLargePortraitsAroundSmallAnswers = false
        }
    }

    /// Fixtures/README.md: a card cut by the frame's right edge in a portrait frame, whose photo won: MOVE_CLOSER
    /// instead of CUT_OFF until the photo's outline was refitted.
    @Test func aCutCardIsFoundAlongItsPhotosRefittedSide() throws {
        try expectRuleDecides("cut-card-its-side-cuts-the-voted-photo-camsim-portrait-seed92.jpg", primary: .cutOff,
                              corners: [(405.6, 1114.3), (1098.21, 1066.51), (1140.56, 1514.61), (426.89, 1622.16)],
                              within: 0.035, before: .moveCloser) { $0.documentFinder.refitsPhotoOutlines = false }
    }

    /// Fixtures/README.md: a blurred whole card in a portrait frame, small and square enough to pass for a photo.
    /// With `maxSideAlongRefittedPhoto` at 3° (not 2°), a background line 2.7° off one of its refitted sides closed
    /// an outline around it down to the frame's bottom (corners 0.115 of the diagonal off, CUT_OFF after BLURRY).
    /// The card's own outline stays the answer.
    @Test func aBlurredWholeCardKeepsItsOutline() throws {
        try analyzeExpectingCard(
            .jpeg(try fixtureBytes("blurred-whole-card-not-closed-by-a-refitted-side-camsim-portrait-seed86.jpg")),
            primary: .blurry, corners: [(373.59, 1116.61), (949.78, 1021.37), (1015.3, 1389.77), (432.84, 1483.85)],
            within: 0.02)
    }

    /// A line runs along a side within the given degrees, either way round, and `inwardNormal` turns it toward the
    /// quad, or refuses it when it cuts the quad by more than the margin.
    @Test func linesBesideAndAlongAQuad() {
        let square: DocumentFinder.Corners = (SIMD2(10, 10), SIMD2(50, 10), SIMD2(50, 50), SIMD2(10, 50))
        let turned = 1.5 * Double.pi / 180
        // A line 1.5° off the left side, 0.5 px left of it at the top, 0.55 px right of it at the bottom.
        let normal = SIMD2(cos(turned), -sin(turned))
        let line = DocumentFinder.Line(normal: normal, rho: (SIMD2(9.5, 10) * normal).sum())
        #expect(DocumentFinder.runsAlongASide(of: square, line: line, within: 2))
        #expect(!DocumentFinder.runsAlongASide(of: square, line: line, within: 1))
        #expect(DocumentFinder.inwardNormal(of: line, beside: square, margin: 1.2) == normal)
        #expect(DocumentFinder.inwardNormal(of: line, beside: square, margin: 0.5) == nil)
        let across = DocumentFinder.Line(normal: SIMD2(1, 0), rho: 30)
        #expect(DocumentFinder.inwardNormal(of: across, beside: square, margin: 1.2) == nil)
        let right = DocumentFinder.Line(normal: SIMD2(1, 0), rho: 52)
        #expect(DocumentFinder.inwardNormal(of: right, beside: square, margin: 1.2) == SIMD2(-1, 0))
    }
}
