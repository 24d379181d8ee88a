// The search for a card's portrait, which three rules share: seen large where no card's outline was found
// (`largePortrait(in:)`, FrameAnalyzer+PortraitWithoutOutline.swift) and around a small answer that reads as a card's
// part (`largePortrait(around:detection:)`, FrameAnalyzer+PortraitAroundSmallAnswer.swift), and at a cut card's size
// in print reaching the frame's edge where no outline was found (`portraitInPrintAtFrameEdge(detection:)`,
// FrameAnalyzer+PortraitAtFrameEdge.swift); docs/capture.md, "Feedback codes". Its bounds, how a face is told from a
// glare patch, and the search itself.
import COpenCVBridge
import Foundation

extension FrameAnalyzer {
    /// The least face height, as a share of the frame's short side, that says a card too close. A card's portrait face
    /// (the cascade's box) is 0.16-0.22 of the card's height (camsim's cards, 312 faces on ten tuning sets: p5 0.156,
    /// median 0.192, p95 0.220); real ID-1 portraits, printed larger for the same card, put it higher. On those sets
    /// the faces of cards at a good distance (GOOD) read 0.07-0.149, of cards too close (MOVE_AWAY) 0.09-0.27 (median
    /// 0.156). Among the frames of the 51 tuning sets answered NO_DOCUMENT none of the 502 empty scenes has a face
    /// of 0.12 or more; the 9 cards too close have one of 0.12 or more, 7 of them 0.14 or more.
    static let minLargePortrait = 0.14
    /// The largest face, as a share of the frame's short side, taken for a card's portrait. Held so close that its
    /// portrait's face spans 0.3 of the frame, a card would be some 1.5 frames tall: the tuning sets' cards too close
    /// show faces up to 0.27 (those this rule answers, 0.17-0.24). A larger face is a person's: camsim's selfie frames
    /// analysed as documents show faces of 0.27-0.71 (all but 6 of 27 over 0.3), which the rule would otherwise
    /// answer MOVE_AWAY.
    static let maxLargePortrait = 0.3
    /// The ratio between the face sizes the search tries. At 1.1 (the selfie search's) it found 7 of the tuning sets'
    /// cards too close, at 1.2 6, at 1.3 2; 1.2 costs about half of 1.1.
    static let largePortraitScaleStep = 1.2

    /// The largest share of a face's box at or above the glare luma that is still taken for a face. A glare patch (a
    /// bright disc fading into a darker ring) passes the face cascade: camsim portrait 7 `glare_0007`, a card of 0.29
    /// fill with a glare patch read as a face of 0.26 of the frame's short side (0.49 of its box clipped); the tuning
    /// sets' card portraits of 0.13 or more have none of theirs clipped.
    static let maxClippedShareOfFace = 0.25

    /// Whether `face` (on `image`) is a glare patch: more than `maxClippedShareOfFace` of its box at or above `luma`.
    static func isGlare(_ face: kyc_face, on image: GrayImage, luma: Double) -> Bool {
        let x0 = max(0, Int(face.x)), y0 = max(0, Int(face.y))
        let x1 = min(image.width, Int(face.x + face.width)), y1 = min(image.height, Int(face.y + face.height))
        guard x1 > x0, y1 > y0 else { return false }
        let bright = UInt8(max(1, min(255, luma.rounded())))
        var clipped = 0
        for y in y0..<y1 {
            let row = image.base + y * image.width
            for x in x0..<x1 where row[x] >= bright { clipped += 1 }
        }
        return Double(clipped) > maxClippedShareOfFace * Double((x1 - x0) * (y1 - y0))
    }

    /// The largest face in the rectangle `x0..<x1`, `y0..<y1` of `image` (a frame's detection or working image), as a
    /// share of its short side, when it is at least `least` (`minLargePortrait` unless given) and at most
    /// `maxLargePortrait`; nil otherwise, for a rectangle too small for the smallest such face, or without the
    /// cascades. Every size is searched, at `scaleStep` (`largePortraitScaleStep` unless given): a person's face larger
    /// than `maxLargePortrait` is also found at smaller windows that still fire on it, so only its largest size tells
    /// it apart. A glare patch passing for a face is no portrait (`isGlare`). Counted in `largePortraitSearches`. The
    /// search behind `largePortrait(in:)`, `largePortrait(around:detection:)` and
    /// `portraitInPrintAtFrameEdge(detection:)`.
    func largestPortrait(on image: GrayImage, x0: Int, y0: Int, x1: Int, y1: Int,
                         atLeast least: Double = minLargePortrait,
                         scaleStep: Double = largePortraitScaleStep) -> Double? {
        let shortSide = min(image.width, image.height)
        let smallest = max(FaceSearch.cascadeWindow, Int((least * Double(shortSide)).rounded(.up)))
        guard x1 - x0 >= smallest, y1 - y0 >= smallest, let search = try? loadedFaceSearch() else { return nil }
        largePortraitSearches += 1
        let faces = search.detector.detect(search: image, eyes: image,
                                           region: (x: x0, y: y0, width: x1 - x0, height: y1 - y0), minFace: smallest,
                                           scaleStep: scaleStep)
        guard let largest = faces.lazy.filter({ !Self.isGlare($0, on: image, luma: self.thresholds.glareLuma) })
            .map({ Double(max($0.width, $0.height)) }).max() else { return nil }
        let share = largest / Double(shortSide)
        return share >= least && share <= Self.maxLargePortrait ? share : nil
    }
}
