// Cards that leave the frame held by the end that leaves it: the thumb covers a side's edge where it meets the
// frame's edge, which the finder's border test (a side meeting a frame border carries its edge up to it) takes for a
// border standing in for a missed side (docs/capture.md, "Document quad").
import Foundation
import Testing
@testable import FrameAnalysis

extension SyntheticFrame {
    /// A filled ellipse of one shade (a thumb, seen without texture at the detection scale).
    mutating func fillEllipse(centreX: Double, centreY: Double, radiusX: Double, radiusY: Double, value: UInt8) {
        for y in max(0, Int(centreY - radiusY))...min(height - 1, Int(centreY + radiusY)) {
            for x in max(0, Int(centreX - radiusX))...min(width - 1, Int(centreX + radiusX)) {
                let dx = (Double(x) - centreX) / radiusX, dy = (Double(y) - centreY) / radiusY
                if dx * dx + dy * dy <= 1 { pixels[y * width + x] = value }
            }
        }
    }
}

@Suite struct DocumentCoveredAtBorderTests {
    private func fixture(_ name: String) throws -> FrameInput {
        .jpeg(try fixtureBytes("\(name).jpg"))
    }

    /// A card cut by the right edge of the frame, a thumb over its bottom edge where it leaves the frame. Its photo
    /// box outscores it (MOVE_CLOSER); the card around the photo is found once one side's end at the frame border
    /// may be covered.
    @Test func cardHeldByTheEndThatLeavesTheFrameIsCutOff() throws {
        let corners = [(330.0, 60.0), (700.0, 70.0), (690.0, 300.0), (335.0, 292.0)]
        let frame = documentFrame(corners: corners) {
            $0.fillEllipse(centreX: 625, centreY: 300, radiusX: 60, radiusY: 42, value: 150)
        }
        let analysis = try analyzeDocument(frame)
        #expect(analysis.primary == .cutOff, "\(analysis.feedback) \(analysis.metrics)")
        // The card's two corners in view.
        let region = try #require(analysis.region)
        let left = region.corners.sorted { $0.x < $1.x }.prefix(2).sorted { $0.y < $1.y }
        #expect(abs(left[0].x - 330) < 8 && abs(left[0].y - 60) < 8, "\(region.corners)")
        #expect(abs(left[1].x - 335) < 8 && abs(left[1].y - 292) < 8, "\(region.corners)")
    }

    /// camsim seed 2 (Fixtures/README.md): a card cut by the top of the frame, the thumb over its right side where
    /// it meets the frame's edge (half that side's edge covered). NO_DOCUMENT before the search for a held card.
    @Test func heldCardFromCamsimIsCutOff() throws {
        let analysis = try FrameAnalyzer().analyze(try fixture("held-cut-off-card-camsim-seed2"), mode: .document)
        #expect(analysis.primary == .cutOff, "\(analysis.feedback) \(analysis.metrics)")
    }

    /// camsim portrait seed 7 (Fixtures/README.md): a card cut by the right of the frame whose photo outscores it
    /// (MOVE_CLOSER), and whose outline around the photo has the thumb over its bottom edge at the frame's edge.
    @Test func cutOffCardAroundItsPhotoWithTheThumbAtTheFrameEdgeIsCutOff() throws {
        let analysis = try FrameAnalyzer().analyze(try fixture("held-card-around-photo-camsim-portrait-seed7"),
                                                   mode: .document)
        #expect(analysis.primary == .cutOff, "\(analysis.feedback) \(analysis.metrics)")
    }

    /// Fixtures/README.md: a card leaving the frame's left edge, a thumb over its right side. Its outline (closed by
    /// the frame's border) ranks past the first `quadsVerified` outlines, where an outline closed by the frame used to
    /// be passed over: NO_DOCUMENT. Its inside is printed well past twice the bar (`minDeepPrintedTexture`), so it
    /// wins: CUT_OFF, on the card's top-right corner.
    @Test func aPrintedCardClosedByTheFrameWinsFromDeepInTheRanking() throws {
        let input = try fixture("held-cut-off-card-ranked-deep-camsim-seed8")
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.primary == .cutOff, "\(analysis.feedback) \(analysis.metrics)")
        let region = try #require(analysis.region)
        let diagonal = (1280.0 * 1280 + 720 * 720).squareRoot()
        #expect(region.corners.contains { abs($0.x - 522.33) < 0.01 * diagonal && abs($0.y - 283.41) < 0.01 * diagonal },
                "\(region.corners)")

        // (Its part in view, square-ish and densely printed, is kept by `admitsSquarePrintedPartsAtBorders` too, so
        // both rules are turned off to show what they decide; and the held-card search's outline, taken last when
        // nothing else is found, with them.)
        let neither = try analyzeDocument(input) {
            $0.documentFinder.admitsDeepPrintedOutlines = false
            $0.documentFinder.admitsSquarePrintedPartsAtBorders = false
            $0.takesHeldCardsLast = false
        }
        #expect(neither.primary == .noDocument, "\(neither.feedback)")
    }
}
