// The document search's steps on one frame (`FrameAnalyzer.tracesSearch`, `kycctl analyze --trace`): which search
// found the outline a frame was answered on, its corners in the input frame's pixels.
import Testing
@testable import FrameAnalysis

@Suite struct SearchTraceTests {
    static func traced(_ fixture: String) throws -> (analysis: FrameAnalysis, steps: [SearchStep]) {
        let analyzer = FrameAnalyzer()
        analyzer.tracesSearch = true
        let analysis = try analyzer.analyze(.jpeg(try fixtureBytes(fixture)), mode: .document)
        return (analysis, analyzer.searchTrace)
    }

    /// The largest distance between corresponding corners (input pixels).
    static func distance(_ a: [FramePoint], _ b: [FramePoint]) -> Double {
        guard a.count == b.count else { return .infinity }
        return zip(a, b).map { p, q in ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot() }
            .max() ?? .infinity
    }

    /// Fixtures/README.md: the pitched card whose first winner ran out of the frame on a grain line. The trace names
    /// both: the first winner past the 360-pixel frame's right edge, then the pitched card that replaced it, the
    /// answer's outline.
    @Test func theTraceNamesTheSearchThatFoundTheAnswer() throws {
        let (analysis, steps) = try Self.traced(
            "card-pitched-far-its-side-run-out-on-the-grain-camsim-small-seed153.jpg")
        #expect(steps.map(\.step) == ["find.first", "find.pitchedPastWinner", "find.result"], "\(steps)")
        #expect(steps[0].corners.contains { $0.x > 360 } && steps[0].confidence < steps[1].confidence, "\(steps)")
        let region = try #require(analysis.region)
        #expect(Self.distance(steps[2].corners, region.corners) < 0.5, "\(steps[2]) \(region)")
        #expect(steps[2].confidence == region.confidence)
        // The pitched outline is on the detection image (half the working size): within a pixel or two of the
        // refined answer.
        #expect(Self.distance(steps[1].corners, region.corners) < 4, "\(steps[1]) \(region)")
    }

    /// `fixture`'s answer, found by the search whose metric `metric` says so: its last step named `step` lies on the
    /// answer's outline (the trace's map from that search's image to the frame). The steps are returned.
    @discardableResult
    static func expectLastStepIsTheAnswer(_ fixture: String, metric: String, step: String,
                                          sourceLocation: SourceLocation = #_sourceLocation) throws -> [SearchStep] {
        let (analysis, steps) = try traced(fixture)
        #expect(analysis.metrics[metric] == 1, "\(analysis.metrics)", sourceLocation: sourceLocation)
        let region = try #require(analysis.region, sourceLocation: sourceLocation)
        let last = try #require(steps.last { $0.step == step }, "\(steps.map(\.step))", sourceLocation: sourceLocation)
        #expect(distance(last.corners, region.corners) < 0.5, "\(last) \(region)", sourceLocation: sourceLocation)
        return steps
    }

    /// A card found in a printed region's window: the window's steps are named apart and mapped from the window to
    /// the frame; the window's result is the answer.
    @Test func aWindowsStepsAreMappedToTheFrame() throws {
        let steps = try Self.expectLastStepIsTheAnswer("card-its-outline-ran-on-to-a-keyboard-camsim-small-seed173.jpg",
                                                       metric: "printedRegion", step: "window.find.result")
        #expect(steps.contains { $0.step.hasPrefix("locate.") }, "\(steps.map(\.step))")
    }

    /// A card found in colour: the colour search's steps (refined on the colour contrast image, the detection size)
    /// map to the answer too.
    @Test func theColourSearchsStepsAreMappedToTheFrame() throws {
        try Self.expectLastStepIsTheAnswer("colour-edged-card-camsim-seed4.jpg", metric: "colourEdges",
                                           step: "colour.find.result")
    }

    /// Off (the default, as in the service), nothing is recorded; on, the answer is the same.
    @Test func tracingChangesNoAnswerAndIsOffByDefault() throws {
        let input = FrameInput.jpeg(try fixtureBytes("colour-edged-card-camsim-seed4.jpg"))
        let plain = FrameAnalyzer()
        #expect(!plain.tracesSearch)
        let untraced = try plain.analyze(input, mode: .document)
        #expect(plain.searchTrace.isEmpty)
        let tracing = FrameAnalyzer()
        tracing.tracesSearch = true
        let traced = try tracing.analyze(input, mode: .document)
        #expect(traced == untraced)
        #expect(!tracing.searchTrace.isEmpty)
        // Each frame's trace is its own.
        _ = try tracing.analyze(.jpeg(try fixtureBytes(
            "card-pitched-far-its-side-run-out-on-the-grain-camsim-small-seed153.jpg")), mode: .document)
        #expect(tracing.searchTrace.first?.step == "find.first" && !tracing.searchTrace.contains {
            $0.step.hasPrefix("colour.") }, "\(tracing.searchTrace.map(\.step))")
    }
}
