// Where in a frame something is printed as an identity document's face is (docs/capture.md, "Printed regions").
//
// The document search starts from a frame-wide line vote, and its budget is where a card is lost first: a small card's
// sides are a few dozen pixels long, and a striped desk, a keyboard or a grained wood draws longer, stronger lines that
// crowd them out. A card's print is another matter: text strokes, a photo, guilloche and an MRZ make edges dense and
// turned every way, while the textures that crowd the vote are either sparse (a plain wall, a soft room) or turned one
// way (stripes, grain, brushed metal, fabric weave seen at a slant). So the detection image is read in cells: a cell
// is printed when many of its pixels are edges and their directions are spread (the structure tensor's coherence is
// low). Printed cells next to one another are one region, and each region is a place where a card may lie whose
// outline the frame-wide search missed; `FrameAnalyzer` searches the window around it on its own.
//
// One instance per analyzer, reused from frame to frame: its cell sums and labels live in buffers that grow only when
// a frame has more cells than any before.

/// Printed regions of an image, from its Sobel gradients.
final class PrintedRegions {
    /// A region: its bounding box in image pixels (x0, y0 inclusive; x1, y1 exclusive), its printed cells, its label
    /// (in `find`'s cell map), and whether it reaches within a cell of the image's edge (print running out of the
    /// frame: a card the frame cuts, or one larger than it).
    typealias Region = (x0: Int, y0: Int, x1: Int, y1: Int, printedCells: Int, label: Int32, touchesEdge: Bool)

    /// Whether `region`'s box, grown by `margin` pixels on every side, holds `point` (image pixels, edges included).
    static func box(of region: Region, holds point: SIMD2<Double>, margin: Double = 0) -> Bool {
        Double(region.x0) - margin <= point.x && point.x <= Double(region.x1) + margin
            && Double(region.y0) - margin <= point.y && point.y <= Double(region.y1) + margin
    }

    /// The area of `region`'s box (image pixels²).
    static func boxArea(of region: Region) -> Double { Double((region.x1 - region.x0) * (region.y1 - region.y0)) }

    /// The bounding box of `quad` scaled by `scale` onto the regions' image: its centre and area (pixels²).
    static func box(of quad: Quadrilateral, scaledBy scale: SIMD2<Double>) -> (centre: SIMD2<Double>, area: Double) {
        // (Read without building arrays.)
        let c = quad.corners
        let xs = SIMD4(c[0].x, c[1].x, c[2].x, c[3].x) * scale.x, ys = SIMD4(c[0].y, c[1].y, c[2].y, c[3].y) * scale.y
        let (x0, x1, y0, y1) = (xs.min(), xs.max(), ys.min(), ys.max())
        return (SIMD2((x0 + x1) / 2, (y0 + y1) / 2), (x1 - x0) * (y1 - y0))
    }

    /// Cell side (pixels of the detection image, ~320 px long): a card's text line is 2-4 px there, so a cell of a
    /// card's face holds a few strokes.
    static let cell = 8
    /// |gx| + |gy| from which a pixel is an edge: a print stroke's, not sensor noise's or a shading's.
    static let edgeMagnitude = 72
    /// Share of a cell's pixels that must be edges for it to be printed.
    static let minEdgeDensity = 0.25
    /// The structure tensor's coherence ((λ1 − λ2) / (λ1 + λ2), 0 for directions spread evenly, 1 for one direction)
    /// below which a cell's edges are turned every way: print, not stripes or grain.
    static let maxCoherence = 0.55
    /// Printed cells a region needs (4 cells: 16 × 16 px at the detection scale, a card's photo at the least).
    static let minPrintedCells = 4

    private var printed: [Bool] = []
    private var columns = 0
    private var label: [Int32] = []
    private var stack: [Int32] = []
    private(set) var regions: [Region] = []

    init() {
        stack.reserveCapacity(256)
        regions.reserveCapacity(8)
    }

    /// Finds the printed regions of a `width` × `height` image whose gradients `gradients` hold, largest first (by
    /// printed cells), into `regions`. Printed cells up to three cells apart are one region (a card's text lines and photo
    /// are separated by plain margins a few pixels wide; two empty cells between printed ones still join them).
    func find(gradients: SobelGradients, width w: Int, height h: Int) {
        regions.removeAll(keepingCapacity: true)
        let cell = Self.cell
        let columns = w / cell, rows = h / cell
        self.columns = columns
        guard columns >= 2, rows >= 2 else { return }
        let count = columns * rows
        if printed.count < count {
            printed = [Bool](repeating: false, count: count)
            label = [Int32](repeating: 0, count: count)
        }
        let gx = gradients.gx.baseAddress!, gy = gradients.gy.baseAddress!, magnitude = gradients.magnitude.baseAddress!
        let edge = UInt16(Self.edgeMagnitude)
        let minEdges = Int(Self.minEdgeDensity * Double(cell * cell))
        for row in 0..<rows {
            for column in 0..<columns {
                var xx = 0, yy = 0, xy = 0, edges = 0
                // The image's outermost pixels have no gradient (the Sobel leaves them 0): those cells read less.
                for y in (row * cell)..<(row * cell + cell) {
                    let offset = y * w + column * cell
                    for i in offset..<(offset + cell) where magnitude[i] >= edge {
                        let x = Int(gx[i]), yv = Int(gy[i])
                        xx += x * x
                        yy += yv * yv
                        xy += x * yv
                        edges += 1
                    }
                }
                var isPrinted = false
                if edges >= minEdges {
                    let a = Double(xx), c = Double(yy), b = Double(xy)
                    let coherence = ((a - c) * (a - c) + 4 * b * b).squareRoot() / max(1, a + c)
                    isPrinted = coherence < Self.maxCoherence
                }
                printed[row * columns + column] = isPrinted
                label[row * columns + column] = 0
            }
        }
        // Regions: printed cells joined to every printed cell within three cells of them (two empty cells between).
        var next: Int32 = 0
        for start in 0..<count where printed[start] && label[start] == 0 {
            next += 1
            label[start] = next
            stack.removeAll(keepingCapacity: true)
            stack.append(Int32(start))
            var region: Region = (w, h, 0, 0, 0, next, false)
            while let top = stack.popLast() {
                let index = Int(top), row = index / columns, column = index % columns
                region.printedCells += 1
                region.x0 = min(region.x0, column * cell)
                region.y0 = min(region.y0, row * cell)
                region.x1 = max(region.x1, column * cell + cell)
                region.y1 = max(region.y1, row * cell + cell)
                for dy in -3...3 {
                    let r = row + dy
                    guard r >= 0, r < rows else { continue }
                    for dx in -3...3 {
                        let c = column + dx
                        guard c >= 0, c < columns else { continue }
                        let neighbour = r * columns + c
                        if printed[neighbour] && label[neighbour] == 0 {
                            label[neighbour] = next
                            stack.append(Int32(neighbour))
                        }
                    }
                }
            }
            region.touchesEdge = region.x0 < cell || region.y0 < cell || region.x1 > w - cell || region.y1 > h - cell
            if region.printedCells >= Self.minPrintedCells { regions.append(region) }
        }
        regions.sort { $0.printedCells > $1.printedCells }
    }

    /// The share of `region`'s printed cells (of the last `find`) whose centres lie inside `quad`, given in image
    /// pixels scaled by `scale` (the working image's size over the searched image's) and moved by `offset`.
    func printedShare(of region: Region, inside quad: Quadrilateral, scale: SIMD2<Double>,
                      offset: SIMD2<Double>) -> Double {
        let cell = Self.cell
        let onImage = Quadrilateral(corners: quad.corners.mapValues { ($0 + offset) / scale })
        guard onImage.corners.count == 4 else { return 0 }
        var inCount = 0, total = 0
        for row in (region.y0 / cell)..<(region.y1 / cell) {
            for column in (region.x0 / cell)..<(region.x1 / cell) where label[row * columns + column] == region.label
                && printed[row * columns + column] {
                total += 1
                let centre = SIMD2(Double(column * cell + cell / 2), Double(row * cell + cell / 2))
                if onImage.contains(centre) { inCount += 1 }
            }
        }
        return total > 0 ? Double(inCount) / Double(total) : 0
    }
}
