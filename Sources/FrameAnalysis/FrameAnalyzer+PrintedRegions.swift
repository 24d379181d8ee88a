// The search in windows around a frame's printed regions (docs/capture.md, "Printed regions"): where the frame-wide
// searches found no card, or settled on an outline closed by a frame border, the card may still be where the frame is
// printed as a card's face is (`PrintedRegions`); searched in a window of its own, its sides are among the window's
// strongest lines.
import Foundation

extension FrameAnalyzer {
    /// The card found in the window around one of the frame's printed regions (the largest first, at most
    /// `searchedPrintedRegions` clear of the frame's edges, or with `atFrameEdge` `searchedPrintedRegionsAtFrameEdge`
    /// reaching them), searched at the working scale, its corners on the working image; nil when no window holds a
    /// card seen whole (`atFrameEdge`: closed only by the frame's edges). `closed`: only print lying apart from it.
    func findInPrintedRegions(detection: GrayImage, apartFrom closed: Quadrilateral? = nil,
                              atFrameEdge: Bool = false, around part: Quadrilateral? = nil) -> DocumentFinder.Found? {
        // (The finder's record of what the frame-wide search passed over stays as that search left it.)
        let passedOver = documentFinder.passedOverRepeating
        defer { documentFinder.passedOverRepeating = passedOver }
        // A window's shape is not the frame's: the finder's portrait-only rules follow the frame's (the camera's
        // field of view).
        documentFinder.window = DocumentFinder.SearchedWindow(frameIsPortrait: working.height > working.width)
        defer { documentFinder.window = nil }
        // (A traced search's steps in a window are named apart and mapped from the window to the frame, below.)
        let traced = documentFinder.trace?.context
        defer { if let traced { documentFinder.trace?.context = traced } }
        documentFinder.trace?.context.prefix = "window."
        readPrintedRegions(detection: detection)
        let acceptance = thresholds.minDocumentConfidence
        let scale = SIMD2(Double(working.width) / Double(detection.width),
                          Double(working.height) / Double(detection.height))
        // A region's centre on the working image.
        func centre(_ region: PrintedRegions.Region) -> SIMD2<Double> {
            SIMD2(Double(region.x0 + region.x1), Double(region.y0 + region.y1)) / 2 * scale
        }
        // With `closed`: the print inside it in all (the boxes of the regions whose centres it holds).
        var printInsideClosed = 0.0
        if let closed, searchesSmallPrintInsideBorderClosed {
            for region in printedRegions.regions where closed.contains(centre(region)) {
                printInsideClosed += Double(region.x1 - region.x0) * scale.x * Double(region.y1 - region.y0) * scale.y
            }
        }
        let frame = (width: working.width, height: working.height)
        // With `part`: its box on the detection image, read once.
        let partBox = part.map { printedRegionsBox(of: $0, detection: detection) }
        var searched = 0
        for region in printedRegions.regions {
            // Beside an outline already accepted, only print lying apart from it (its centre outside it): print inside
            // it is that outline's own.
            // (Unless all the print inside the outline is small beside it: a card's print fills much of the card,
            // so print covering a fraction of the outline is a card lying inside it, a desk's outline around it. The
            // card found there must then be as confident as `find` asks of a card lying inside a border-closed
            // winner: a photo alone in its window also looks like a small card.)
            var insideClosed = false
            if let closed {
                insideClosed = closed.contains(centre(region))
                if insideClosed, !searchesSmallPrintInsideBorderClosed
                    || printInsideClosed >= maxPrintShareOfClosedOutline * closed.area {
                    continue
                }
            }
            // Print that reaches the frame's edge is a card the frame cuts, or one larger than the frame: a card's
            // part seen whole in its window would be taken for a small card (MOVE_CLOSER on the tuning sets). Such
            // print is searched only `atFrameEdge`, for an outline the frame's edge closes; other print only for a
            // card seen whole.
            if region.touchesEdge != atFrameEdge { continue }
            // With `part`: only the print around it (its centre inside the region's box), well larger than it.
            if let partBox, !printedRegion(region, isWellLargerAround: partBox) { continue }
            guard searched < (atFrameEdge ? Self.searchedPrintedRegionsAtFrameEdge : Self.searchedPrintedRegions)
            else { break }
            searched += 1
            // The print lies inside the card: the window reaches past it by a share of its size on every side.
            let reach = Self.printedRegionMargin * Double(max(region.x1 - region.x0, region.y1 - region.y0))
            let margin = max(PrintedRegions.cell, Int(reach))
            var x0 = max(0, Int(Double(region.x0 - margin) * scale.x))
            var y0 = max(0, Int(Double(region.y0 - margin) * scale.y))
            var x1 = min(working.width, Int(Double(region.x1 + margin) * scale.x))
            var y1 = min(working.height, Int(Double(region.y1 + margin) * scale.y))
            // A card turned far from square-on carries its print on a part of its face, and the window around the
            // print can cut the card. Two outlines say so: one that passed every test but runs out of the window
            // (`growsWindowsOverClippedCards`), and one the window's own edge closes where it lies inside the frame
            // (`growsWindowsCutByTheirEdges`: the card's print was a small part of it, its sides run on past the
            // window). Either way the window is grown by half its size on each side the outline reaches, and
            // searched again, at most `maxWindowGrowths` times.
            var inGrownWindow = false
            for growth in 0...Self.maxWindowGrowths {
                guard x1 - x0 >= 48, y1 - y0 >= 48 else { break }
                regionWorking.crop(from: working, x: x0, y: y0, width: x1 - x0, height: y1 - y0)
                printedRegionWindows += 1
                let coarse: GrayImage
                if max(regionWorking.width, regionWorking.height) > Self.maxRegionCoarseSide {
                    regionCoarse.downsample2x(from: regionWorking)
                    coarse = regionCoarse
                } else {
                    coarse = regionWorking
                }
                // The window's sides an outline there says the card runs on past (see above).
                var clipped: WindowSides?
                let window: Window = (x0, y0, x1, y1)
                let offset = SIMD2(Double(x0), Double(y0))
                if let trace = documentFinder.trace, let traced {
                    let toInput = traced.workingToInput.scale
                    let coarseScale = SIMD2(Double(regionWorking.width) / Double(coarse.width),
                                            Double(regionWorking.height) / Double(coarse.height))
                    trace.context.coarseToInput = (coarseScale * toInput, offset * toInput)
                    trace.context.workingToInput = (toInput, offset * toInput)
                }
                // The window's own vote first, as the frame's (at half the window's coarse size), then at its coarse
                // size: a small card's sides are a few dozen pixels at half size, too few votes (as in the frame's
                // search at the detection scale).
                for fine in [false, true] {
                    let searchedHere = documentFinder.find(coarse: coarse, working: regionWorking,
                                                           acceptance: acceptance,
                                                           widerSearchMaxLuma: thresholds.maxBrightness,
                                                           votingAtDetectionScale: fine)
                    // (Not at the frame's edge: there the window's edges inside the frame are searched past already,
                    // an outline the frame cuts is what is looked for.)
                    if growsWindowsCutByTheirEdges, !atFrameEdge, clipped == nil, let cut = searchedHere,
                       cut.borderClosed, cut.confidence >= Self.minWindowCutConfidence,
                       cut.quad.skewDegrees <= maxWindowCutSkew,
                       Self.reachesWindowEdgeInsideFrame(cut.quad, window: window, frame: frame),
                       printedRegions.printedShare(of: region, inside: cut.quad, scale: scale, offset: offset)
                        >= minPrintedShareInside {
                        clipped = Self.sidesReached(by: cut.quad, window: window)
                    }
                    guard let found = searchedHere,
                          found.confidence >= (insideClosed ? minConfidenceInsideBorderClosed : acceptance),
                          atFrameEdge || (!found.borderClosed && documentFinder.heldAcross(found.quad))
                    else { continue }
                    guard found.quad.liesInside(width: regionWorking.width, height: regionWorking.height) else {
                        if growsWindowsOverClippedCards, clipped == nil {
                            clipped = Self.sidesReached(by: found.quad, window: window)
                        }
                        continue
                    }
                    if atFrameEdge, !Self.closedOnlyByFrameEdges(found.quad, window: window, frame: frame) { continue }
                    // The print lies on the card: an outline that leaves most of it out is a part of the print (a
                    // photo's detail, a panel), not the card.
                    guard printedRegions.printedShare(of: region, inside: found.quad, scale: scale, offset: offset)
                            >= minPrintedShareInside else { continue }
                    let card = Quadrilateral(corners: found.quad.corners.mapValues { $0 + offset })
                    // In a window grown past a cut, turned beyond `maxSkew`: as confident as a card turned beside a
                    // border-closed outline must be. The grown window holds more of the scene, and an outline assembled
                    // from a textured scene's lines there is often far turned (framegen's wavy desk gave one at 0.70).
                    if inGrownWindow, found.quad.skewDegrees > thresholds.maxSkew,
                       found.confidence < minConfidenceTurnedBesideBorderClosed { continue }
                    // Around a small answer: the card holds it (its box's centre), and is larger.
                    if let part, let partBox, !card.contains(partBox.centre * scale)
                        || card.area < Self.minPrintOverSmallAnswer * part.area { continue }
                    return DocumentFinder.Found(quad: card, confidence: found.confidence)
                }
                guard growth < Self.maxWindowGrowths, !atFrameEdge, let clipped,
                      let grown = Self.grown(window, toward: clipped, frame: frame) else { break }
                (x0, y0, x1, y1) = grown
                inGrownWindow = true
            }
        }
        return nil
    }

    /// Reads this frame's printed regions on `detection` into `printedRegions`, once a frame: the searches around
    /// them and the part-of-a-cut-card rule (`printAtFrameEdge(around:)`) share one reading.
    func readPrintedRegions(detection: GrayImage) {
        guard !printedRegionsRead else { return }
        printGradients.compute(detection)
        printedRegions.find(gradients: printGradients, width: detection.width, height: detection.height)
        printedRegionsRead = true
    }

    /// A window on the working image: `x0..<x1` × `y0..<y1`.
    typealias Window = (x0: Int, y0: Int, x1: Int, y1: Int)

    /// Sides of a window.
    struct WindowSides: Equatable {
        var left = false, top = false, right = false, bottom = false
        var any: Bool { left || top || right || bottom }

        /// Those of these sides that lie inside a `frame`-sized image: the window's own edges, not the frame's.
        func insideFrame(_ window: Window, frame: (width: Int, height: Int)) -> WindowSides {
            WindowSides(left: left && window.x0 > 0, top: top && window.y0 > 0,
                        right: right && window.x1 < frame.width, bottom: bottom && window.y1 < frame.height)
        }
    }

    /// The sides of `window` that a corner of `quad` (window pixels) lies on (within a pixel) or past.
    static func sidesReached(by quad: Quadrilateral, window: Window) -> WindowSides {
        let right = Double(window.x1 - window.x0 - 1), bottom = Double(window.y1 - window.y0 - 1)
        var sides = WindowSides()
        for c in quad.corners {
            if c.x <= 1 { sides.left = true }
            if c.y <= 1 { sides.top = true }
            if c.x >= right - 1 { sides.right = true }
            if c.y >= bottom - 1 { sides.bottom = true }
        }
        return sides
    }

    /// Whether `quad` (pixels of `window` of a `frame`-sized image) is a card the frame cuts: a corner on at least one
    /// of the window's edges, and on none that lies inside the frame (a window's own edge closing it would be no edge
    /// of the card's).
    static func closedOnlyByFrameEdges(_ quad: Quadrilateral, window: Window,
                                       frame: (width: Int, height: Int)) -> Bool {
        let reached = sidesReached(by: quad, window: window)
        return reached.any && !reached.insideFrame(window, frame: frame).any
    }

    /// Whether a corner of `quad` (pixels of `window` of a `frame`-sized image) lies on (or past) an edge of the window
    /// that lies inside the frame.
    static func reachesWindowEdgeInsideFrame(_ quad: Quadrilateral, window: Window,
                                             frame: (width: Int, height: Int)) -> Bool {
        sidesReached(by: quad, window: window).insideFrame(window, frame: frame).any
    }

    /// `window` grown by half its width (height) on each of `sides` that lies inside the frame, within the frame; nil
    /// when it cannot grow.
    static func grown(_ window: Window, toward sides: WindowSides, frame: (width: Int, height: Int)) -> Window? {
        let inside = sides.insideFrame(window, frame: frame)
        guard inside.any else { return nil }
        let gx = (window.x1 - window.x0) / 2, gy = (window.y1 - window.y0) / 2
        return (inside.left ? max(0, window.x0 - gx) : window.x0, inside.top ? max(0, window.y0 - gy) : window.y0,
                inside.right ? min(frame.width, window.x1 + gx) : window.x1,
                inside.bottom ? min(frame.height, window.y1 + gy) : window.y1)
    }

    /// How many times a window that cuts a card is grown (`grown`), and the confidence from which an outline closed
    /// by the window's own edge inside the frame says it cuts one (`growsWindowsCutByTheirEdges`).
    static let maxWindowGrowths = 2
    static let minWindowCutConfidence = 0.5

    /// The printed regions searched after nothing was found (the largest ones), how far the window reaches past each
    /// (a share of its size on every side), and the longest side a window is searched at without halving it.
    static let searchedPrintedRegions = 2
    static let searchedPrintedRegionsAtFrameEdge = 1
    static let printedRegionMargin = 0.25
    /// How much larger than a small answer the print around it must be (boxes), and the card found in the window
    /// around that print (areas), for the card to be searched for and taken there (`searchesPrintAroundSmallAnswers`).
    static let minPrintOverSmallAnswer = 1.5
    static let maxRegionCoarseSide = 360
}
