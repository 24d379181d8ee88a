// A cut card's portrait in print that reaches the frame's edge, where no card's outline was found: the card runs out
// of the frame (docs/capture.md, "Feedback codes", "A portrait in print at the frame's edge").
//
// A card the frame cuts shows three sides at most, and a hand holds it by the end in view: the thumb covers one side,
// and no outline of it passes the quad search's gates (the weak-side rule asks the other sides for 0.85, a side
// meeting the frame's border for 0.7). The frame was told NO_DOCUMENT, which sends the user looking for a card they
// are holding up to the camera. A face found in a document frame is a document's portrait (`largePortrait(in:)`),
// and print around it that runs out of the frame is the card running out with it: CUT_OFF. A portrait of
// `minLargePortrait` or more is left to the too-close rule, which answers it first where it finds it; one over
// `maxLargePortrait` is a person's. (How large the card is cannot be read from its portrait's size: the share of the
// card's height a portrait takes depends on the document's design, 0.19 on camsim's cards, 0.3 on real ID-1 cards.
// CUT_OFF is true of every card whose print runs out of the frame.)
import Foundation

extension FrameAnalyzer {
    /// The least face, as a share of the frame's short side, taken for a cut card's portrait. A card at the least fill
    /// that is not MOVE_CLOSER (`minFill`, 0.42 of a landscape frame's height) shows a face of about 0.08 on camsim's
    /// cards. On working images of 360-405 px short side the cascade's 24 px window is nearly this bar: 0.055
    /// changed no frame.
    static let minCutCardPortrait = 0.07
    /// The ratio between the face sizes this search tries: finer than the too-close searches' (1.2), as its faces lie
    /// near the cascade's window. At 1.2 it missed two cut cards' portraits of 0.08 (camsim small 156 `cut_off_0001`,
    /// fresh portrait 188 `cut_off_0000`) that 1.1 finds.
    static let cutCardPortraitScaleStep = 1.1

    /// The largest face in the print reaching the frame's edge (`PrintedRegions`, the largest
    /// `searchedPrintedRegionsAtFrameEdge` such regions, each box grown by the smallest face searched), as a share of
    /// the working image's short side, when it is at least `minCutCardPortrait` and under `minLargePortrait`; nil
    /// otherwise. Searched on the working image: at the detection scale such a face is under the cascade's window.
    /// (`analyzeDocument` asks only where the searches scored some outline, below the bar: the search costs up to
    /// 24 ms on a large region, and a scene where nothing was outlined is no cut card's held by a thumb.)
    func portraitInPrintAtFrameEdge(detection: GrayImage) -> Double? {
        readPrintedRegions(detection: detection)
        let shortSide = min(working.width, working.height)
        let smallest = max(FaceSearch.cascadeWindow, Int((Self.minCutCardPortrait * Double(shortSide)).rounded(.up)))
        let scale = SIMD2(Double(working.width) / Double(detection.width),
                          Double(working.height) / Double(detection.height))
        var best: Double?
        for region in printedRegions.regions.lazy.filter(\.touchesEdge).prefix(Self.searchedPrintedRegionsAtFrameEdge) {
            let x0 = max(0, Int(Double(region.x0) * scale.x) - smallest)
            let y0 = max(0, Int(Double(region.y0) * scale.y) - smallest)
            let x1 = min(working.width, Int(Double(region.x1) * scale.x) + smallest)
            let y1 = min(working.height, Int(Double(region.y1) * scale.y) + smallest)
            if let share = largestPortrait(on: working, x0: x0, y0: y0, x1: x1, y1: y1,
                                           atLeast: Self.minCutCardPortrait,
                                           scaleStep: Self.cutCardPortraitScaleStep) {
                best = max(best ?? share, share)
            }
        }
        guard let best, best < Self.minLargePortrait else { return nil }
        return best
    }
}
