// A square-ish outline closed by a frame border is the part in view of a card the frame cuts, which can have any
// length: the quad search keeps it when its inside is densely printed (`DocumentFinder.admitsSquarePrintedPartsAtBorders`).
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

        let before = try analyzeDocument(input) { $0.documentFinder.admitsSquarePrintedPartsAtBorders = false }
        // Nothing found (in a scene below 0.7 × minBrightness, where TOO_DARK then leads: ADR 9).
        #expect(before.region == nil && before.feedback.contains { $0.code == .noDocument }, "\(before.feedback)")
        #expect(before.feedback.map(\.code) == [.tooDark, .noDocument], "\(before.feedback)")
    }
}
