// A card pitched far in a portrait frame, found past an accepted winner the frame does not hold whole
// (`DocumentFinder.pitchedCardPast`) or around a weak turned part of it (`takesTurnedCardsAroundWeakAnswers`).
import Testing
@testable import FrameAnalysis

@Suite struct PitchedCardPastWinnerTests {
    /// Fixtures/README.md: a card pitched 47° on a wood desk in a 360×640 frame, its sides across the pitch meeting
    /// inside the frame. The frame-wide search took its outline with a grain line for its right side, running out of
    /// the frame by a few pixels: CUT_OFF for a card in full view. The pitched search finds the card's own outline.
    @Test func aPitchedCardIsFoundPastAWinnerRunningOutOfTheFrame() throws {
        let without = try expectRuleDecides(
            "card-pitched-far-its-side-run-out-on-the-grain-camsim-small-seed153.jpg", primary: .tilted,
            corners: [(35.18, 137.15), (310.89, 109.83), (283.84, 275.11), (90.95, 268.42)], within: 0.01,
            before: .cutOff) { $0.documentFinder.searchesPitchedPastWinnersNotSeenWhole = false }
        // (Without the search, the winner's right side is the grain line: its lower right corner past the frame.)
        let corners = try #require(without.region?.corners)
        #expect(corners.contains { $0.x > 360 }, "\(corners)")
    }

    /// Fixtures/README.md: a card pitched 58° on a desk, the frame-wide search's answer a turned part of it (0.65,
    /// MOVE_CLOSER first). The search at the detection scale finds the card pitched (0.90): far more confident,
    /// larger and around the answer, it is taken though turned.
    @Test func aWeakTurnedPartGivesWayToThePitchedCardAroundIt() throws {
        let without = try expectRuleDecides(
            "card-pitched-far-its-turned-part-answered-camsim-small-seed156.jpg", primary: .tilted,
            corners: [(26.74, 187.89), (298.76, 66.07), (295.51, 246.42), (120.7, 292.43)], within: 0.01,
            before: .moveCloser) { $0.takesTurnedCardsAroundWeakAnswers = false }
        #expect(without.feedback.contains { $0.code == .tilted }, "\(without.feedback)")
        let confidence = try #require(without.region?.confidence)
        #expect(confidence < DocumentFinder.reconsideredBelow, "\(confidence)")
    }

    /// Fixtures/README.md: a card cut by the frame, held by a thumb, CUT_OFF on its border-closed outline. The pitched
    /// search past it finds a wedge at the thumb, more confident; its far side is a few pixels long, so it is no
    /// pitched card and the cut card stays (the trace shows no outline taken past the winner).
    @Test func aWedgeAtTheThumbDoesNotReplaceACutCard() throws {
        let analyzer = FrameAnalyzer()
        analyzer.tracesSearch = true
        let analysis = try analyzer.analyze(.jpeg(try fixtureBytes(
            "cut-card-a-wedge-at-the-thumb-not-a-pitched-card-camsim-portrait-seed5.jpg")), mode: .document)
        #expect(analysis.feedback.map(\.code) == [.cutOff], "\(analysis.feedback)")
        #expect(!analyzer.searchTrace.contains { $0.step == "find.pitchedPastWinner" },
                "\(analyzer.searchTrace.map(\.step))")
    }

    /// Each side at least `minFarSideShare` of the side opposite it: a pitched card's foreshortened far side passes, a
    /// wedge whose one side is a few pixels long does not.
    @Test func aWedgeIsNoPitchedCard() {
        func quad(_ points: [(Double, Double)]) -> Quadrilateral {
            Quadrilateral(corners: points.map { SIMD2($0.0, $0.1) })
        }
        // The fixture's card on the detection image: its far (bottom) side 0.70 of its near one.
        #expect(DocumentFinder.oppositeSidesAlike(quad([(17, 68), (155, 55), (142, 137), (45, 134)])))
        // Two lines meeting near a corner, closed by a short line across them: the far side 0.15 of the near one.
        #expect(!DocumentFinder.oppositeSidesAlike(quad([(100, 100), (300, 100), (215, 200), (185, 200)])))
        // The same with the short pair the other way round.
        #expect(!DocumentFinder.oppositeSidesAlike(quad([(100, 100), (200, 185), (200, 215), (100, 300)])))
    }
}
