// A winner printed only sparsely gives way to a densely printed outline apart from it that scores nearly as well
// (`DocumentFinder.prefersDenselyPrinted`, `denselyPrinted`; docs/capture.md, "Densely printed over sparsely").
import Testing
@testable import FrameAnalysis

@Suite struct DenselyPrintedOutlineTests {
    /// Fixtures/README.md: a card with a glare patch on it, below a bright window pane with its bars. The pane's
    /// outline (0.78, edges over 0.30 of its inside: just "printed") outranked the card (0.72, 0.68): MOVE_CLOSER on
    /// the pane for a GLARE frame. The card, apart from the pane, printed twice as densely, is taken.
    @Test func aCardBesideABarredWindowPaneIsTakenOverThePane() throws {
        try expectRuleDecides("card-beside-a-barred-window-pane-camsim-portrait-seed118.jpg", primary: .glare,
                              corners: [(239.01, 523.51), (588.82, 584.7), (554.5, 835.7), (191.49, 777.24)],
                              within: 0.01, before: .moveCloser) { $0.documentFinder.prefersDenselyPrinted = false }
    }

    /// The swap never takes an outline inside or around the winner (a card's own photo, or a desk around it), however
    /// densely printed, nor one scoring under 0.8 of it, nor a bare one: `denselyPrinted` asks for one apart from it,
    /// nearly as good, printed at least `denselyPrintedTexture`.
    @Test func onlyAnOutlineApartFromTheWinnerIsTaken() throws {
        let finder = DocumentFinder()
        // The left half printed, the right half bare first.
        var random = SyntheticFrame.Random(state: 29)
        let image = imagePrintedOnTheLeft(for: finder, random: &random)
        // (The quads' sides all name line 0, not a frame border: `seenWhole` reads it.)
        finder.lines = [DocumentFinder.Line(theta: 0, rho: 0, border: false)]
        let winner = rankedQuad([(10, 10), (90, 10), (90, 90), (10, 90)], score: 0.8)
        let inside = rankedQuad([(30, 30), (60, 30), (60, 60), (30, 60)], score: 0.79)
        let apart = rankedQuad([(110, 10), (190, 10), (190, 90), (110, 90)], score: 0.7)
        let tooWeak = rankedQuad([(110, 10), (190, 10), (190, 90), (110, 90)], score: 0.6)
        #expect(finder.denselyPrinted(apartFrom: winner, among: [inside][...], image: image, width: 200,
                                      height: 100) == nil)
        #expect(finder.denselyPrinted(apartFrom: winner, among: [tooWeak][...], image: image, width: 200,
                                      height: 100) == nil)
        // Apart and scoring well, but bare: not printed densely enough.
        #expect(finder.denselyPrinted(apartFrom: winner, among: [apart][...], image: image, width: 200,
                                      height: 100) == nil)
        for y in 0..<100 { for x in 100..<200 where random.next() % 4 == 0 { image.base[y * 200 + x] = 30 } }
        finder.coarseGradients.compute(image)
        let taken = try #require(finder.denselyPrinted(apartFrom: winner, among: [inside, apart][...], image: image,
                                                       width: 200, height: 100))
        #expect(taken.quad.corners.0 == SIMD2(110, 10), "\(taken)")
        #expect(taken.texture >= DocumentFinder.denselyPrintedTexture, "\(taken)")
    }
}
