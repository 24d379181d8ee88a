// Where the document finder loses a card whose true outline is known (a labelled frame from tools/framegen or
// tools/camsim): the engine developers' tool behind `kycctl diagnose` (docs/capture.md, "Diagnosing a missed card").
//
// A miss has one of three causes, and each asks for a different change: the card's sides are not among the vote's
// candidate lines (the vote or the line budget loses them), they are but the quad of them does not score (support,
// shape, corners, print), or it scores and is outranked by another outline. The diagnosis answers each in turn for
// the true corners: the nearest candidate line to every true side, whether the first quad search builds quads from
// it, the confidence the quad search gives the outline found around the true corners (as a stream tracks a card it
// knows), and the print share inside the true outline.
import Foundation

/// What the document finder makes of a frame whose card's true corners are known.
public struct DocumentDiagnosis: Sendable, Codable, Equatable {
    /// One side of the true outline (corner i to corner i + 1) against the vote's candidate lines.
    public struct Side: Sendable, Codable, Equatable {
        /// Distance (detection-image pixels) between the side's line and the nearest candidate line within 6° of its
        /// direction, measured at the side's middle; nil when no candidate line is that close in direction.
        public var offset: Double?
        /// Whether that line is one the first quad search builds quads from (within the line budget).
        public var searched: Bool
    }

    /// The engine's answer on the frame alone (`FrameAnalyzer.analyze` in document mode).
    public var feedback: [Feedback]
    /// The full search's winner's confidence (0 when it found no quad).
    public var foundConfidence: Double
    /// The confidence the quad search gives the outline it finds around the true corners, searching each true side's
    /// band for lines of its direction (`DocumentFinder.track`); nil when it finds none there, or when a true corner
    /// lies outside the frame (a cut-off card is not looked for that way).
    public var truthConfidence: Double?
    /// The share of the true outline's inside with edges (`DocumentFinder.interiorTexture`; the printed-inside test's
    /// bar is `minInteriorTexture`, 0.3).
    public var truthPrint: Double
    /// The true outline's four sides, in the order of the corners given.
    public var sides: [Side]
    /// The detection image's size: the scale of `offset`.
    public var detectionWidth: Int
    public var detectionHeight: Int
}

extension FrameAnalyzer {
    /// The document finder's view of `input` against the card's true corners (`truth`: four corners in the upright
    /// input frame's pixels, in order around the card). Bad input throws as `analyze` does.
    public func diagnoseDocument(_ input: FrameInput, truth: [FramePoint]) throws(FrameAnalysisError)
        -> DocumentDiagnosis {
        guard truth.count == 4, truth.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            throw FrameAnalysisError(code: .unsupportedFormat, message: "a true outline has four finite corners")
        }
        // The answer (one search), then the frame's images again for the finder's steps (one more decode).
        let analysis = try analyze(input, mode: .document)
        let (inputSize, detection, working) = try documentImages(input)
        let finder = documentFinder
        let scale = SIMD2(Double(detection.width) / Double(inputSize.width),
                          Double(detection.height) / Double(inputSize.height))
        let corners = truth.map { SIMD2($0.x, $0.y) * scale }
        let sides = finder.firstSearchMatches(corners, coarse: detection)
        // (`firstSearchMatches` leaves the detection image's gradients, which the print share reads.)
        let print = finder.interiorTexture((corners[0], corners[1], corners[2], corners[3]), in: detection)
        var gradientsComputed = false
        let tracked = finder.track(Quadrilateral(corners: corners), coarse: detection, working: working, acceptance: 0,
                                   gradientsComputed: &gradientsComputed)
        return DocumentDiagnosis(feedback: analysis.feedback,
                                 foundConfidence: analysis.metrics["documentConfidence"] ?? 0,
                                 truthConfidence: tracked?.confidence, truthPrint: print, sides: sides,
                                 detectionWidth: detection.width, detectionHeight: detection.height)
    }
}

extension DocumentFinder {
    /// The vote's candidate lines and the first quad search's budgeted lines on `coarse` (the start of `find`),
    /// matched to each side of the outline `corners` (detection-image pixels).
    func firstSearchMatches(_ corners: [SIMD2<Double>], coarse: GrayImage) -> [DocumentDiagnosis.Side] {
        guard readFirstLines(coarse) else {
            return Array(repeating: DocumentDiagnosis.Side(offset: nil, searched: false), count: 4)
        }
        return (0..<4).map { i in
            let a = corners[i], b = corners[(i + 1) & 3]
            let along = b - a
            let length = (along * along).sum().squareRoot()
            guard length > 0 else { return DocumentDiagnosis.Side(offset: nil, searched: false) }
            let middle = (a + b) / 2, direction = along / length
            var nearest: (index: Int, offset: Double)?
            for (index, line) in lines.enumerated() where !line.border {
                // Within 6° of the side's direction (the candidate's direction is its normal turned a quarter).
                let lineDirection = SIMD2(-line.normal.y, line.normal.x)
                guard abs((lineDirection * direction).sum()) >= 0.9945 else { continue }
                let offset = abs((middle * line.normal).sum() - line.rho)
                if offset < (nearest?.offset ?? .infinity) { nearest = (index, offset) }
            }
            guard let nearest else { return DocumentDiagnosis.Side(offset: nil, searched: false) }
            return DocumentDiagnosis.Side(offset: nearest.offset, searched: active.contains(nearest.index))
        }
    }
}
