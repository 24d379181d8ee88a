// DocumentFinder in a stream: the card the previous frame found, found again where it was (docs/capture.md,
// "Streams").
//
// Between two frames of a capture stream a held card moves a few pixels: its sides are still near the previous
// frame's sides, and nothing else in the frame needs looking at. Instead of the frame-wide vote and the quad search
// over its strongest lines, each previous side's band is searched for lines of about that side's direction (the
// fourth-side search's `BandLineSearch`), and the quads those lines make are scored exactly as `find` scores its
// own (`bestQuad`: support, shape, corner ends, printed inside). The card is taken only when that outline is
// accepted, seen whole and near the previous one; otherwise the frame gets the full search. A tracked outline meets
// the same acceptance as `find`'s winner but is chosen among fewer lines, so it can differ from the one `find` would
// choose (measured: the same feedback on every frame of eight sets in a still stream); that is why the frame that may
// be captured is always searched whole (`CaptureTracker.hint`).
import Foundation

extension DocumentFinder {
    /// How far each side of the card may move between two frames of a stream and still be found around the previous
    /// one, as a share of the coarse image's short side (6 px at 320 × 180, about 2 % of the frame's diagonal: a
    /// hand holding a card at 30 frames/s moves it less). A card that moved further gets the full search.
    static let trackingReach = 0.035
    /// Lines taken from each side's band: the card's edge and, where the print runs close and parallel to it (a
    /// text row, the photo's edge), that line too, so the quad search chooses between them as `find` would.
    static let trackedLinesPerSide = 2

    /// The card whose outline in the previous frame was `previous` (corners on `coarse`, clockwise from top-left),
    /// found again around it and refined on `working`; nil when it is not there with at least `acceptance`
    /// confidence, seen whole, each corner within `trackingReach` of its previous place (the caller then runs
    /// `find`). A previous outline closed by a frame border is not tracked: a cut-off card is about to move.
    /// `gradientsComputed` is set when it computed `coarseGradients` for `coarse` (the full search can reuse them).
    /// `completingBand`: the outline found is completed with a band whose edge it lacks, as `find` completes the
    /// outline it settles on (`completeBand`), unless the band would take it out of the frame (then it is returned
    /// as found); for an outline guessed from a finding, not for a stream's frame. `reachShare`: how far each side
    /// may lie from the guessed one (and each corner from its guessed place), as a share of the coarse image's short
    /// side; a stream's frame keeps `trackingReach`, an outline guessed from a finding may need more.
    /// `readsRepeats` false: the quad search does not read its candidates for a repeating inside
    /// (`bestQuad(readsRepeats:)`). For a stream's frame, whose previous outline was an answer that met that test
    /// (see `FrameAnalyzer.tracksWithoutRepeatTest`).
    func track(_ previous: Quadrilateral, coarse: GrayImage, working: GrayImage, acceptance: Double,
               gradientsComputed: inout Bool, completingBand: Bool = false,
               reachShare: Double = DocumentFinder.trackingReach, readsRepeats: Bool = true) -> Found? {
        let w = coarse.width, h = coarse.height
        guard w >= 16, h >= 16 else { return nil }
        let reach = max(3, reachShare * Double(min(w, h)))
        let corners = previous.corners
        guard corners.allSatisfy({ p in
            p.x >= reach && p.y >= reach && p.x <= Double(w - 1) - reach && p.y <= Double(h - 1) - reach
        }) else { return nil }
        coarseGradients.compute(coarse)
        gradientsComputed = true
        lines.removeAll(keepingCapacity: true)
        let minSeparation = Self.sameLineOffset(shortSide: min(w, h))
        for i in 0..<4 {
            // A side whose band holds no line of its direction: the card is not where it was.
            guard addBandLines(from: corners[i], to: corners[(i + 1) & 3], reach: reach,
                               minSeparation: minSeparation, width: w, height: h),
                  !bandLineIndices.isEmpty else { return nil }
        }
        guard lines.count >= 4 else { return nil }
        Self.appendFrameBorders(to: &lines, width: w, height: h)
        readLines(coarse, budget: Self.maxLines, perSector: Self.maxLinesPerSector, fresh: true)
        guard let best = bestQuad(coarse, width: w, height: h, readsRepeats: readsRepeats),
              best.confidence >= acceptance,
              !best.borders.contains(true) else { return nil }
        // The same card: every corner near one of the previous corners (the canonical order may start elsewhere
        // when the card is turned near 45°, so corners are matched by place, not by index).
        let limit = reach
        guard best.quad.corners.allSatisfy({ p in
            corners.contains { q in ((p - q) * (p - q)).sum() <= limit * limit }
        }) else { return nil }
        if completingBand, searchesBandEdges, let band = completeBand(best.winner, image: coarse, searching: true) {
            let completed = refined(searched(band), from: coarse, on: working)
            if completed.quad.liesInside(width: working.width, height: working.height) { return completed }
        }
        return refined(best, from: coarse, on: working)
    }

    /// Searches the band of side a–b (`reach` either side of it, short of its ends by `reach` so the sides beside
    /// it, which run across it, add nothing) for lines of its direction, within BandLineSearch's turn and of either
    /// polarity, and adds those not already among `lines`; `bandLineIndices` then holds the indices in `lines` of
    /// the band's lines (added or already there; a buffer reused side to side and frame to frame, so a tracked frame
    /// allocates nothing for it). False when the side is too short for a band (4 × `reach`).
    func addBandLines(from a: SIMD2<Double>, to b: SIMD2<Double>, reach: Double, minSeparation: Double,
                      width w: Int, height h: Int) -> Bool {
        bandLineIndices.removeAll(keepingCapacity: true)
        let along = b - a
        let length = (along * along).sum().squareRoot()
        guard length > 4 * reach else { return false }
        let u = along / length, n = SIMD2(-u.y, u.x)
        let start = a + u * reach, end = b - u * reach
        bandSearch.search(coarseGradients, width: w, height: h,
                          band: (start - n * reach, end - n * reach, end + n * reach, start + n * reach),
                          reference: n, count: Self.trackedLinesPerSide)
        for line in bandSearch.found {
            let candidate = Line(normal: line.normal, rho: line.rho)
            if let same = lines.firstIndex(where: { Self.similar($0, candidate, cosine: Self.sameLineCosine,
                                                                 offset: minSeparation) }) {
                bandLineIndices.append(same)
            } else {
                bandLineIndices.append(lines.count)
                lines.append(candidate)
            }
        }
        return true
    }
}
