// The frames in Fixtures/ (Fixtures/README.md says where each comes from and what it once did wrong).
import Foundation
import Testing
@testable import FrameAnalysis

/// The bytes of `Fixtures/<file>` beside this file.
func fixtureBytes(_ file: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(file)")
    return Array(try Data(contentsOf: url))
}

/// The document analysis of `input` alone (by `analyzer`), checked to answer `primary` first with every corner
/// within `share` of the frame's diagonal of `corners` (the card's labelled corners, input pixels); returned for
/// the test's own further checks.
@discardableResult
func analyzeExpectingCard(_ input: FrameInput, primary: FeedbackCode, corners: [(Double, Double)], within share: Double,
                          analyzer: FrameAnalyzer = FrameAnalyzer(),
                          sourceLocation: SourceLocation = #_sourceLocation) throws -> FrameAnalysis {
    let analysis = try analyzer.analyze(input, mode: .document)
    #expect(analysis.primary == primary, "\(analysis.feedback)", sourceLocation: sourceLocation)
    #expect(cornerErrorShare(analysis, corners) < share, "\(String(describing: analysis.region))",
            sourceLocation: sourceLocation)
    return analysis
}

/// The document analysis of `input` by an analyzer `configure` has set up (one of its rules turned off): what a rule
/// decides, shown by the answer without it.
func analyzeDocument(_ input: FrameInput, with configure: (FrameAnalyzer) -> Void) throws -> FrameAnalysis {
    let analyzer = FrameAnalyzer()
    configure(analyzer)
    return try analyzer.analyze(input, mode: .document)
}

/// A fixture whose answer one rule decides: analysed as is, `Fixtures/<fixture>` answers `primary` first with the
/// card's outline (every corner within `share` of the diagonal of `corners`); with the rule turned off by `off`, it
/// answers `before` first. The analysis without the rule is returned for the test's own further checks.
@discardableResult
func expectRuleDecides(_ fixture: String, primary: FeedbackCode, corners: [(Double, Double)], within share: Double,
                       before: FeedbackCode, sourceLocation: SourceLocation = #_sourceLocation,
                       off: (FrameAnalyzer) -> Void) throws -> FrameAnalysis {
    let input = FrameInput.jpeg(try fixtureBytes(fixture))
    try analyzeExpectingCard(input, primary: primary, corners: corners, within: share, sourceLocation: sourceLocation)
    let without = try analyzeDocument(input, with: off)
    #expect(without.primary == before, "\(without.feedback)", sourceLocation: sourceLocation)
    return without
}

/// A fixture whose first answer one setting decides, where the outline is not the point: analysed as is,
/// `Fixtures/<fixture>` answers `primary` first; with `setting` applied, `otherwise`. Both analyses are returned for
/// the test's own further checks.
@discardableResult
func expectSettingDecides(_ fixture: String, primary: FeedbackCode, otherwise: FeedbackCode,
                          sourceLocation: SourceLocation = #_sourceLocation,
                          setting: (FrameAnalyzer) -> Void) throws -> (FrameAnalysis, FrameAnalysis) {
    let input = FrameInput.jpeg(try fixtureBytes(fixture))
    let analysis = try FrameAnalyzer().analyze(input, mode: .document)
    #expect(analysis.primary == primary, "\(analysis.feedback)", sourceLocation: sourceLocation)
    let changed = try analyzeDocument(input, with: setting)
    #expect(changed.primary == otherwise, "\(changed.feedback)", sourceLocation: sourceLocation)
    return (analysis, changed)
}
