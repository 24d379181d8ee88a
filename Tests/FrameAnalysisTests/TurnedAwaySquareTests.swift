// A card turned far from the camera can look square-ish, its longer sides upright: the searches after nothing was
// found take it as held across all the same (`DocumentFinder.heldAcross`). The colour search, which takes only cards
// held across, builds no other container around a photo-like outline (`containersInColourHeldAcross`).
import Testing
@testable import FrameAnalysis

@Suite struct TurnedAwaySquareTests {
    /// Fixtures/README.md: a card turned 33° on a desk, its outline 1.07 long with its longer sides upright. The
    /// search after nothing was found has it, but refused it as an upright holder's photo: an outline running past
    /// the frame won instead, MOVE_AWAY.
    @Test func aSquareishCardTurnedFarAwayIsTakenAsHeldAcross() throws {
        let (analysis, without) = try expectSettingDecides(
            "square-ish-card-turned-away-upright-in-the-frame-camsim-portrait-seed94.jpg", primary: .tilted,
            otherwise: .moveAway) { $0.documentFinder.takesTurnedAwaySquaresAsHeldAcross = false }
        #expect(analysis.feedback.map(\.code) == [.tilted], "\(analysis.feedback)")
        let aspect = try #require(analysis.metrics["aspect"]), skew = try #require(analysis.metrics["skew"])
        #expect(aspect < DocumentFinder.unorientedAspect && skew >= DocumentFinder.minPitchedSkew)
        #expect(without.feedback.contains { $0.code == .tilted }, "\(without.feedback)")
    }

    /// Fixtures/README.md: the same in colour: only the colour search finds this card (1.19 long, upright, 27° off
    /// square), and it refused it: NO_DOCUMENT.
    @Test func theColourSearchTakesItToo() throws {
        let (analysis, _) = try expectSettingDecides(
            "square-ish-card-turned-away-found-in-colour-camsim-small-seed198.jpg", primary: .tilted,
            otherwise: .noDocument) { $0.documentFinder.takesTurnedAwaySquaresAsHeldAcross = false }
        #expect(analysis.feedback.map(\.code) == [.tilted], "\(analysis.feedback)")
        #expect(analysis.metrics["colourEdges"] == 1, "\(analysis.metrics)")
    }

    /// Fixtures/README.md: a card held across by a thumb, found only in colour (0.74). The colour search took it for
    /// a photo and put in its place the upright outline around it (the hand and the wall), which it takes no more
    /// than any upright outline: NO_DOCUMENT. A container it would refuse is no longer built.
    @Test func theColourSearchKeepsACardHeldAcrossOverAnUprightContainer() throws {
        let (analysis, _) = try expectSettingDecides(
            "held-card-in-colour-its-upright-container-refused-camsim-portrait-seed197.jpg", primary: .good,
            otherwise: .noDocument) { $0.documentFinder.containersInColourHeldAcross = false }
        #expect(analysis.metrics["colourEdges"] == 1, "\(analysis.metrics)")
        let aspect = try #require(analysis.metrics["aspect"])
        #expect(aspect > DocumentFinder.unorientedAspect)
    }

    /// Held across: the longer sides nearer the horizontal; or square-ish and 20° or more off square. An upright
    /// photo's shape seen square-on, or a square-ish outline near square-on, is not.
    @Test func whatCountsAsHeldAcross() {
        let finder = DocumentFinder()
        func quad(_ points: [(Double, Double)]) -> Quadrilateral {
            Quadrilateral(corners: points.map { SIMD2($0.0, $0.1) })
        }
        let across = quad([(100, 100), (260, 100), (260, 200), (100, 200)])
        let uprightPhoto = quad([(100, 100), (200, 100), (200, 229), (100, 229)])
        // Square-ish (1.09), upright, its worst corner 29° off square: a card turned away.
        let turnedAway = quad([(100, 100), (190, 140), (200, 250), (90, 220)])
        // Square-ish, upright, near square-on (under 20° at every corner).
        let squareOn = quad([(100, 100), (200, 104), (198, 214), (98, 210)])
        #expect(finder.heldAcross(across))
        #expect(!finder.heldAcross(uprightPhoto))
        #expect(turnedAway.aspect < DocumentFinder.unorientedAspect, "\(turnedAway.aspect)")
        #expect(turnedAway.skewDegrees >= DocumentFinder.minPitchedSkew, "\(turnedAway.skewDegrees)")
        #expect(!turnedAway.longSideHorizontal)
        #expect(finder.heldAcross(turnedAway))
        #expect(!squareOn.longSideHorizontal && squareOn.skewDegrees < DocumentFinder.minPitchedSkew)
        #expect(!finder.heldAcross(squareOn))
        // Turned as far, but upright and longer than a photo seen square-on (1.37): its long side shows.
        let uprightTurned = quad([(100, 100), (190, 140), (200, 280), (90, 250)])
        #expect(uprightTurned.aspect > DocumentFinder.unorientedAspect && !uprightTurned.longSideHorizontal)
        #expect(uprightTurned.skewDegrees >= DocumentFinder.minPitchedSkew)
        #expect(!finder.heldAcross(uprightTurned))
        finder.takesTurnedAwaySquaresAsHeldAcross = false
        #expect(!finder.heldAcross(turnedAway))
        #expect(finder.heldAcross(across))
    }
}
