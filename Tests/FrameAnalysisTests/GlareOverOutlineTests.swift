// A glare patch large enough to hide a stretch of the card's print and edge goes before the findings on the card's
// outline (`FrameAnalyzer.glareOverOutlineShare`): tilting the card away from the lamp is the first fix.
import Testing
@testable import FrameAnalysis

@Suite struct GlareOverOutlineTests {
    /// Fixtures/README.md: a GLARE frame whose card, with a lamp's reflection over 5.8 % of it, was told MOVE_AWAY and
    /// TILTED first on an outline run past it, GLARE last. The patch is past twice `maxGlareBlob`: GLARE first, the
    /// outline's findings kept after it.
    @Test func aLargeGlarePatchGoesBeforeTheOutlinesFindings() throws {
        let (analysis, canonical) = try expectSettingDecides(
            "glare-patch-outline-run-past-the-card-camsim-portrait-seed113.jpg", primary: .glare,
            otherwise: .moveAway) { $0.glareOverOutlineShare = .infinity }
        #expect(analysis.feedback.map(\.code) == [.glare, .moveAway, .tilted], "\(analysis.feedback)")
        #expect(canonical.feedback.map(\.code) == [.moveAway, .tilted, .glare], "\(canonical.feedback)")
    }

    /// Fixtures/README.md: a card turned away (TILTED, right) with a small glare patch (1.9 % of it): TILTED first,
    /// GLARE after. At `maxGlareBlob` itself (a share of 1) the patch would lead: the bound sits between this card
    /// and the GLARE frames told their outline's findings first (3.8 % and up on the measured sets).
    @Test func aSmallGlarePatchKeepsTheOutlinesFindingsFirst() throws {
        let (analysis, _) = try expectSettingDecides("tilted-card-small-glare-patch-camsim-portrait-seed86.jpg",
                                                     primary: .tilted, otherwise: .glare) {
            $0.glareOverOutlineShare = 1
        }
        #expect(analysis.feedback.map(\.code) == [.tilted, .glare], "\(analysis.feedback)")
    }
}
