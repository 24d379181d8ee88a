// A card's portrait seen large where no card's outline was found: the card is held too close for its outline to be in
// view (docs/capture.md, "Feedback codes", "A portrait without an outline").
//
// Held too close, a card covers the frame and its sides run beyond the frame's edges, or along them: no outline of it
// passes the searches, and the frame was told NO_DOCUMENT, which sends the user looking for a card they are holding
// up to the camera. Its holder's portrait is still in view, and a face found in a document frame is a document's: an
// identity document carries its holder's portrait on its face, the scenes a card is shown against carry none. A face
// at least `minLargePortrait` of the frame's short side belongs to a card at least as large as the largest the frame
// takes whole: the answer is MOVE_AWAY.
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

    /// The largest face on `detection` (the detection image of a frame in which no card was found), as a share of its
    /// short side, when it is at least `minLargePortrait` and at most `maxLargePortrait`; nil otherwise, or without
    /// the cascades. A card's portrait lies on its printed face: only the box around the frame's printed regions
    /// (`PrintedRegions`, grown by the smallest face searched) is searched, and a frame with no printed region not at
    /// all (most empty scenes: the search costs 1-5 ms on the detection image). Counted in `largePortraitSearches`.
    func largePortrait(in detection: GrayImage) -> Double? {
        let shortSide = min(detection.width, detection.height)
        let smallest = max(FaceSearch.cascadeWindow, Int((Self.minLargePortrait * Double(shortSide)).rounded(.up)))
        guard smallest <= shortSide else { return nil }
        readPrintedRegions(detection: detection)
        guard let first = printedRegions.regions.first else { return nil }
        var box = (x0: first.x0, y0: first.y0, x1: first.x1, y1: first.y1)
        for region in printedRegions.regions.dropFirst() {
            box = (min(box.x0, region.x0), min(box.y0, region.y0), max(box.x1, region.x1), max(box.y1, region.y1))
        }
        let x0 = max(0, box.x0 - smallest), y0 = max(0, box.y0 - smallest)
        let x1 = min(detection.width, box.x1 + smallest), y1 = min(detection.height, box.y1 + smallest)
        return largestPortrait(on: detection, x0: x0, y0: y0, x1: x1, y1: y1)
    }

    /// The largest face in the rectangle `x0..<x1`, `y0..<y1` of `detection`, as a share of its short side, when it is
    /// at least `minLargePortrait` and at most `maxLargePortrait`; nil otherwise, for a rectangle too small for the
    /// smallest such face, or without the cascades. Every size is searched, at `largePortraitScaleStep`: a person's
    /// face larger than `maxLargePortrait` is also found at smaller windows that still fire on it, so only its largest
    /// size tells it apart. A glare patch passing for a face is no portrait (`isGlare`). Counted in
    /// `largePortraitSearches`. The search behind `largePortrait(in:)` and `largePortrait(around:detection:)`.
    func largestPortrait(on detection: GrayImage, x0: Int, y0: Int, x1: Int, y1: Int) -> Double? {
        let shortSide = min(detection.width, detection.height)
        let smallest = max(FaceSearch.cascadeWindow, Int((Self.minLargePortrait * Double(shortSide)).rounded(.up)))
        guard x1 - x0 >= smallest, y1 - y0 >= smallest, let search = try? loadedFaceSearch() else { return nil }
        largePortraitSearches += 1
        let faces = search.detector.detect(search: detection, eyes: detection,
                                           region: (x: x0, y: y0, width: x1 - x0, height: y1 - y0), minFace: smallest,
                                           scaleStep: Self.largePortraitScaleStep)
        guard let largest = faces.lazy.filter({ !Self.isGlare($0, on: detection, luma: self.thresholds.glareLuma) })
            .map({ Double(max($0.width, $0.height)) }).max() else { return nil }
        let share = largest / Double(shortSide)
        return share >= Self.minLargePortrait && share <= Self.maxLargePortrait ? share : nil
    }
}
