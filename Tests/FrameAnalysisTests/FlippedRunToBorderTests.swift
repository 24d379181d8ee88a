// A side meeting a frame border must carry its edge up to it; where the background behind the card turns from
// darker than the card to brighter, the edge runs on at the other polarity (`DocumentFinder.followsFlippedRunsToBorder`,
// `evaluate`'s `reachesBorder`; docs/capture.md, "Edges that flip at the border").
import Testing
@testable import FrameAnalysis

@Suite struct FlippedRunToBorderTests {
    /// Fixtures/README.md: a card held too close in a portrait frame, running past its right edge, its top side in
    /// front of a pink wall and then of a bright window near that edge. The top side's last stretch before the border
    /// read 0 at the side's polarity (the card is brighter than the wall, darker than the window), so the card's
    /// border-closed outline was refused and a part of the card closed on its photo's and a print line won: GOOD
    /// (0.62) for a MOVE_AWAY frame, an auto-capture of part of a card. The edge reads strongly at the other polarity
    /// there: the card is taken, MOVE_AWAY.
    @Test func aCardRunningPastTheFrameInFrontOfAWindowIsTooClose() throws {
        let input = FrameInput.jpeg(try fixtureBytes("card-too-close-edge-flips-at-the-border-camsim-portrait-seed113.jpg"))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(analysis.primary == .moveAway, "\(analysis.feedback)")
        // The corners in view: the card's left ones, and where its top and bottom meet the frame's right edge.
        let corners = try #require(analysis.region).corners
        let left = corners.sorted { $0.x < $1.x }.prefix(2).sorted { $0.y < $1.y }
        #expect(abs(left[0].x - 84.68) < 15 && abs(left[0].y - 665.37) < 15, "\(corners)")
        #expect(abs(left[1].x - 84.19) < 15 && abs(left[1].y - 1271.23) < 15, "\(corners)")
        let before = try analyzeDocument(input) { $0.documentFinder.followsFlippedRunsToBorder = false }
        #expect(before.primary == .good, "\(before.feedback)")
    }
}
