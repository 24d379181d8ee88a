// A small outline seen whole inside print that runs out of the frame is a part of a card the frame cuts: CUT_OFF,
// not MOVE_CLOSER (`FrameAnalyzer.printAtFrameEdgeAroundPart`).
import Testing
@testable import FrameAnalysis

@Suite struct PartOfCutCardTests {
    /// Fixtures/README.md: a card cut by the top and left of a 360×480 frame; the panel of its face right of a print
    /// line won, closed by the card's own right and bottom sides. The print around it runs on to the frame's edge.
    @Test func aCutCardsPrintedPanelIsCutOffNotMoveCloser() throws {
        let (analysis, without) = try expectSettingDecides(
            "cut-card-its-printed-panel-won-camsim-small-seed156.jpg", primary: .cutOff, otherwise: .moveCloser) {
            $0.judgesPartsOfPrintAtFrameEdge = false
        }
        let ratio = try #require(analysis.metrics["printAtEdgeOverPart"])
        #expect(ratio > 1 && ratio <= FrameAnalyzer.maxCutCardPrintOverPart, "\(analysis.metrics)")
        #expect(!analysis.feedback.contains { $0.code == .moveCloser }, "\(analysis.feedback)")
        #expect(without.metrics["printAtEdgeOverPart"] == nil)
    }

    /// Fixtures/README.md: a card held by a thumb, cut by the top and left of a 640×480 frame; its part right of the
    /// thumb won, turned 16° (TILTED stays: the part's perspective is the card's).
    @Test func aHeldCutCardsPartBesideTheThumbIsCutOffNotMoveCloser() throws {
        let (analysis, _) = try expectSettingDecides(
            "cut-card-its-part-beside-the-thumb-won-camsim-small-seed152.jpg", primary: .cutOff,
            otherwise: .moveCloser) { $0.judgesPartsOfPrintAtFrameEdge = false }
        #expect(analysis.feedback.map(\.code) == [.cutOff, .tilted], "\(analysis.feedback)")
    }

    /// Fixtures/README.md: a card cut by the frame's right edge whose photo won (aspect 1.33, square-on: a whole
    /// passport page's shape). The face filling it says it is the photo (`photoImpliedFill`, 0.28), so the
    /// square-on gate does not hold, and the print around it, 3.2 times its box, is within the card its photo implies
    /// (5.9 times the photo's area): CUT_OFF, not MOVE_CLOSER.
    @Test func aCutCardsPhotoIsCutOffWithinTheCardItImplies() throws {
        let (analysis, _) = try expectSettingDecides(
            "cut-card-its-photo-won-camsim-seed119.jpg", primary: .cutOff, otherwise: .moveCloser) {
            $0.judgesPartsOfPrintAtFrameEdge = false
        }
        #expect(analysis.metrics["photoImpliedFill"] != nil, "\(analysis.metrics)")
        let cutOff = try #require(analysis.feedback.first)
        let value = try #require(cutOff.value), threshold = try #require(cutOff.threshold)
        #expect(value > FrameAnalyzer.maxCutCardPrintOverPart && value <= threshold, "\(cutOff)")
    }

    /// Fixtures/README.md: a small card turned 14° (not square-on, so the rule reads the print around it) beside a
    /// keypad that runs to the frame's edge, its print joined to the keypad's: that region is far larger than a card
    /// cut by the frame would show around its part (6.9 times the outline's box), and the card stays MOVE_CLOSER.
    @Test func aSmallCardWhosePrintJoinsAKeypadsAtTheEdgeIsStillMoveCloser() throws {
        let fixture = "small-card-turned-beside-a-keypad-at-the-edge-camsim-seed100.jpg"
        let analysis = try FrameAnalyzer().analyze(.jpeg(try fixtureBytes(fixture)), mode: .document)
        #expect(analysis.primary == .moveCloser, "\(analysis.feedback)")
        let ratio = try #require(analysis.metrics["printAtEdgeOverPart"])
        #expect(ratio > 2 * FrameAnalyzer.maxCutCardPrintOverPart, "\(analysis.metrics)")
    }

    /// A card seen whole with a whole card's shape square-on is the card: the rule reads no print around it.
    @Test func aSquareOnWholeCardIsNotJudgedAPart() throws {
        let analysis = try FrameAnalyzer().analyze(
            .jpeg(try fixtureBytes("keyboard-beside-small-passport-camsim-portrait-seed31.jpg")), mode: .document)
        #expect(analysis.primary == .moveCloser, "\(analysis.feedback)")
        #expect(analysis.metrics["printAtEdgeOverPart"] == nil)
    }
}
