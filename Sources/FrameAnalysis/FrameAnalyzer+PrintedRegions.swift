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
    /// `regionsRead`: whether `printedRegions` already hold this frame's (read here when not, and set).
    func findInPrintedRegions(detection: GrayImage, regionsRead: inout Bool, apartFrom closed: Quadrilateral? = nil,
                              atFrameEdge: Bool = false) -> DocumentFinder.Found? {
        // (The finder's record of what the frame-wide search passed over stays as that search left it.)
        let passedOver = documentFinder.passedOverRepeating
        defer { documentFinder.passedOverRepeating = passedOver }
        if !regionsRead {
            printGradients.compute(detection)
            printedRegions.find(gradients: printGradients, width: detection.width, height: detection.height)
            regionsRead = true
        }
        let acceptance = thresholds.minDocumentConfidence
        let scale = SIMD2(Double(working.width) / Double(detection.width),
                          Double(working.height) / Double(detection.height))
        let cell = PrintedRegions.cell
        var searched = 0
        for region in printedRegions.regions {
            // Beside an outline already accepted, only print lying apart from it (its centre outside it): print inside
            // it is that outline's own.
            if let closed {
                let centre = SIMD2(Double(region.x0 + region.x1), Double(region.y0 + region.y1)) / 2 * scale
                if closed.contains(centre) { continue }
            }
            // Print that reaches the frame's edge is a card the frame cuts, or one larger than the frame: a card's
            // part seen whole in its window would be taken for a small card (MOVE_CLOSER on the tuning sets). Such
            // print is searched only `atFrameEdge`, for an outline the frame's edge closes; other print only for a
            // card seen whole.
            let touchesEdge = region.x0 < cell || region.y0 < cell || region.x1 > detection.width - cell
                || region.y1 > detection.height - cell
            if touchesEdge != atFrameEdge { continue }
            guard searched < (atFrameEdge ? Self.searchedPrintedRegionsAtFrameEdge : Self.searchedPrintedRegions)
            else { break }
            searched += 1
            // The print lies inside the card: the window reaches past it by a share of its size on every side.
            let reach = Self.printedRegionMargin * Double(max(region.x1 - region.x0, region.y1 - region.y0))
            let marginX = max(PrintedRegions.cell, Int(reach)), marginY = marginX
            let x0 = max(0, Int(Double(region.x0 - marginX) * scale.x))
            let y0 = max(0, Int(Double(region.y0 - marginY) * scale.y))
            let x1 = min(working.width, Int(Double(region.x1 + marginX) * scale.x))
            let y1 = min(working.height, Int(Double(region.y1 + marginY) * scale.y))
            guard x1 - x0 >= 48, y1 - y0 >= 48 else { continue }
            regionWorking.crop(from: working, x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            let coarse: GrayImage
            if max(regionWorking.width, regionWorking.height) > Self.maxRegionCoarseSide {
                regionCoarse.downsample2x(from: regionWorking)
                coarse = regionCoarse
            } else {
                coarse = regionWorking
            }
            // The window's own vote first, as the frame's (at half the window's coarse size), then at its coarse
            // size: a small card's sides are a few dozen pixels at half size, too few votes (as in the frame's search at
            // the detection scale).
            for fine in [false, true] {
                guard let found = documentFinder.find(coarse: coarse, working: regionWorking, acceptance: acceptance,
                                                      widerSearchMaxLuma: thresholds.maxBrightness,
                                                      votingAtDetectionScale: fine, inWindow: true),
                      found.confidence >= acceptance,
                      atFrameEdge || (!found.borderClosed && found.quad.longSideHorizontal),
                      found.quad.liesInside(width: regionWorking.width, height: regionWorking.height) else { continue }
                let offset = SIMD2(Double(x0), Double(y0))
                if atFrameEdge {
                    // A card the frame cuts: closed only by the window's edges that are the frame's.
                    let edges = (left: x0 == 0, top: y0 == 0, right: x1 == working.width, bottom: y1 == working.height)
                    let w = Double(regionWorking.width - 1), h = Double(regionWorking.height - 1)
                    var closedByFrame = false, closedInside = false
                    for c in found.quad.corners {
                        let onLeft = c.x <= 1, onTop = c.y <= 1, onRight = c.x >= w - 1, onBottom = c.y >= h - 1
                        if (onLeft && !edges.left) || (onTop && !edges.top) || (onRight && !edges.right)
                            || (onBottom && !edges.bottom) { closedInside = true }
                        if onLeft || onTop || onRight || onBottom { closedByFrame = true }
                    }
                    guard closedByFrame, !closedInside else { continue }
                }
                // The print lies on the card: an outline that leaves most of it out is a part of the print (a
                // photo's detail, a panel), not the card.
                guard printedRegions.printedShare(of: region, inside: found.quad, scale: scale, offset: offset)
                        >= minPrintedShareInside else { continue }
                return DocumentFinder.Found(quad: Quadrilateral(corners: found.quad.corners.map { $0 + offset }),
                                            confidence: found.confidence)
            }
        }
        return nil
    }

    /// Whether `quad` has a whole card's shape seen nearly square-on (within `IDCard.squareOnSkew` of square, between
    /// `IDCard.squarestQuadAspect` and `IDCard.longestSquareOnWholeAspect` long).
    static func wholeCardSeenSquareOn(_ quad: Quadrilateral) -> Bool {
        quad.skewDegrees <= IDCard.squareOnSkew && quad.aspect >= IDCard.squarestQuadAspect
            && quad.aspect <= IDCard.longestSquareOnWholeAspect
    }

    /// The printed regions searched after nothing was found (the largest ones), how far the window reaches past each
    /// (a share of its size on every side), and the longest side a window is searched at without halving it.
    static let searchedPrintedRegions = 2
    static let searchedPrintedRegionsAtFrameEdge = 1
    static let printedRegionMargin = 0.25
    static let maxRegionCoarseSide = 360
}
