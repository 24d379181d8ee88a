// A winner seen whole that is longer than a photo may be a part of a card the frame cuts: the cut card is looked for
// around it (`DocumentFinder.takesCutCardsAroundLongerParts`, `maxCutPartAspect`; docs/capture.md, "The cut card around
// a longer part").
import Testing
@testable import FrameAnalysis

@Suite struct CutCardAroundLongerPartTests {
    /// Fixtures/README.md: a held card cut by the frame's right edge. Its photo column, closed by a print line across
    /// the card, won (1.74 long for its width, past `maxPhotoAspect`): MOVE_CLOSER. The card's part in view, closed by
    /// the frame, is taken: CUT_OFF, its three own corners on the card's.
    @Test func theCutCardIsFoundAroundItsPhotoColumn() throws {
        let input = FrameInput.jpeg(try fixtureBytes("held-card-cut-its-photo-column-won-camsim-small-seed170.jpg"))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.primary == .cutOff, "\(analysis.feedback)")
        // The true corners in view: top left (150.11, 400.56), bottom left (157.97, 548.83); the right side is cut.
        let corners = try #require(analysis.region?.corners)
        #expect(corners.contains { abs($0.x - 150.11) < 4 && abs($0.y - 400.56) < 4 }, "\(corners)")
        #expect(corners.contains { abs($0.x - 157.97) < 4 && abs($0.y - 548.83) < 4 }, "\(corners)")
        #expect(corners.contains { $0.x >= 358 }, "closed by the frame's right edge: \(corners)")
        let before = try analyzeDocument(input) { $0.documentFinder.takesCutCardsAroundLongerParts = false }
        #expect(before.primary == .moveCloser, "\(before.feedback)")
    }

    /// Which winners may be a card's part: photo-like up to `maxPhotoAspect`, a cut card's part up to
    /// `maxCutPartAspect`, and never under `minContainerConfidence`.
    @Test func aPartMayBeLongerThanAPhotoButNotLongerThanTheBound() {
        func quad(long: Double, confidence: Double) -> DocumentFinder.RankedQuad {
            ((SIMD2(0, 0), SIMD2(long, 0), SIMD2(long, 10), SIMD2(0, 10)), confidence, confidence, SIMD4(0, 1, 2, 3))
        }
        #expect(DocumentFinder.mayBePhoto(quad(long: 15, confidence: 0.8)))
        #expect(!DocumentFinder.mayBePhoto(quad(long: 17.5, confidence: 0.8)))
        #expect(DocumentFinder.mayBePhoto(quad(long: 17.5, confidence: 0.8), maxAspect: DocumentFinder.maxCutPartAspect))
        #expect(!DocumentFinder.mayBePhoto(quad(long: 20, confidence: 0.8), maxAspect: DocumentFinder.maxCutPartAspect))
        #expect(!DocumentFinder.mayBePhoto(quad(long: 17.5, confidence: 0.5), maxAspect: DocumentFinder.maxCutPartAspect))
    }
}
