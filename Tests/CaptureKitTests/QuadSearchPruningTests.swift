// The quad search's pruning copies `evaluate`'s side-support floors and its first pass over each side (support,
// step, at most one weak side and then every other side strong), read once per pair of lines instead of once per
// quad, and skips quads whose score bound cannot enter the ranking; a stale copy or a bound that is not one would
// drop quads without any accuracy test noticing at once. This runs the finder with and without that pruning on every
// labelled document frame of both generated sets and requires the same outline and confidence (checked to fail with
// the evidence bound scaled by 0.8).
import Foundation
import Testing
@testable import FrameAnalysis

@Suite("Quad search pruning")
struct QuadSearchPruningTests {
    @Test(arguments: ["framegen", "camsim"])
    func pruningNeverChangesTheFoundQuad(set name: String) async throws {
        let differences = try await onOwnThread { try Self.compareWithAndWithoutPruning(set: name) }
        for difference in differences.quads { Issue.record("\(difference): pruning changed the quad") }
        for difference in differences.confidences { Issue.record("\(difference): pruning changed the confidence") }
        #expect(differences.compared >= 90)
    }

    /// Frames whose quad or confidence differ with pruning on and off, and how many frames were compared.
    static func compareWithAndWithoutPruning(set name: String) throws
        -> (quads: [String], confidences: [String], compared: Int) {
        let set = try (name == "framegen" ? GeneratedFrames.accuracySet : GeneratedFrames.camsimSet).get()
        let pruned = FrameAnalyzer(), unpruned = FrameAnalyzer()
        unpruned.documentFinder.prunesUnsupportedSides = false
        var quads: [String] = [], confidences: [String] = [], compared = 0
        for label in set.labels where label.mode == "document" && label.sequence == nil {
            let bytes = try set.bytes(label)
            let a = try pruned.findDocument(.jpeg(bytes)), b = try unpruned.findDocument(.jpeg(bytes))
            if a?.quad.corners != b?.quad.corners { quads.append(label.file) }
            if a?.confidence != b?.confidence { confidences.append(label.file) }
            compared += 1
        }
        return (quads, confidences, compared)
    }
}
