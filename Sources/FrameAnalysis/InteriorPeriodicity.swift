// A keypad, a keyboard, window panes, blinds or a striped desk can close a straight outline around a busy inside, as
// a card does. What gives them away is that their inside repeats: keys, bars, stripes at one pitch. An ID card's face
// does not repeat along its long sides: its fields differ in size and length, its photo and chip are one each, and
// its fine print (text strokes, guilloche, MRZ characters) repeats only at a millimetre or so, below the pitch looked
// at here. Across its long sides its text lines do repeat, but over part of the card and at an uneven pitch. So the
// inside of a candidate outline is resampled on a small grid along its sides, and its autocorrelation along each side
// is read: a repeating inside correlates again with itself at a lag of several cells after falling away
// (`revival`), a card's does not, or only weakly across its lines.
//
// Measured (docs/capture.md, "Repeating insides"): over the outlines of ten camsim and framegen sets' answers that
// were right and lay on the card, at most 0.09 along the long sides and 0.53 across them (the text blocks of cards
// cut off by the frame); keypads and keyboards taken for cards 0.31–0.86 along their long sides, striped-desk outlines
// 0.96–1.39 across.

/// Reads how strongly a quadrilateral's inside repeats along its sides. Holds its scratch buffers (no allocation per
/// frame once they have grown).
final class InteriorPeriodicity {
    /// Resampled cells along the quad's long sides and along its short ones.
    static let columns = 64, rows = 40, cellCount = columns * rows
    /// The smallest lag (cells) at which a revival counts: repeats finer than this are print, not keys or stripes.
    static let minLag = 4
    /// A revival counts only where the autocorrelation is back above this.
    static let minRevivedCorrelation: Float = 0.2
    /// The largest revivals a card's inside may have along its long sides and along its short sides.
    static let maxAlongLong: Float = 0.3
    static let maxAlongShort: Float = 0.7

    /// With cells outside the image left out (`readsOnlyTheFrame`), the least share of a lag's pairs of cells that
    /// must both lie inside it for the lag to be read (the quad's inside is read only when over half its cells do).
    static let minPairsInside = 0.5

    /// Whether the test every answer meets last (`repeatsAlongLongSides`) leaves the grid's cells outside the image
    /// out (true), or reads them as the nearest edge pixel, as the quad search's test (`repeats`) still does. Read
    /// so, an outline that runs out of the frame fills its outside part with copies of the frame's edge: a keyboard
    /// the frame cuts got a band whose contrast outweighed its keys' repeat (portrait 82 `no_document_0023`: 0.27
    /// along its long sides read so, 0.36 inside the frame), and a card running out of the frame got the edge of its
    /// print copied into a repeat (camsim 121 `cut_off_0008`: 0.37, refused; 0 inside the frame). Always on; tests
    /// turn it off to show the frames it decides.
    var readsOnlyTheFrame = true

    /// The grid's cells, their values less their line's mean, and 1 for a cell inside the image, 0 outside (written
    /// only for `onlyInside`, read only when some cell is outside): fixed-size buffers for the analyzer's life.
    private let cells = UnsafeMutablePointer<Float>.allocate(capacity: InteriorPeriodicity.cellCount)
    private let centred = UnsafeMutablePointer<Float>.allocate(capacity: InteriorPeriodicity.cellCount)
    private let inside = UnsafeMutablePointer<Float>.allocate(capacity: InteriorPeriodicity.cellCount)

    deinit {
        cells.deallocate()
        centred.deallocate()
        inside.deallocate()
    }

    /// The revivals of the quad's inside (shrunk to 86 % about its centre, sampled at the nearest pixel of `image`)
    /// along its long sides and along its short sides; zeros for a quad mostly outside the image.
    func revivals(_ corners: (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>, SIMD2<Double>),
                  in image: GrayImage, onlyInside: Bool = false) -> (alongLong: Float, alongShort: Float) {
        let n = Self.columns, m = Self.rows
        func length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }
        // The long sides first: the grid's `columns` run along them whichever corner the quad starts at.
        let firstIsLong = length(corners.1 - corners.0) + length(corners.2 - corners.3)
            >= length(corners.2 - corners.1) + length(corners.3 - corners.0)
        let q = firstIsLong ? corners : (corners.1, corners.2, corners.3, corners.0)
        let centre = (q.0 + q.1 + q.2 + q.3) / 4
        let c0 = centre + (q.0 - centre) * 0.86, c1 = centre + (q.1 - centre) * 0.86
        let c2 = centre + (q.2 - centre) * 0.86, c3 = centre + (q.3 - centre) * 0.86
        let w = image.width, h = image.height, src = image.base
        var outside = 0
        for j in 0..<m {
            let v = Double(j) / Double(m - 1)
            let left = c0 + (c3 - c0) * v, right = c1 + (c2 - c1) * v
            for i in 0..<n {
                let p = left + (right - left) * (Double(i) / Double(n - 1))
                let px = Int(p.x.rounded()), py = Int(p.y.rounded())
                let x = min(max(px, 0), w - 1), y = min(max(py, 0), h - 1)
                let isInside = x == px && y == py
                if !isInside { outside += 1 }
                if onlyInside { inside[j * n + i] = isInside ? 1 : 0 }
                cells[j * n + i] = Float(src[y * w + x])
            }
        }
        guard 2 * outside < n * m else { return (0, 0) }
        let masked = onlyInside && outside > 0
        // Cells run along the long sides in a row, along the short ones in a column.
        return (revival(count: n, lines: m, position: 1, line: n, masked: masked),
                revival(count: m, lines: n, position: n, line: 1, masked: masked))
    }

    /// Whether the quad's inside repeats as no card's face does: along its long sides past `maxAlongLong` (a card's
    /// fields along a line differ), or along its short sides past `maxAlongShort` (a card's text lines repeat
    /// there, but only over part of it and at uneven pitch).
    func repeats(_ corners: (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>, SIMD2<Double>), in image: GrayImage) -> Bool {
        let (alongLong, alongShort) = revivals(corners, in: image)
        return alongLong >= Self.maxAlongLong || alongShort >= Self.maxAlongShort
    }

    /// Whether the inside repeats along the quad's long sides as no card's does (keys, bars): the test every answer
    /// of the document search meets last (`FrameAnalyzer.locateDocument`). Across the long sides a card's text lines
    /// can read up to 0.78 (a cut-off card's text block), so only the long sides are read there.
    func repeatsAlongLongSides(_ quad: Quadrilateral, in image: GrayImage) -> Bool {
        let c = quad.corners
        let alongLong = revivals((c[0], c[1], c[2], c[3]), in: image, onlyInside: readsOnlyTheFrame).alongLong
        return alongLong >= Self.maxAlongLong
    }

    /// The autocorrelation's largest rise, at a lag of at least `minLag`, above its lowest value at any smaller lag,
    /// where it is back above `minRevivedCorrelation` (0 when it never is): each line (of `count` cells, `position`
    /// apart; lines `line` apart) has its own mean taken off, so a shading across the quad does not count. With
    /// `masked`, only the cells inside the image are read (`inside`): each line's mean is over its own such cells,
    /// and each lag's correlation over the pairs of them; a lag with under `minPairsInside` of its pairs inside ends
    /// the reading.
    private func revival(count: Int, lines: Int, position: Int, line: Int, masked: Bool) -> Float {
        var variance: Float = 0, cellsRead: Float = 0
        for l in 0..<lines {
            var mean: Float = 0, read: Float = 0
            for k in 0..<count {
                let weight = masked ? inside[l * line + k * position] : 1
                mean += cells[l * line + k * position] * weight
                read += weight
            }
            mean /= max(1, read)
            cellsRead += read
            for k in 0..<count {
                let weight = masked ? inside[l * line + k * position] : 1
                let value = (cells[l * line + k * position] - mean) * weight
                centred[l * line + k * position] = value
                variance += value * value
            }
        }
        variance /= max(1, cellsRead)
        guard variance > 1 else { return 0 }
        // The sum over every line of a grid's cells times the cells `lag` further along the line: along rows, each
        // row's run against itself shifted; along columns (`line` is 1), row k against row k + lag, across every
        // column at once.
        func lagged(_ grid: UnsafeMutablePointer<Float>, _ lag: Int) -> Float {
            let g = UnsafePointer(grid)
            var sum: Float = 0
            if position == 1 {
                for l in 0..<lines { sum += Self.dot(g + l * line, g + l * line + lag, count - lag) }
            } else {
                for k in 0..<(count - lag) { sum += Self.dot(g + k * position, g + (k + lag) * position, lines) }
            }
            return sum
        }
        var trough: Float = 1, best: Float = 0
        for lag in 1..<(count / 2) {
            let sum = lagged(centred, lag)
            // (Each lag's pairs of cells inside the image, with `masked`; else all of them.)
            let pairs = masked ? lagged(inside, lag) : Float((count - lag) * lines)
            if masked && Double(pairs) < Self.minPairsInside * Double((count - lag) * lines) { break }
            let correlation = sum / pairs / variance
            trough = min(trough, correlation)
            if lag >= Self.minLag, correlation > Self.minRevivedCorrelation {
                best = max(best, correlation - trough)
            }
        }
        return best
    }

    /// The dot product of two runs of `count` floats, eight lanes at a time.
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ count: Int) -> Float {
        var lanes = SIMD8<Float>(repeating: 0)
        var i = 0
        while i + 8 <= count {
            lanes += UnsafeRawPointer(a + i).loadUnaligned(as: SIMD8<Float>.self)
                * UnsafeRawPointer(b + i).loadUnaligned(as: SIMD8<Float>.self)
            i += 8
        }
        var sum = lanes.sum()
        while i < count {
            sum += a[i] * b[i]
            i += 1
        }
        return sum
    }
}
