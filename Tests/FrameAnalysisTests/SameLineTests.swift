// Two candidate lines of the vote are one line within 4° and `sameLineOffset` of each other
// (`DocumentFinder.sameLineCosine`; docs/capture.md, "Document quad").
import Foundation
import Testing
@testable import FrameAnalysis

@Suite struct SameLineTests {
    /// Lines through one point `degrees` apart.
    private func lines(_ degrees: Double) -> (DocumentFinder.Line, DocumentFinder.Line) {
        let point = SIMD2(100.0, 80.0)
        func line(_ angle: Double) -> DocumentFinder.Line {
            let normal = SIMD2(cos(angle * .pi / 180), sin(angle * .pi / 180))
            return DocumentFinder.Line(normal: normal, rho: (point * normal).sum())
        }
        return (line(20), line(20 + degrees))
    }

    @Test func linesUnderFourDegreesApartAreOneLineAndLinesFourAndAHalfApartAreTwo() {
        let offset = DocumentFinder.sameLineOffset(shortSide: 180)
        let near = lines(3.5), apart = lines(4.5)
        #expect(DocumentFinder.similar(near.0, near.1, cosine: DocumentFinder.sameLineCosine, offset: offset))
        #expect(!DocumentFinder.similar(apart.0, apart.1, cosine: DocumentFinder.sameLineCosine, offset: offset))
    }

    /// Fixtures/README.md: a whole card held by a hand before a pink and teal wall. Its right side runs 4-5° off a
    /// stronger line beside it, which took its place in the vote while lines within 5° were one: the outline built
    /// on that line scored 0.50 (the card's own 0.74), NO_DOCUMENT. Now the card, GOOD.
    @Test func aCardSideFourDegreesOffAStrongerLineIsItsOwnLine() throws {
        let input = FrameInput.jpeg(try fixtureBytes(
            "card-side-beside-a-stronger-line-4-degrees-off-camsim-portrait-seed94.jpg"))
        try analyzeExpectingCard(input, primary: .good,
                                 corners: [(85.71, 484.38), (508.87, 571.04), (451.2, 820.08), (50.31, 744.99)],
                                 within: 0.01)
    }
}
