// A card one of whose bands (a header, an MRZ strip, a pale guilloche strip) is at its background's shade: the finder's
// best outline closes on the edge between that band and the card's body, and `DocumentFinder.completeBand` moves that
// side out to the card's own edge — a candidate line of the vote, or one searched for where the edge must lie.
import Testing
@testable import FrameAnalysis

@Suite struct MissingBandTests {
    /// Fixtures/README.md: a light card, nearly square-on, whose dark header band is at the shade of the wall behind
    /// it; its corners as camsim drew them (input pixels, clockwise from top-left).
    static let corners: [(Double, Double)] = [(564.39, 93.35), (1202.61, 199.4), (1113.06, 608.85), (490.47, 465.57)]

    /// The outline without the header measures 1.93 (ID-1: 1.59), under the 1.98 a card turned away can reach, so
    /// it was taken as it was (corner error 0.023 of the diagonal, the header cut off the capture). Seen square-on,
    /// a quad that long lacks a band: the header's outer edge is found, and the card is GOOD on its own corners.
    @Test func aHeaderBandAtItsBackgroundsShadeIsPutBack() throws {
        let analysis = try analyzeExpectingCard(.jpeg(try fixtureBytes("header-band-at-background-shade-camsim-seed3.jpg")),
                                                primary: .good, corners: Self.corners, within: 0.005)
        let aspect = try #require(analysis.metrics["aspect"])
        #expect(abs(aspect / IDCard.aspect - 1) < 0.04, "\(aspect)")
    }

    /// Fixtures/README.md: a light card on a light wall, nearly square-on; the strip above its text (pale guilloche)
    /// ends at the wall's shade, so the vote has no line along the card's top edge. The outline closed on the text
    /// area's top (aspect 2.10) was judged CUT_OFF, its missing band placed past the frame. The edge searched for
    /// where the band must end (`searchesBandEdges`) is the card's: GOOD, on its own corners.
    @Test func aBandEdgeTheVoteMissedIsSearchedFor() throws {
        let input = FrameInput.jpeg(try fixtureBytes("faint-top-edge-card-camsim-seed2.jpg"))
        let corners: [(Double, Double)] = [(389.12, 140.33), (1179.82, 191.95), (1146.62, 678.69), (365.77, 655.17)]
        try analyzeExpectingCard(input, primary: .good, corners: corners, within: 0.01)
        let unsearched = try analyzeDocument(input) {
            $0.documentFinder.searchesBandEdges = false
            $0.followsSidesPastClosingSides = false   // (see below)
        }
        #expect(unsearched.primary == .cutOff, "\(unsearched.feedback)")
        #expect(cornerErrorShare(unsearched, corners) > 0.02)
        // The outline's two long sides run on past the text area's top to the card's (`OutlineRunsPastCorner`): the
        // card is found around the outline they imply too (session 46).
        let aroundRuns = try analyzeDocument(input) { $0.documentFinder.searchesBandEdges = false }
        #expect(aroundRuns.primary == .good, "\(aroundRuns.feedback)")
        #expect(cornerErrorShare(aroundRuns, corners) < 0.01)
    }
}
