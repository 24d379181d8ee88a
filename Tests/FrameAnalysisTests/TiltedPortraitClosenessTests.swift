// A card tilted beyond `maxSkew` in a portrait frame is judged close enough as held across
// (`FrameAnalyzer.judgesTiltedPortraitCardsAcross`): turned far about the vertical axis, its long sides are
// foreshortened below its short ones and its quad reads as an upright card's.
import Testing
@testable import FrameAnalysis

@Suite struct TiltedPortraitClosenessTests {
    /// Fixtures/README.md: a card held across a 720x1280 frame, turned 46° away (camsim's true fill 0.30, skew 29°),
    /// its true corners as camsim drew them. Its quad is 1.05 long for its width, so it reads as upright, and against
    /// the largest upright card its nearest edge made it look too far: MOVE_CLOSER before TILTED. Judged as held
    /// across, it is close enough, and TILTED (what the user must fix) comes alone.
    @Test func aCardTurnedAwayInAPortraitFrameIsToldTiltedNotMoveCloser() throws {
        let input = FrameInput.jpeg(try fixtureBytes("card-turned-away-reads-upright-camsim-portrait-seed48.jpg"))
        let corners: [(Double, Double)] = [(237.83, 565.96), (536.15, 551.02), (558.74, 797.03), (289.04, 981.91)]
        let analysis = try analyzeExpectingCard(input, primary: .tilted, corners: corners, within: 0.02)
        #expect(!analysis.feedback.contains { $0.code == .moveCloser }, "\(analysis.feedback)")
        #expect((analysis.metrics["aspect"] ?? 0) < 1.2, "\(analysis.metrics)")

        let before = try analyzeDocument(input) { $0.judgesTiltedPortraitCardsAcross = false }
        #expect(before.feedback.map(\.code) == [.moveCloser, .tilted], "\(before.feedback)")
    }
}
