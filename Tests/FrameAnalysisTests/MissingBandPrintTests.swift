// A square-on quad too long for a card lacks a band along a long side; the print beyond its long sides tells which
// (`MissingBandPrint`), and only that placement must fit the frame for the card to be called whole.
import Testing
@testable import FrameAnalysis

@Suite struct MissingBandPrintTests {
    /// A 640 × 360 working image, plain (120), with a card's body (200, 300 × 120 px) and, beyond one long side, a
    /// band of the background's shade printed with dark strokes (its title).
    static func image(bandAbove: Bool) -> (GrayImage, QuadCorners) {
        let image = GrayImage()
        image.resize(width: 640, height: 360)
        for i in 0..<(640 * 360) { image.base[i] = 120 }
        let top = 120, bottom = 240
        for y in top..<bottom { for x in 170..<470 { image.base[y * 640 + x] = 200 } }
        let bandRows = bandAbove ? (top - 60)..<top : bottom..<(bottom + 60)
        for y in bandRows where (y / 6) % 3 == 1 {
            for x in 190..<450 where (x / 5) % 2 == 0 { image.base[y * 640 + x] = 40 }
        }
        let corners: QuadCorners = [SIMD2(170.0, Double(top)), SIMD2(470.0, Double(top)), SIMD2(470.0, Double(bottom)),
                       SIMD2(170.0, Double(bottom))]
        return (image, corners)
    }

    @Test func theBandLiesOnThePrintedSide() {
        // 300 × 120 is 2.5 long: the band is 0.58 × 120 ≈ 70 px deep.
        let growth = 2.5 / IDCard.aspect - 1
        let (above, corners) = Self.image(bandAbove: true)
        #expect(MissingBandPrint.printedSide(above, corners: corners, growth: growth)?.side == 0)
        let (below, _) = Self.image(bandAbove: false)
        #expect(MissingBandPrint.printedSide(below, corners: corners, growth: growth)?.side == 1)
        // Print on neither side (the band out of view, or unprinted): the print does not tell.
        let plain = GrayImage()
        plain.resize(width: 640, height: 360)
        for i in 0..<(640 * 360) { plain.base[i] = 120 }
        #expect(MissingBandPrint.printedSide(plain, corners: corners, growth: growth) == nil)
    }

    /// Fixtures/README.md: a card on a plain desk whose header band is the desk's shade; the quad without it is 1.89
    /// long, its bottom 71 px above the frame's bottom, about the band's depth. The band could lie below, cut off, so
    /// the frame was CUT_OFF; the header's title shows above the quad and the desk below is plain: GOOD.
    @Test func aCardWhoseBandsPrintShowsInTheFrameIsWhole() throws {
        let input = FrameInput.jpeg(try fixtureBytes(
            "card-header-band-at-background-shade-near-the-bottom-camsim-seed27.jpg"))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.feedback == [Feedback(code: .good)], "\(analysis.feedback)")
        #expect(try #require(analysis.metrics["aspect"]) > IDCard.longestSquareOnWholeAspect)
        #expect(try #require(analysis.metrics["missingBandPrint"]) >= MissingBandPrint.minPrint)

        let unread = try analyzeDocument(input) { $0.readsMissingBandPrint = false }
        #expect(unread.feedback.map(\.code) == [.cutOff], "\(unread.feedback)")
    }

    /// Fixtures/README.md: a card cut off at the frame's top across its header band, on a wood desk; the quad is the
    /// card below the band. The band's print shows in the strip above the quad, inside the frame for only a few rows,
    /// and the desk below is plain: the band lies above, where it does not fit: CUT_OFF, as without the reading.
    /// (camsim seed 44, generated before the reading was written.)
    @Test func aCardCutAcrossItsBandStaysCutOff() throws {
        let input = FrameInput.jpeg(try fixtureBytes("card-cut-across-its-band-camsim-seed44.jpg"))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.feedback.map(\.code) == [.cutOff], "\(analysis.feedback)")
        // The print was read and placed the band (on the cut side): the CUT_OFF is that placement's.
        #expect(try #require(analysis.metrics["missingBandPrint"]) >= MissingBandPrint.minPrint)
        let unread = try analyzeDocument(input) { $0.readsMissingBandPrint = false }
        #expect(unread.feedback.map(\.code) == [.cutOff], "\(unread.feedback)")
        #expect(unread.metrics["missingBandPrint"] == nil)
    }
}
