// The search for a card held at the frame's edge (`coveredAtBorder`) takes only outlines closed by a frame border, but
// ranks every outline: one seen whole can outrank the card the frame cuts. The best border-closed outline it passes
// is recorded (`DocumentFinder.heldAtBorder`) and taken when no later search finds a card
// (`FrameAnalyzer.takesHeldCardsLast`; docs/capture.md, "Document quad").
import Testing
@testable import FrameAnalysis

@Suite struct HeldCardAtBorderTests {
    /// The analysis's corners that lie inside the frame, clear of its edges by 1 % of its short side (a cut card's
    /// others lie on the frame's edge, where the card's own are out of view).
    static func cornersInside(_ analysis: FrameAnalysis) -> [FramePoint] {
        let margin = 0.01 * Double(min(analysis.width, analysis.height))
        return (analysis.region?.corners ?? []).filter {
            $0.x > margin && $0.y > margin && $0.x < Double(analysis.width) - margin
                && $0.y < Double(analysis.height) - margin
        }
    }

    /// Expects `Fixtures/<fixture>` answered CUT_OFF with two corners in view, each within 10 px of `truth` (the
    /// card's own corners there, in order), and NO_DOCUMENT with the rule `off` turns off.
    static func expectCutCardFound(_ fixture: String, cornersInView truth: [(Double, Double)],
                                   sourceLocation: SourceLocation = #_sourceLocation,
                                   off: (FrameAnalyzer) -> Void) throws {
        let input = FrameInput.jpeg(try fixtureBytes(fixture))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.primary == .cutOff, "\(analysis.feedback)", sourceLocation: sourceLocation)
        let inside = cornersInside(analysis)
        #expect(inside.count == 2, sourceLocation: sourceLocation)
        for (corner, truth) in zip(inside, truth) {
            #expect(abs(corner.x - truth.0) < 10 && abs(corner.y - truth.1) < 10, "\(inside)",
                    sourceLocation: sourceLocation)
        }
        let before = try analyzeDocument(input, with: off)
        #expect(before.primary == .noDocument, "\(before.feedback)", sourceLocation: sourceLocation)
    }

    /// Fixtures/README.md: a card cut by the frame's top edge, held by a thumb over its right side. The held-card
    /// search ranked its part closed on a print line near the top (0.56, seen whole) above the card's outline closed
    /// by the frame's top (0.73): NO_DOCUMENT for a CUT_OFF frame. Recorded, that outline is taken when nothing else
    /// is found, its two corners in view on the card's.
    @Test func aCutCardOutrankedByItsPartIsTakenLast() throws {
        try Self.expectCutCardFound("cut-card-held-its-part-outranked-it-camsim-seed85.jpg",
                                    cornersInView: [(1138.62, 552.31), (133.21, 408.23)]) {
            $0.takesHeldCardsLast = false
        }
    }

    /// Fixtures/README.md: a card cut by the frame's top edge, its visible part a strip across the upper frame. The
    /// held-card search ranked the bare outlines of the lower frame (printed 0.00-0.07 inside) and their variants in
    /// its first four places, above the card's outline closed by the frame's top (0.68), which was never read:
    /// NO_DOCUMENT for a CUT_OFF frame. Ranked as widely as the wider searches (`ranksHeldOutlinesWidely`), the card
    /// is reached, densely printed enough to win that deep: CUT_OFF, its two corners in view on the card's. (Without
    /// the rule, its portrait in print at the frame's edge now says CUT_OFF too, with no outline: that rule is off
    /// here, so the frame shows this one.)
    @Test func aCutCardRankedBehindBareOutlinesIsReached() throws {
        try Self.expectCutCardFound("cut-card-ranked-behind-bare-outlines-camsim-portrait-seed101.jpg",
                                    cornersInView: [(991.09, 180.77), (287.05, 334.5)]) {
            $0.documentFinder.ranksHeldOutlinesWidely = false
            $0.readsPortraitsAtFrameEdge = false
        }
    }

    /// Fixtures/README.md: a card held too close in a portrait frame, running past its right and bottom edges:
    /// NO_DOCUMENT for a MOVE_AWAY frame; its outline closed by the frame's right edge, recorded by the held-card
    /// search, is MOVE_AWAY. (Its corners on the frame's edge lie up to 0.045 of the diagonal from the card's, which
    /// are out of view; without the rule its portrait in print at the frame's edge now says
    /// CUT_OFF: that rule is off here too.)
    @Test func aCardHeldTooCloseIsTakenLast() throws {
        try expectRuleDecides("card-too-close-held-at-the-border-camsim-portrait-seed86.jpg", primary: .moveAway,
                              corners: [(-16.81, 692.01), (1050.42, 571.81), (1174.7, 1273.26), (11.4, 1392.09)],
                              within: 0.05, before: .noDocument) {
            $0.takesHeldCardsLast = false
            $0.readsPortraitsAtFrameEdge = false
        }
    }

    /// Fixtures/README.md: a GOOD frame whose card no search finds (a known miss). The held-card search's best
    /// border-closed outline there (0.64) has its own corners 32° and 21° off square: no card seen nearly square-on,
    /// so it is not recorded (`ownCornersSkew` within `maxSearchedSkew`), and the frame stays NO_DOCUMENT instead of
    /// being told CUT_OFF and TILTED on that outline.
    @Test func aTurnedOutlineClosedByTheBorderIsNotTakenAsAHeldCard() throws {
        let input = FrameInput.jpeg(try fixtureBytes("turned-outline-closed-by-the-border-not-held-camsim-portrait-seed7.jpg"))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.primary == .noDocument, "\(analysis.feedback)")
        #expect(analysis.region == nil)
    }

    /// `ownCornersSkew` reads only the corners between two sides that are no frame border, inside the frame: where a
    /// border closes the outline it cuts the card at any angle.
    @Test func onlyAnOutlinesOwnCornersAreReadForSquareness() {
        // A card square-on, cut by the frame's left edge at a slant: its corners on the border are 11.3° and 10.3°
        // off square, its own two (100, 0) and (110, 50) square and 1.0° off.
        let quad = Quadrilateral(corners: [SIMD2(0, 20), SIMD2(100, 0), SIMD2(110, 50), SIMD2(0, 70)])
        let card: DocumentFinder.RankedQuad = ((quad.corners[0], quad.corners[1], quad.corners[2], quad.corners[3]),
                                               0.7, 0.7, SIMD4(0, 1, 2, 3))
        let closed: DocumentFinder.Searched = (quad, 0.7, [false, false, false, true], card)
        #expect(abs(DocumentFinder.ownCornersSkew(closed, width: 200, height: 100) - 1.0) < 0.1)
        // Seen whole (no border side), every corner counts.
        let whole: DocumentFinder.Searched = (quad, 0.7, [false, false, false, false], card)
        #expect(abs(DocumentFinder.ownCornersSkew(whole, width: 200, height: 100) - 11.3) < 0.1)
    }

    /// Fixtures/README.md: a passport page held too close in a 480×360 frame, cut by its left edge, a thumb over
    /// its bottom side. A side meeting the frame's edge carried its edge along under half of its visible stretch,
    /// under the covered side's bar of 0.5 until session 38: NO_DOCUMENT. At 0.45 (`coveredBorderSideSupport`) the
    /// card is found and, too large for the frame, told MOVE_AWAY.
    @Test func aCardWhoseCutSideTheThumbMostlyCoversIsFound() throws {
        #expect(DocumentFinder.coveredBorderSideSupport == 0.45)
        let input = FrameInput.jpeg(try fixtureBytes("card-too-close-thumb-over-most-of-its-cut-side-camsim-small-seed156.jpg"))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.primary == .moveAway, "\(analysis.feedback)")
        let inside = Self.cornersInside(analysis)
        #expect(inside.count == 2, "\(inside)")
        for (corner, truth) in zip(inside, [(439.67, 11.07), (446.47, 327.43)]) {
            #expect(abs(corner.x - truth.0) < 10 && abs(corner.y - truth.1) < 10, "\(inside)")
        }
    }
}
