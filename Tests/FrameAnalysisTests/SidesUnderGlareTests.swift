// No camera shows an edge inside a saturated patch: the weak-side rule reads a side partly inside a clipped patch
// over the rest of it (`DocumentFinder.glareForgiven`, `forgivesSidesUnderGlare`; docs/capture.md, "Sides under
// glare").
import Testing
@testable import FrameAnalysis

@Suite struct SidesUnderGlareTests {
    /// Fixtures/README.md: a card under a large glare patch (16 % of it) reaching two of its sides; judged over
    /// their whole length they read 0.38 and 0.47, one under `sideSupport` with the other under `strongSideSupport`,
    /// and no outline of the card passed: NO_DOCUMENT. Read outside the clipped stretch, the card is found: GLARE, as
    /// labelled.
    @Test func aCardWhoseSidesRunUnderGlareIsFound() throws {
        try expectSettingDecides("glare-over-two-sides-camsim-seed2.jpg", primary: .glare, otherwise: .noDocument) {
            $0.documentFinder.forgivesSidesUnderGlare = false
        }
    }

    /// Fixtures/README.md: an over-exposed frame whose card (240) is clipped into a bright background along one
    /// side (support 0.36 over its length) while another reads 0.71: refused, NO_DOCUMENT. Read outside the clipped
    /// stretch, the card's outline passes: TOO_BRIGHT first, on the card's own corners.
    @Test func anOverexposedCardClippedAlongASideIsFound() throws {
        try expectRuleDecides("overexposed-card-sides-clipped-camsim-portrait-seed92.jpg", primary: .tooBright,
                              corners: [(124.31, 633.95), (760.46, 541.26), (802.62, 969.46), (158.09, 1026.4)],
                              within: 0.01, before: .noDocument) { $0.documentFinder.forgivesSidesUnderGlare = false }
    }

    /// `glareForgiven`: the side is read outside the patch only when at least `minSideUnderGlare` of it lies inside
    /// one, at least 8 samples lie outside it, and the rule is on; never lower than over its whole length.
    @Test func aSideIsReadOutsideThePatchOnlyWhenThePatchCoversEnoughOfIt() {
        // 100 samples, 30 of them with an edge; 40 inside a patch: 30 of the 60 outside it.
        #expect(DocumentFinder.glareForgiven(0.3, visible: 100, underGlare: 40, forgiving: true) == 0.5)
        #expect(DocumentFinder.glareForgiven(0.3, visible: 100, underGlare: 40, forgiving: false) == 0.3)
        // Under a tenth inside a patch: as measured.
        #expect(DocumentFinder.glareForgiven(0.3, visible: 100, underGlare: 9, forgiving: true) == 0.3)
        // Nearly all of it inside: too little left to judge.
        #expect(DocumentFinder.glareForgiven(0.05, visible: 100, underGlare: 95, forgiving: true) == 0.05)
        // Never above 1.
        #expect(DocumentFinder.glareForgiven(0.9, visible: 100, underGlare: 50, forgiving: true) == 1)
    }
}
