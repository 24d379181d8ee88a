// The expectations the rules that answer on a card's portrait alone share (`PortraitWithoutOutlineTests`,
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

/// Expects a light search (a stream where nothing was found lately) on `Fixtures/<fixture>` to leave the portrait
/// searches out (NO_DOCUMENT, no face search run), the frame searched whole to answer `primary` on the portrait, and
/// the stream then to search its next frame whole (a frame answered on a portrait is not empty to the tracker).
/// `searches`: the face searches the whole frame runs (`largePortraitSearches`).
func expectLightSearchLeavesPortraitOut(_ fixture: String, primary: FeedbackCode, searches: Int,
                                        sourceLocation: SourceLocation = #_sourceLocation) throws {
    let input = FrameInput.jpeg(try fixtureBytes(fixture))
    let analyzer = FrameAnalyzer()
    let light = try analyzer.analyze(input, mode: .document, lightSearch: true)
    #expect(light.primary == .noDocument && light.metrics["portraitSize"] == nil, "\(light.feedback)",
            sourceLocation: sourceLocation)
    #expect(analyzer.largePortraitSearches == 0, sourceLocation: sourceLocation)
    var tracker = CaptureTracker()
    let whole = try analyzer.analyze(input, mode: .document, stream: &tracker)
    #expect(whole.analysis.primary == primary && whole.analysis.metrics["portraitSize"] != nil,
            "\(whole.analysis.feedback)", sourceLocation: sourceLocation)
    #expect(analyzer.largePortraitSearches == searches, sourceLocation: sourceLocation)
    #expect(!tracker.searchesLightly(thresholds: analyzer.thresholds), sourceLocation: sourceLocation)
}
