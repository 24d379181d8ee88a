// A square-ish outline closed by a frame border is the part in view of a card the frame cuts, which can have any
// length: the quad search keeps it when its inside is densely printed (`DocumentFinder.admitsSquarePrintedPartsAtBorders`),
// a little less densely when one border closes it (`admitsLessPrintedSquarePartsAtOneBorder`).
import Testing
@testable import FrameAnalysis

@Suite struct SquarePartAtBorderTests {
    /// Fixtures/README.md: a card cut by the frame's right edge (camsim's true corners, two beyond the edge), its part
    /// in view 1.17 long for its height. Refused as square-ish, nothing was accepted: NO_DOCUMENT. Kept, the outline
    /// is the part in view — its left corners the card's, its right ones on the frame's edge — and the answer
    /// CUT_OFF, as labelled.
    @Test func aCutOffCardsSquarePartInViewIsFound() throws {
        let input = FrameInput.jpeg(try fixtureBytes("square-part-of-cut-off-card-camsim-portrait-seed52.jpg"))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.feedback.map(\.code) == [.cutOff], "\(analysis.feedback)")
        let corners = try #require(analysis.region?.corners)
        // The left corners where camsim drew them, the right ones on the frame's right edge (x = 1079).
        let left = corners.sorted { $0.x < $1.x }.prefix(2).sorted { $0.y < $1.y }
        #expect(abs(left[0].x - 566.32) < 8 && abs(left[0].y - 473.89) < 8, "\(corners)")
        #expect(abs(left[1].x - 615.93) < 8 && abs(left[1].y - 887.48) < 8, "\(corners)")
        #expect(corners.filter { $0.x > 1070 }.count == 2, "\(corners)")

        let before = try analyzeDocument(input) {
            $0.documentFinder.admitsSquarePrintedPartsAtBorders = false
            $0.documentFinder.discountsStripeFields = false   // (with it, another outline of the part is found)
        }
        // Nothing found (in a scene below 0.7 × minBrightness, where TOO_DARK then leads: ADR 9).
        #expect(before.region == nil && before.feedback.contains { $0.code == .noDocument }, "\(before.feedback)")
        #expect(before.feedback.map(\.code) == [.tooDark, .noDocument], "\(before.feedback)")
    }

    /// Fixtures/README.md: a card cut by the frame's left edge, its part in view 1.05 long for its height, printed
    /// 0.5-0.6 inside (its guilloche and photo, little text). Under `minDeepPrintedTexture` the part was refused and
    /// the card's photo, the best outline left, was told MOVE_CLOSER. Closed by one border, with three sides of its
    /// own, the part now needs `minSquarePartAtOneBorderTexture`: CUT_OFF, as labelled, on the part in view.
    @Test func aPartClosedByOneBorderNeedsLessPrint() throws {
        let (analysis, _) = try expectSettingDecides("square-part-at-one-border-less-printed-camsim-portrait-seed120.jpg",
                                                     primary: .cutOff, otherwise: .moveCloser) {
            $0.documentFinder.admitsLessPrintedSquarePartsAtOneBorder = false
            // (With it, the cut card is found around the winner, longer than a photo: `takesCutCardsAroundLongerParts`.)
            $0.documentFinder.takesCutCardsAroundLongerParts = false
        }
        let corners = try #require(analysis.region?.corners)
        // The right corners where camsim drew them, the left ones on the frame's left edge.
        let right = corners.sorted { $0.x > $1.x }.prefix(2).sorted { $0.y < $1.y }
        #expect(abs(right[0].x - 307.71) < 6 && abs(right[0].y - 600.16) < 6, "\(corners)")
        #expect(abs(right[1].x - 292.72) < 6 && abs(right[1].y - 889.12) < 6, "\(corners)")
        #expect(corners.filter { $0.x < 3 }.count == 2, "\(corners)")
    }

    @Test func onlyAPartClosedByOneBorderNeedsLess() {
        let finder = DocumentFinder()
        #expect(finder.squarePartMinTexture(closedSides: 1) < DocumentFinder.minDeepPrintedTexture)
        #expect(finder.squarePartMinTexture(closedSides: 1) > DocumentFinder.minInteriorTexture)
        #expect(finder.squarePartMinTexture(closedSides: 2) == DocumentFinder.minDeepPrintedTexture)
        finder.admitsLessPrintedSquarePartsAtOneBorder = false
        #expect(finder.squarePartMinTexture(closedSides: 1) == DocumentFinder.minDeepPrintedTexture)
    }
}
