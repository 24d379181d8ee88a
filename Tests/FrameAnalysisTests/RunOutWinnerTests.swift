// A printed winner that runs out of the frame gives way to the card seen whole sharing two of its lines
// (`DocumentFinder.prefersCardsUnderRunOutWinners`, `cardSeenWholeUnder`; docs/capture.md, "A winner running out of
// the frame").
import Testing
@testable import FrameAnalysis

@Suite struct RunOutWinnerTests {
    /// Fixtures/README.md: a card turned away on a dark desk. Its top, left and right sides, run on to a background
    /// line crossing them below the frame, outscored the card (0.89 against 0.84): CUT_OFF for TILTED. The card is
    /// taken.
    @Test func aTurnedCardIsTakenOverItsSidesRunOnPastTheFrame() throws {
        try expectRuleDecides("tilted-card-its-sides-run-on-past-the-frame-camsim-seed110.jpg", primary: .tilted,
                              corners: [(181.11, 345.84), (1165.16, 333.77), (1029.66, 677.3), (339.76, 665.85)],
                              within: 0.01, before: .cutOff) { $0.documentFinder.prefersCardsUnderRunOutWinners = false }
    }

    /// Which winners run out of the frame, and which outline replaces one: seen whole, two of its lines shared,
    /// `runOutScoreShare` of its score, printed.
    @Test func onlyAPrintedCardSeenWholeSharingTwoLinesReplacesAWinnerRunningOut() throws {
        let finder = DocumentFinder()
        var random = SyntheticFrame.Random(state: 31)
        let image = imagePrintedOnTheLeft(for: finder, random: &random)
        finder.lines = (0..<6).map { DocumentFinder.Line(theta: 0, rho: Double($0), border: false) }
        // Short side 100: a corner more than 3 px past the frame's edge runs out of it.
        let grazing = rankedQuad([(10, 10), (90, 10), (90, 102), (10, 90)], score: 0.9, sides: SIMD4(0, 1, 2, 3))
        let runOut = rankedQuad([(10, 10), (90, 10), (90, 130), (10, 90)], score: 0.9, sides: SIMD4(0, 1, 2, 3))
        #expect(!DocumentFinder.runsOutOfFrame(grazing.corners, width: 200, height: 100))
        #expect(DocumentFinder.runsOutOfFrame(runOut.corners, width: 200, height: 100))
        let card = rankedQuad([(10, 10), (90, 10), (90, 90), (10, 90)], score: 0.85, sides: SIMD4(0, 1, 4, 3))
        let oneShared = rankedQuad([(12, 12), (88, 12), (88, 88), (12, 88)], score: 0.85, sides: SIMD4(0, 4, 5, 5))
        let tooWeak = rankedQuad([(10, 10), (90, 10), (90, 90), (10, 90)], score: 0.8, sides: SIMD4(0, 1, 4, 3))
        let bare = rankedQuad([(110, 10), (190, 10), (190, 90), (110, 90)], score: 0.85, sides: SIMD4(0, 1, 4, 3))
        func taken(_ winner: DocumentFinder.RankedQuad, among: [DocumentFinder.RankedQuad]) -> SIMD2<Double>? {
            finder.cardSeenWholeUnder(runOut: winner, among: among, image: image, width: 200, height: 100)?.corners.2
        }
        #expect(taken(grazing, among: [grazing, card]) == nil)
        #expect(taken(runOut, among: [runOut, oneShared, tooWeak, bare]) == nil)
        #expect(taken(runOut, among: [runOut, oneShared, tooWeak, bare, card]) == nil, "past the first quadsVerified")
        #expect(taken(runOut, among: [runOut, bare, card]) == SIMD2(90, 90))
        // A winner closed by a frame border is not one running out: its own follow-up searches for a card.
        finder.lines[2] = DocumentFinder.Line(theta: 0, rho: 2, border: true)
        #expect(taken(runOut, among: [runOut, card]) == nil)
    }
}
