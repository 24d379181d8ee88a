// A small outline inside print that runs out of the frame: a part of a card the frame cuts (docs/capture.md,
// "Feedback codes", "A part of a cut card taken for a small card").
//
// When the frame cuts a card, its own outline is closed by the frame's edge and the hand holding it, and it can lose
// to a smaller outline seen whole on its face: the holder's photo, a printed panel, the photo and the text beside it
// closed by a print line. That outline is small, and the answer was MOVE_CLOSER, although the card is as close as a
// card the user holds can be, and what must change is where it is. A card's print lies all over its face
// (`PrintedRegions`), so such a part lies inside a printed region that runs on past it to the frame's edge. A small
// card seen whole has its print ending with it, or, beside a keyboard or a printed page, joined to print far larger
// than itself.
import Foundation

extension FrameAnalyzer {
    /// The most the box of the printed region around a small outline may cover, as a multiple of the outline's own
    /// box, for the outline to be a part of the card that print is: the visible part of a cut card, around its photo
    /// or a panel of its face. On the 47 tuning sets (session 39) the cut cards answered MOVE_CLOSER on such a part
    /// read 1.1-3.2 (all but two of them at most 2.6), the small cards seen whole beside a keyboard, whose print the
    /// keyboard's joins, 4.2-16.
    static let maxCutCardPrintOverPart = 3.0

    /// The least share of a cut card's part in view its print's box is taken to cover, for the largest card that
    /// print allows (`judgesCutPartsAtTheLargestTheirPrintAllows`). On 44 cut cards of the tuning, held-out and fresh
    /// camsim sets whose part rule ran (session 44), the box of the print around the part read 0.28-1.28 of the true
    /// part in view, 0.6 or more on 36 (over 1 where the print joins a scene's); their print itself 0.05-0.34 of the
    /// largest card, and 0.52-0.74 on the five cards held too close answered CUT_OFF on a part of their face.
    static let leastPrintShareOfCutPart = 0.6

    /// The box of the least printed region reaching the frame's edge that holds `quad` (working pixels; the region's
    /// box holds the centre of `quad`'s box, `printedBox(of:holds:)`), and `quad`'s own box, both in detection
    /// pixels², or nil when no region reaching the edge holds it. Their ratio at most `maxCutCardPrintOverPart`, the
    /// outline is a part of a card the frame cuts. Reads the frame's printed regions on `detection` unless a window
    /// search already did this frame (one cell pass; asked only of small answers).
    func printAtFrameEdge(around quad: Quadrilateral, detection: GrayImage) -> (region: Double, part: Double)? {
        readPrintedRegions(detection: detection)
        let part = printedRegionsBox(of: quad, detection: detection)
        guard part.area > 0 else { return nil }
        var least: Double?
        for region in printedRegions.regions
        where region.touchesEdge && printedBox(of: region, holds: part.centre) {
            let area = PrintedRegions.boxArea(of: region)
            least = min(least ?? area, area)
        }
        return least.map { ($0, part.area) }
    }

    /// Whether `region`'s box holds `point` (detection pixels) within `printedBoxTolerance` cells: the box is read in
    /// `PrintedRegions.cell` cells, so it is known to a cell only. Every rule that asks whether print lies around an
    /// answer asks it so.
    func printedBox(of region: PrintedRegions.Region, holds point: SIMD2<Double>) -> Bool {
        PrintedRegions.box(of: region, holds: point, margin: printedBoxTolerance * Double(PrintedRegions.cell))
    }

    /// The box of `quad` (working pixels) on `detection`, where the printed regions are read: its centre and area
    /// (pixels²). How an answer is set against the print around it.
    func printedRegionsBox(of quad: Quadrilateral, detection: GrayImage) -> (centre: SIMD2<Double>, area: Double) {
        PrintedRegions.box(of: quad, scaledBy: SIMD2(Double(detection.width) / Double(working.width),
                                                     Double(detection.height) / Double(working.height)))
    }

    /// Whether `region` is print around the small answer whose box (detection pixels) is `part`: its box holds the
    /// part's centre and is at least `minPrintOverSmallAnswer` times the part's, a card's print running on past its
    /// part. What the search around small answers and the portrait around them ask of the print.
    func printedRegion(_ region: PrintedRegions.Region,
                       isWellLargerAround part: (centre: SIMD2<Double>, area: Double)) -> Bool {
        printedBox(of: region, holds: part.centre)
            && PrintedRegions.boxArea(of: region) >= Self.minPrintOverSmallAnswer * part.area
    }
}
