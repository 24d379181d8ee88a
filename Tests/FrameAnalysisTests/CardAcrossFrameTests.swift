// A card held so close that it spans the frame from one edge to the opposite one shows only its two long sides; the
// frame's edges close its outline, which the quad search does not build. It is looked for around a border-closed
// winner (`DocumentFinder.cardAcrossFrame`, `takesCardsAcrossTheFrame`; docs/capture.md, "A card spanning the frame").
import Testing
@testable import FrameAnalysis

@Suite struct CardAcrossFrameTests {
    /// Fixtures/README.md: a card in a portrait frame, cut by both its side edges; its part closed by the left edge
    /// and a thumb won (0.63): CUT_OFF for a MOVE_AWAY frame. The card's outline closed by both side edges (0.91),
    /// printed beside that part, is MOVE_AWAY. (Its corners on the frame's edges lie 0.04-0.07 of the diagonal from the
    /// card's, which are out of view.)
    @Test func aCardSpanningThePortraitFrameIsTooClose() throws {
        try expectRuleDecides("card-spanning-the-frame-its-part-won-camsim-portrait-seed111.jpg", primary: .moveAway,
                              corners: [(-23.52, 352.67), (767.71, 426.77), (702.81, 895.27), (-35.85, 845.39)],
                              within: 0.07, before: .cutOff) { $0.documentFinder.takesCardsAcrossTheFrame = false }
    }

    /// The band's two sides must be a card's height apart for the frame's extent (`minAcrossFrameHeight`): two
    /// lines crossing a portrait frame a third of its width apart (a ruler, a strip of a desk) enclose no card wider
    /// than the frame, however printed between them; 0.78 of its width apart, they do.
    @Test func onlyABandACardsHeightTallSpansTheFrame() {
        func band(_ rows: Range<Int>) -> DocumentFinder.RankedQuad? {
            let finder = DocumentFinder()
            let image = GrayImage()
            image.resize(width: 90, height: 160)
            // Print as blotches of 3 × 3 cells (edges every way, no long line) on a mid-grey card, on a light wall.
            for y in 0..<160 {
                for x in 0..<90 {
                    let cell = (x / 3) &* 73_856_093 ^ (y / 3) &* 19_349_663
                    image.base[y * 90 + x] = rows.contains(y) ? (cell % 5 == 0 ? 40 : 130) : 235
                }
            }
            guard finder.readFirstLines(image) else { return nil }
            let part: DocumentFinder.RankedQuad = ((SIMD2(0, Double(rows.lowerBound)), SIMD2(30, Double(rows.lowerBound)),
                                                    SIMD2(30, Double(rows.upperBound - 1)),
                                                    SIMD2(0, Double(rows.upperBound - 1))), 0.7, 0.7, SIMD4(0, 1, 2, 3))
            return finder.cardAcrossFrame(around: part, image: image, minConfidence: 0.6)
        }
        #expect(band(65..<95) == nil)
        let card = band(45..<115)
        #expect(card != nil)
        if let card {
            let ys = [card.corners.0.y, card.corners.1.y, card.corners.2.y, card.corners.3.y].sorted()
            #expect(abs(ys[0] - 45) < 2 && abs(ys[1] - 45) < 2 && abs(ys[2] - 114) < 2 && abs(ys[3] - 114) < 2,
                    "\(card.corners)")
        }
    }
}
