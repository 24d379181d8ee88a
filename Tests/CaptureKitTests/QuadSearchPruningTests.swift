// The quad search's pruning copies `evaluate`'s side-support floors; a stale copy would drop quads without any
// accuracy test noticing at once. This runs the finder with and without that pruning on every labelled document
// frame of both generated sets and requires the same outline and confidence.
import Foundation
import Testing
@testable import FrameAnalysis

@Suite("Quad search pruning")
struct QuadSearchPruningTests {
    @Test(arguments: ["framegen", "camsim"])
    func pruningNeverChangesTheFoundQuad(set name: String) throws {
        let set = try (name == "framegen" ? GeneratedFrames.accuracySet : GeneratedFrames.camsimSet).get()
        let thresholds = AnalysisThresholds.default
        let decoder = JPEGGrayDecoder()
        let working = GrayImage(), coarse = GrayImage()
        let pruned = DocumentFinder(), unpruned = DocumentFinder()
        unpruned.prunesUnsupportedSides = false
        var compared = 0
        for label in set.labels where label.mode == "document" && label.sequence == nil {
            try decoder.decode(set.bytes(label), into: working, longSide: thresholds.workingLongSide,
                               maxPixels: 40_000_000)
            coarse.downsample2x(from: working)
            let a = pruned.find(coarse: coarse, working: working, acceptance: thresholds.minDocumentConfidence,
                                widerSearchMaxLuma: thresholds.maxBrightness)
            let b = unpruned.find(coarse: coarse, working: working, acceptance: thresholds.minDocumentConfidence,
                                  widerSearchMaxLuma: thresholds.maxBrightness)
            #expect(a?.quad.corners == b?.quad.corners, "\(label.file): pruning changed the quad")
            #expect(a?.confidence == b?.confidence, "\(label.file): pruning changed the confidence")
            compared += 1
        }
        #expect(compared >= 90)
    }
}
