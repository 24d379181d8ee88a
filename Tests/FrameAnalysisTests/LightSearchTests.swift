// A light search (`FrameAnalyzer.analyze(lightSearch:)`, handed out by `CaptureTracker.searchesLightly` in a stream
// where nothing was found lately) leaves the fallbacks out: what only they find is not found, and what the first
// search finds is found as by the whole search.
import Foundation
import Testing
@testable import FrameAnalysis

@Suite struct LightSearchTests {
    private func fixture(_ name: String) throws -> FrameInput {
        .jpeg(try fixtureBytes("\(name).jpg"))
    }

    /// Fixtures/README.md: a cut-off card only the held-card search (a fallback) finds.
    @Test func aCardOnlyAFallbackFindsIsNotFoundLightly() throws {
        let input = try fixture("held-cut-off-card-camsim-seed2")
        let whole = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(whole.primary == .cutOff && whole.region != nil && whole.metrics["lightSearch"] == nil)
        let light = try FrameAnalyzer().analyze(input, mode: .document, lightSearch: true)
        #expect(light.primary == .noDocument && light.region == nil && light.metrics["lightSearch"] == 1)
    }

    /// Fixtures/README.md: a head rolled 13° only the rolled pass (a fallback) finds.
    @Test func aFaceOnlyAFallbackFindsIsNotFoundLightly() throws {
        let input = try fixture("rolled-head-camsim-seed4")
        let whole = try FrameAnalyzer().analyze(input, mode: .selfie)
        #expect(!whole.faces.isEmpty && whole.metrics["lightSearch"] == nil)
        let light = try FrameAnalyzer().analyze(input, mode: .selfie, lightSearch: true)
        #expect(light.faces.isEmpty && light.primary == .noFace && light.metrics["lightSearch"] == 1)
    }

    /// A card the vote's quads find: the light search answers exactly as the whole one (but for its metric).
    @Test func aCardTheFirstSearchFindsIsFoundAlike() throws {
        let input = FrameInput.jpeg(documentFrame().jpeg())
        let whole = try FrameAnalyzer().analyze(input, mode: .document)
        var light = try FrameAnalyzer().analyze(input, mode: .document, lightSearch: true)
        #expect(light.metrics["lightSearch"] == 1)
        light.metrics["lightSearch"] = nil
        #expect(light == whole && whole.primary == .good)
    }
}
