// The expectation the rules that answer on a card's portrait alone share (`PortraitWithoutOutlineTests`,
// `PortraitAtFrameEdgeTests`): where no card's outline was found, a face in the frame's print decides the answer.
import Testing
@testable import FrameAnalysis

/// Expects `Fixtures/<fixture>` answered on a card's portrait alone: `primary` the only finding, no region, the face's
/// share (`portraitSize`, within `shares`) as its value and `threshold` as its threshold; with `setting` applied
/// (the rule turned off), NO_DOCUMENT alone and no `portraitSize`. Returns the face's share.
@discardableResult
func expectPortraitDecides(_ fixture: String, primary: FeedbackCode, threshold: Double, shares: Range<Double>,
                           sourceLocation: SourceLocation = #_sourceLocation,
                           setting: (FrameAnalyzer) -> Void) throws -> Double {
    let (analysis, before) = try expectSettingDecides(fixture, primary: primary, otherwise: .noDocument,
                                                      sourceLocation: sourceLocation, setting: setting)
    #expect(analysis.feedback.map(\.code) == [primary], "\(analysis.feedback)", sourceLocation: sourceLocation)
    #expect(analysis.region == nil, sourceLocation: sourceLocation)
    let portrait = try #require(analysis.metrics["portraitSize"], sourceLocation: sourceLocation)
    #expect(shares.contains(portrait), "\(portrait)", sourceLocation: sourceLocation)
    #expect(analysis.feedback.first?.value == portrait, sourceLocation: sourceLocation)
    #expect(analysis.feedback.first?.threshold == threshold, sourceLocation: sourceLocation)
    #expect(before.feedback.map(\.code) == [.noDocument], "\(before.feedback)", sourceLocation: sourceLocation)
    #expect(before.metrics["portraitSize"] == nil, sourceLocation: sourceLocation)
    return portrait
}
