// Which side of a too-long outline its missing band lies on, read from the print beyond each long side.

/// A quad seen square-on but longer than a whole card lacks a band along one long side: a header or MRZ band the
/// shade of the background, whose outer edge the finder did not see (`FrameAnalyzer`'s square-on band rule). The band
/// carries print (a header's title, the MRZ's characters); the background beyond the other long side, where no band
/// is, carries none. This reads the share of edge points in the strip the band would fill beyond each long side
/// (the placement `margins` gives, which `FrameAnalyzer.hiddenPartMargin` takes for a band too), on a grid of every `spacing` pixels, away
/// from the side by `sideGap` of the strip's depth (the side's own edge); a point is an edge point when the sum of
/// its central differences across x and y is at least `edgeStep` levels. Allocation-free.
enum MissingBandPrint {
    static let spacing = 2
    static let sideGap = 0.15
    static let edgeStep = 24
    /// A strip with at least this share of edge points holds print; one with at most `maxPlain` holds none.
    static let minPrint = 0.05
    static let maxPlain = 0.015
    /// The plain strip must have this share of its points inside the image to be read as plain.
    static let minReadShare = 0.5

    /// How deep the narrowest band that can be missing from a quad `aspect` long is, as a share of its short sides:
    /// ID-1 is the longest identity document, so it gives the narrowest band.
    static func growth(aspect: Double) -> Double { aspect / IDCard.aspect - 1 }

    /// The long side beyond which the band lies (0: the side `strips` reads first, 1: the other) and its strip's
    /// share of edge points, when one strip holds print and the other, read over at least `minReadShare` of it,
    /// none; nil when the print does not tell.
    static func printedSide(_ image: GrayImage, corners: QuadCorners,
                            growth: Double) -> (side: Int, print: Double)? {
        guard let (first, second) = strips(image, corners: corners, growth: growth) else { return nil }
        func plain(_ s: Strip) -> Bool { s.readShare >= minReadShare && s.print <= maxPlain }
        if first.print >= minPrint && plain(second) { return (0, first.print) }
        if second.print >= minPrint && plain(first) { return (1, second.print) }
        return nil
    }

    /// The corners of the two long sides of `c`, each side's first and second with the opposite side's corners
    /// across the short sides from them: sides 0-1 and 3-2 when sides 0 and 2 are the longer pair, else 1-2 and 0-3.
    static func longSides(_ c: QuadCorners) -> (a0: Int, a1: Int, b0: Int, b1: Int) {
        let (even, odd) = Quadrilateral.meanOppositeSides(c)
        return even >= odd ? (0, 1, 3, 2) : (1, 2, 0, 3)
    }

    struct Strip {
        /// Share of the strip's grid points inside the image, and of those, the share that are edge points.
        var readShare: Double
        var print: Double
    }

    /// The strips beyond the two long sides of `corners` (in order around the quad, in `image` pixels), each as deep
    /// as `growth` times the short sides: beyond the side from corner 0 (or 1) first, the opposite second.
    static func strips(_ image: GrayImage, corners c: QuadCorners, growth: Double) -> (Strip, Strip)? {
        // Each strip grows from a long side away from the opposite one, along the short sides.
        let (a0, a1, b0, b1) = longSides(c)
        let first = strip(image, side: (c[a0], c[a1]), opposite: (c[b0], c[b1]), growth: growth)
        let second = strip(image, side: (c[b0], c[b1]), opposite: (c[a0], c[a1]), growth: growth)
        return (first, second)
    }

    /// The strip beyond `side` (from its first corner to its second), away from `opposite` (the corresponding corners
    /// of the opposite side), `growth` times the short sides deep.
    static func strip(_ image: GrayImage, side: (SIMD2<Double>, SIMD2<Double>),
                      opposite: (SIMD2<Double>, SIMD2<Double>), growth: Double) -> Strip {
        // Points p(u, v) = side point at u, moved beyond it by v (0…1 of the strip's depth) along its short side.
        let out0 = (side.0 - opposite.0) * growth, out1 = (side.1 - opposite.1) * growth
        let along = side.1 - side.0
        let length = (along * along).sum().squareRoot()
        let depth = max((out0 * out0).sum().squareRoot(), (out1 * out1).sum().squareRoot())
        // (A quad no larger than the image it was found on: anything else, or not finite, has nothing to read.)
        let limit = Double(image.width + image.height)
        guard length.isFinite, depth.isFinite, length <= 2 * limit, depth <= 2 * limit else {
            return Strip(readShare: 0, print: 0)
        }
        let columns = max(1, Int(length) / spacing), rows = max(1, Int(depth) / spacing)
        let w = image.width, h = image.height, base = image.base
        var total = 0, inside = 0, edges = 0
        for r in 0..<rows {
            let v = sideGap + (1 - sideGap) * (Double(r) + 0.5) / Double(rows)
            for k in 0..<columns {
                let u = (Double(k) + 0.5) / Double(columns)
                let p = side.0 + along * u + (out0 * (1 - u) + out1 * u) * v
                total += 1
                let x = Int(p.x), y = Int(p.y)
                guard x >= 1, y >= 1, x < w - 1, y < h - 1 else { continue }
                inside += 1
                let row = base + y * w + x
                let dx = abs(Int(row[1]) - Int(row[-1])), dy = abs(Int(row[w]) - Int(row[-w]))
                if dx + dy >= edgeStep { edges += 1 }
            }
        }
        return Strip(readShare: Double(inside) / Double(max(total, 1)),
                     print: inside > 0 ? Double(edges) / Double(inside) : 0)
    }

    /// How far inside a `width` × `height` frame the band's outer corners lie (pixels; negative outside) when it is
    /// beyond each long side of `corners`, in the order of `strips`.
    static func margins(_ c: QuadCorners, growth: Double, width: Int, height: Int) -> (Double, Double) {
        let (a0, a1, b0, b1) = longSides(c)
        func margin(_ corner: Int, from opposite: Int) -> Double {
            let p = c[corner] + (c[corner] - c[opposite]) * growth
            return min(p.x, p.y, Double(width - 1) - p.x, Double(height - 1) - p.y)
        }
        return (min(margin(a0, from: b0), margin(a1, from: b1)), min(margin(b0, from: a0), margin(b1, from: a1)))
    }
}
