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
}
