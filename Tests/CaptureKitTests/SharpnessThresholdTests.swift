import FrameAnalysis
import Testing

/// Documents and selfies are judged BLURRY against their own thresholds (their sharpness measures have their own
/// scales), so an operator can tighten one without touching the other.
@Suite struct SharpnessThresholdTests {
    func firstFrame(mode: String, expected: String) throws -> (GeneratedFrames, GeneratedFrames.Label) {
        let set = try GeneratedFrames.accuracySet.get()
        let label = try #require(set.labels.first { $0.mode == mode && $0.expected == expected && $0.sequence == nil })
        return (set, label)
    }

    func primary(_ set: GeneratedFrames, _ label: GeneratedFrames.Label, _ mode: FrameMode,
                 _ json: String) throws -> FeedbackCode {
        let analyzer = FrameAnalyzer(thresholds: try AnalysisThresholds(json: Array(json.utf8)))
        return try analyzer.analyze(.jpeg(set.bytes(label)), mode: mode).primary
    }

    @Test func documentsFollowMinDocumentSharpnessOnly() throws {
        let (set, label) = try firstFrame(mode: "document", expected: "GOOD")
        #expect(try primary(set, label, .document, "{}") == .good)
        #expect(try primary(set, label, .document, #"{"minSharpness": 1}"#) == .good)
        #expect(try primary(set, label, .document, #"{"minDocumentSharpness": 1}"#) == .blurry)
    }

    @Test func selfiesFollowMinSharpnessOnly() throws {
        let (set, label) = try firstFrame(mode: "selfie", expected: "GOOD")
        #expect(try primary(set, label, .selfie, "{}") == .good)
        #expect(try primary(set, label, .selfie, #"{"minDocumentSharpness": 1}"#) == .good)
        #expect(try primary(set, label, .selfie, #"{"minSharpness": 1}"#) == .blurry)
    }
}
