// A frame whose search settled on an outline closed by a frame border is searched again with the vote on the
// detection image itself (`FrameAnalyzer.locateDocument`, `searchesAtDetectionScale`): the half-size vote loses the
// sides of cards beside fine texture.
import Testing
@testable import FrameAnalysis

@Suite struct DetectionScaleVoteTests {
    /// Fixtures/README.md: a card on a finely striped desk, its true corners as camsim drew them. The half-size vote
    /// gets too few votes on two of its sides (the stripes scatter their gradients' direction), and an outline of
    /// stripe lines closed by the frame's bottom wins at 0.75 (CUT_OFF first). The vote on the detection image finds
    /// the card whole and apart from that outline: TILTED, as labelled, every corner within 4 % of the diagonal.
    @Test func aCardOnFineStripesReplacesAnOutlineClosedByTheFrame() throws {
        let input = FrameInput.jpeg(try fixtureBytes("card-on-fine-stripes-border-closed-camsim-seed2.jpg"))
        let corners: [(Double, Double)] = [(519.58, 307.37), (1444.41, 60.94), (1831.46, 458.64), (592.07, 838.14)]
        // (Its top corners sit 3 % of the diagonal low: the top side is refitted to the stripes beside it. The
        // outline it replaces lay half a frame away.)
        try analyzeExpectingCard(input, primary: .tilted, corners: corners, within: 0.04)

        let before = try analyzeDocument(input) {
            $0.searchesAtDetectionScale = false
            $0.documentFinder.discountsStripeFields = false   // (with it, the run on down the stripes is no border's)
            $0.growsWindowsOverClippedCards = false   // (with it, the window around the print holds the card whole)
        }
        // (Without it another outline wins since session 36: a square-ish one closed by the frame's bottom, two of its
        // sides along the card's right sides run on over the stripes, whose print passes
        // `minSquarePartAtOneBorderTexture`: MOVE_AWAY. Without that too, CUT_OFF.)
        #expect(before.primary == .moveAway, "\(before.feedback)")
        let neither = try analyzeDocument(input) {
            $0.searchesAtDetectionScale = false
            $0.documentFinder.admitsLessPrintedSquarePartsAtOneBorder = false
            $0.documentFinder.discountsStripeFields = false
            $0.growsWindowsOverClippedCards = false
        }
        #expect(neither.primary == .cutOff, "\(neither.feedback)")
    }

    /// Fixtures/README.md: a card held square-on in a portrait frame; the answer was an outline of a part of it and
    /// the background's lines, turned 29° (0.61): MOVE_AWAY and TILTED for a GOOD frame. An accepted but weak answer
    /// turned beyond `maxSkew` gives way to the search at the detection scale, which finds the card square-on (2.4°)
    /// at 0.74: GOOD.
    @Test func aTurnedWeakAnswerGivesWayToTheCardSquareOn() throws {
        try expectRuleDecides("card-square-on-a-turned-weak-outline-won-camsim-portrait-seed89.jpg", primary: .good,
                              corners: [(170.66, 328.49), (549.67, 427.04), (485.53, 692.49), (100.3, 596.71)],
                              within: 0.01, before: .moveAway) { $0.reconsidersTurnedWeakAnswers = false }
    }

    /// Fixtures/README.md: a card held square-on, accepted at 0.60 (6° off square): GOOD. The search at the detection
    /// scale finds an outline turned 18° at 0.80, which a weak answer once gave way to whatever their turns (a first
    /// version of the rule above: MOVE_CLOSER). Only a weak answer turned beyond `maxSkew` gives way, and only to an
    /// outline square-on: this card stays GOOD.
    @Test func aWeakSquareOnAnswerDoesNotGiveWayToATurnedOne() throws {
        let input = FrameInput.jpeg(try fixtureBytes("weak-square-on-card-beside-a-turned-outline-camsim-portrait-seed101.jpg"))
        try analyzeExpectingCard(input, primary: .good,
                                 corners: [(147.31, 225.94), (525.18, 267.19), (498.82, 531.97), (137.11, 501.93)],
                                 within: 0.02)
    }
}
