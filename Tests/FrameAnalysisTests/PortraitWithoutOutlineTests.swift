// A frame where no card's outline was found is told MOVE_AWAY when a card's portrait is seen large in it
// (`FrameAnalyzer.readsLargePortraitsWithoutOutline`, `largePortrait`; docs/capture.md, "A card's portrait without
// an outline").
import Testing
@testable import FrameAnalysis

@Suite struct PortraitWithoutOutlineTests {
    /// Fixtures/README.md: a card held so close that it covers the frame. No outline of it passes; its portrait's
    /// face, 0.19 of the frame's short side, says a card too close: MOVE_AWAY, the face's share as its value.
    @Test func aCardCoveringTheFrameIsToldToMoveAwayByItsPortrait() throws {
        try expectPortraitDecides("card-too-close-no-outline-its-portrait-large-camsim-seed112.jpg", primary: .moveAway,
                                  threshold: FrameAnalyzer.minLargePortrait,
                                  shares: FrameAnalyzer.minLargePortrait..<0.25) {
            $0.readsLargePortraitsWithoutOutline = false
        }
    }

    /// A light search (a stream where nothing was found lately) leaves the portrait search out, as it leaves out the
    /// other searches over the frame's print: NO_DOCUMENT, no face search run. The frame searched whole says MOVE_AWAY,
    /// and a stream then searches its next frame whole (`CaptureTracker`, `ThresholdsAndTrackerTests`).
    @Test func aLightSearchLeavesThePortraitOut() throws {
        try expectLightSearchLeavesPortraitOut("card-too-close-no-outline-its-portrait-large-camsim-seed112.jpg",
                                               primary: .moveAway, searches: 1)
    }

    /// A person's face is larger than a card's portrait can be (`maxLargePortrait`): a selfie frame (camsim 12, a face
    /// 0.38 of the frame's short side before a window) analysed as a document is not told MOVE_AWAY for it.
    @Test func aPersonsFaceIsNotTakenForACardsPortrait() throws {
        let input = FrameInput.jpeg(try fixtureBytes("shaken-face-before-window-camsim-seed12.jpg"))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.metrics["portraitSize"] == nil, "\(analysis.metrics)")
        #expect(analysis.primary != .moveAway, "\(analysis.feedback)")
        let selfie = try FrameAnalyzer().analyze(input, mode: .selfie)
        #expect((selfie.metrics["faceSize"] ?? 0) > FrameAnalyzer.maxLargePortrait, "\(selfie.metrics)")
    }

    /// An empty scene with print in view (framegen's wavy desk, one printed region) has its print searched for a face
    /// and none found: NO_DOCUMENT as before.
    @Test func anEmptyPrintedSceneStaysNoDocument() throws {
        let input = FrameInput.jpeg(try fixtureBytes("wavy-empty-desk-its-print-window-not-grown-framegen-seed7.jpg"))
        let analyzer = FrameAnalyzer()
        let analysis = try analyzer.analyze(input, mode: .document)
        #expect(analysis.primary == .noDocument, "\(analysis.feedback)")
        #expect(analysis.metrics["portraitSize"] == nil)
        #expect(!analyzer.printedRegions.regions.isEmpty, "its print was read")
        #expect(analyzer.largePortraitSearches == 1, "the face search ran over that print and found no portrait")
    }
}
