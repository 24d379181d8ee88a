// A small outline seen whole inside print that runs out of the frame is a part of a card the frame cuts: CUT_OFF,
// not MOVE_CLOSER (`FrameAnalyzer.printAtFrameEdge(around:)`).
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

    /// Fixtures/README.md: a card held too close across a portrait frame: an outline of its print at the frame's left
    /// edge won, CUT_OFF and MOVE_CLOSER. The print around it, reaching the frame's edge, spans a box past `maxFill`
    /// of the largest card held across: the card is at least that large, MOVE_AWAY. A cut card's part (the thumb
    /// fixture below) has print around it well under that.
    @Test func aPartInsidePrintLargerThanTheFrameHoldsIsMoveAway() throws {
        let (analysis, without) = try expectSettingDecides(
            "card-too-close-a-part-at-the-edge-inside-its-print-camsim-portrait-seed81.jpg", primary: .moveAway,
            otherwise: .cutOff) { $0.judgesCutPartsByTheirPrint = false }
        let printed = try #require(analysis.metrics["printAroundCutPartFill"])
        #expect(printed > AnalysisThresholds.default.maxFill)
        #expect(analysis.feedback.first?.value == analysis.metrics["largestPrintImpliedFill"])
        #expect(!analysis.feedback.contains { $0.code == .cutOff || $0.code == .moveCloser }, "\(analysis.feedback)")
        #expect(without.feedback.contains { $0.code == .moveCloser }, "\(without.feedback)")
        let part = try analyzeDocument(.jpeg(try fixtureBytes("cut-card-its-part-beside-the-thumb-won-camsim-small-seed152.jpg"))) { _ in }
        #expect(part.primary == .cutOff)
        #expect(try #require(part.metrics["printAroundCutPartFill"]) < 0.5 * AnalysisThresholds.default.maxFill)
    }

    /// Fixtures/README.md: a passport page held too close (true fill 1.12), its photo at the frame's left edge won.
    /// The print around it, running to the frame's edge, spans 0.52 of the largest card: under `maxFill` itself, but
    /// a card whose print in view covers that much is, at the largest size that print allows (the print over
    /// `leastPrintShareOfCutPart`), too large for the frame: MOVE_AWAY, not CUT_OFF.
    @Test func aCutPartsCardIsJudgedAtTheLargestItsPrintAllows() throws {
        let (analysis, without) = try expectSettingDecides(
            "card-too-close-its-print-at-the-edge-under-the-bar-camsim-small-seed170.jpg", primary: .moveAway,
            otherwise: .cutOff) {
                $0.judgesCutPartsAtTheLargestTheirPrintAllows = false
                // (The face around the small answer tells this card too close as well: turned off to show this rule.)
                $0.readsLargePortraitsAroundSmallAnswers = false
            }
        let maxFill = AnalysisThresholds.default.maxFill
        let printed = try #require(analysis.metrics["printAroundCutPartFill"])
        let largest = try #require(analysis.metrics["largestPrintImpliedFill"])
        #expect(printed <= maxFill && largest > maxFill, "\(analysis.metrics)")
        #expect(abs(largest - printed / FrameAnalyzer.leastPrintShareOfCutPart) < 1e-9)
        #expect(analysis.feedback.first?.value == largest)
        #expect(!analysis.feedback.contains { $0.code == .cutOff || $0.code == .moveCloser }, "\(analysis.feedback)")
        #expect(without.metrics["largestPrintImpliedFill"] == nil)
        #expect(without.metrics["printAroundCutPartFill"] == printed)
    }

    /// Fixtures/README.md: a card cut by the frame's right edge, a part of its face (closed on print lines) won. The
    /// printed region around it, the card's guilloche, reaches the edge, but the cell pass left its box a few pixels
    /// short of the part's centre: MOVE_CLOSER, until the box is taken to within a cell (`printedBoxTolerance`).
    @Test func aPartWhoseCentreLiesWithinACellOfItsPrintsBoxIsCutOff() throws {
        let (analysis, without) = try expectSettingDecides(
            "cut-card-its-part-centre-a-cell-outside-its-print-box-camsim-portrait-seed92.jpg", primary: .cutOff,
            otherwise: .moveCloser) { $0.printedBoxTolerance = 0 }
        let ratio = try #require(analysis.metrics["printAtEdgeOverPart"])
        #expect(ratio <= FrameAnalyzer.maxCutCardPrintOverPart, "\(analysis.metrics)")
        #expect(without.metrics["printAtEdgeOverPart"] == nil)
    }

    @Test func aRegionsBoxHoldsPointsWithinItsMargin() {
        let region: PrintedRegions.Region = (x0: 16, y0: 8, x1: 40, y1: 32, printedCells: 5, label: 1,
                                             touchesEdge: true)
        #expect(PrintedRegions.box(of: region, holds: SIMD2(40, 32)))
        #expect(!PrintedRegions.box(of: region, holds: SIMD2(44, 20)))
        #expect(PrintedRegions.box(of: region, holds: SIMD2(44, 20), margin: 8))
        #expect(PrintedRegions.box(of: region, holds: SIMD2(8, 0), margin: 8))
        #expect(!PrintedRegions.box(of: region, holds: SIMD2(7.5, 20), margin: 8))
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

    /// Fixtures/README.md: a passport page held too close (true fill 1.04), cut by the frame's top and bottom edges,
    /// whose photo won. At ID-1's photo share the card it implies (0.70) would fit the frame, and the print running
    /// to the edge said CUT_OFF; at the smallest share documents print (a passport page's) it does not (1.01): told
    /// MOVE_AWAY, which a card too large for the frame needs, not CUT_OFF, which it can never satisfy. (The print
    /// around the photo, 0.52 of the largest card, says so too at the largest size it allows: both rules are off for
    /// the CUT_OFF.)
    @Test func aCutCardsPhotoIsJudgedAtTheLargestCardItAllows() throws {
        let (analysis, without) = try expectSettingDecides(
            "card-too-close-its-photo-won-camsim-seed110.jpg", primary: .moveAway, otherwise: .cutOff) {
            $0.judgesCutPhotoCardsAtTheirLargest = false
            $0.judgesCutPartsAtTheLargestTheirPrintAllows = false
        }
        let implied = try #require(analysis.metrics["photoImpliedFill"])
        let largest = try #require(analysis.metrics["largestPhotoImpliedFill"])
        #expect(implied <= AnalysisThresholds.default.maxFill && largest > AnalysisThresholds.default.maxFill,
                "\(analysis.metrics)")
        #expect(analysis.feedback.map(\.code) == [.moveAway], "\(analysis.feedback)")
        #expect(without.metrics["largestPhotoImpliedFill"] == nil)
    }

    /// Fixtures/README.md: the cut card of `aCutCardsPhotoIsCutOffWithinTheCardItImplies` is small enough to fit the
    /// frame even at the largest size its photo allows (0.41): it stays CUT_OFF.
    @Test func aSmallerCutCardsPhotoStaysCutOffAtItsLargest() throws {
        let analysis = try FrameAnalyzer().analyze(
            .jpeg(try fixtureBytes("cut-card-its-photo-won-camsim-seed119.jpg")), mode: .document)
        #expect(analysis.primary == .cutOff, "\(analysis.feedback)")
        let largest = try #require(analysis.metrics["largestPhotoImpliedFill"])
        #expect(largest <= AnalysisThresholds.default.maxFill, "\(analysis.metrics)")
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

    /// Fixtures/README.md: a small passport page seen whole and square-on, a printed page pasted beside it running to
    /// the frame's right edge (`tools/camsim/printed_page.py`): their print is one region reaching the edge, 2.1 times
    /// the card's box. A whole card's shape seen square-on is the card, so the rule reads no print around it and the
    /// answer stays MOVE_CLOSER (without the square-on gate it was CUT_OFF).
    @Test func aSquareOnCardBesidePrintAtTheEdgeIsNotJudgedAPart() throws {
        let fixture = "small-card-beside-a-printed-page-at-the-edge-camsim-portrait-seed14.jpg"
        let analysis = try FrameAnalyzer().analyze(.jpeg(try fixtureBytes(fixture)), mode: .document)
        #expect(analysis.primary == .moveCloser, "\(analysis.feedback)")
        #expect(analysis.metrics["printAtEdgeOverPart"] == nil, "\(analysis.metrics)")
        let region = try #require(analysis.region)
        #expect(IDCard.wholeSeenSquareOn(Quadrilateral(corners: region.corners.map { SIMD2($0.x, $0.y) })))
    }

    /// A card seen whole with a whole card's shape square-on, beside a keyboard but with no print reaching the frame's
    /// edge around it: the rule reads no print around it either way.
    @Test func aSquareOnWholeCardIsNotJudgedAPart() throws {
        let analysis = try FrameAnalyzer().analyze(
            .jpeg(try fixtureBytes("keyboard-beside-small-passport-camsim-portrait-seed31.jpg")), mode: .document)
        #expect(analysis.primary == .moveCloser, "\(analysis.feedback)")
        #expect(analysis.metrics["printAtEdgeOverPart"] == nil)
    }
}
