// A quad side with no visible sample — beyond the frame's edge, or along it — is outline without evidence, as a frame
// border standing in for a side is, and weighs as one in the quad search (`DocumentFinder.bestQuad`).
import Testing
@testable import FrameAnalysis

@Suite struct UnseenSideTests {
    /// camsim seed 3's `document_move_away_0003_1920x1080.jpg` (tuning seed): a card held too close, past the top
    /// and bottom of the frame (labelled corners below). Small quads of print lines closed by a line crossing them
    /// just above the frame's top edge — a side with no sample in view, weighed as a seen one — outranked the card's
    /// own outline in every search, and the best of them was too weak to accept: NO_DOCUMENT. With the unseen side
    /// weighing as a border, the card is found, its top corners within half a percent of the diagonal: MOVE_AWAY.
    static let corners: [(Double, Double)] = [(74.57, 40.38), (1795.09, -55.54), (1803.95, 1093.82), (108.14, 1062.85)]

    @Test func aCardPastTheFrameIsNotOutweighedByAnUnseenSide() throws {
        let input = FrameInput.jpeg(try fixtureBytes("card-past-the-frame-camsim-seed3.jpg"))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.primary == .moveAway, "\(analysis.feedback)")
        // (The labelled bottom corners lie past the frame's edge or on it; the found outline stops at the border.)
        let found = try #require(analysis.region?.corners)
        let diagonal = (1920.0 * 1920 + 1080 * 1080).squareRoot()
        for (index, corner) in Self.corners.enumerated().prefix(2) {
            let nearest = found.map { (($0.x - corner.0) * ($0.x - corner.0) + ($0.y - corner.1) * ($0.y - corner.1))
                .squareRoot() }.min()!
            #expect(nearest < 0.005 * diagonal, "corner \(index): \(nearest) px")
        }
        // (Its portrait, seen large, would tell MOVE_AWAY without an outline: `readsLargePortraitsWithoutOutline`.)
        #expect(try analyzeDocument(input) {
            $0.documentFinder.weighsUnseenSidesAsBorders = false
            $0.readsLargePortraitsWithoutOutline = false
        }.primary == .noDocument)
    }
}
