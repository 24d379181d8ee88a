// Where the document finder loses a card whose true outline is known (a labelled frame from tools/framegen or
// tools/camsim): the engine developers' tool behind `kycctl diagnose` (docs/capture.md, "Diagnosing a missed card").
//
// A miss has one of three causes, and each asks for a different change: the card's sides are not among the vote's
// candidate lines (the vote or the line budget loses them), they are but the quad of them does not score (support,
// shape, corners, print), or it scores and is outranked by another outline. The diagnosis answers each in turn for
// the true corners: the nearest candidate line to every true side, whether the first quad search builds quads from
// it, the confidence the quad search gives the outline found around the true corners (as a stream tracks a card it
// knows), and the print share inside the true outline.
import Foundation

/// What the document finder makes of a frame whose card's true corners are known.
public struct DocumentDiagnosis: Sendable, Codable, Equatable {
    /// One side of the true outline (corner i to corner i + 1) against the vote's candidate lines.
    public struct Side: Sendable, Codable, Equatable {
        /// Distance (detection-image pixels) between the side's line and the nearest candidate line within 6° of its
        /// direction, measured at the side's middle; nil when no candidate line is that close in direction.
        public var offset: Double?
        /// Whether that line is one the first quad search builds quads from (within the line budget).
        public var searched: Bool
        /// For a line not searched, the first reason the line budget passed it over; nil for a searched one.
        public var passedOver: PassedOver?
        /// What the vote made of the side's line; nil when the side has no length or the vote found too few lines.
        public var vote: VoteTrace?
    }

    /// Why the first quad search's line budget (`DocumentFinder.readLines`) passed a candidate line over.
    public enum PassedOver: String, Sendable, Codable {
        /// The budget had its `maxLines` lines before it reached the line.
        case budgetSpent
        /// The line's 30° sector already had `maxLinesPerSector` lines.
        case sectorFull
        /// The refit found too few edge pixels along the line.
        case unsupported
        /// Profiled, but too few samples, or too few of them a brightness step, for an outline's side.
        case noStep
    }

    /// One true side in the Hough vote (on the vote image, half the detection image's size): how many votes its line
    /// drew, and why it did or did not become a candidate line.
    public struct VoteTrace: Sendable, Codable, Equatable {
        public enum Outcome: String, Sendable, Codable {
            /// A peak near the side became a candidate line.
            case candidate
            /// The strongest peak near the side was dropped as the same line as a stronger candidate (`heldBy`).
            case similar
            /// Dropped because its 30° sector already had `maxCandidatesPerSector` candidates.
            case sectorFull
            /// The vote had its `maxCandidates` lines before it reached the side's peak.
            case budgetSpent
            /// The side's line has a local maximum, but below the floor that keeps the strongest `peaksKept` peaks.
            case cut
            /// The side's line reaches the vote's minimum but is no local maximum (a neighbouring cell outvotes it).
            case notPeak
            /// The side's line drew fewer votes than the vote's minimum for a line.
            case belowMinimum
        }
        public var outcome: Outcome
        /// The most votes a cell on the side's line drew (within 2° and 1 vote-image pixel, either polarity), and the
        /// vote's minimum for a line.
        public var votes: Int
        public var minimum: Int
        /// The strongest peak near the side: its rank among the kept peaks by votes (0 the strongest) and its votes.
        public var peakRank: Int?
        public var peakVotes: Int?
        /// For `similar`: the votes of the candidate it was taken for, and that candidate's offset from the side's
        /// line at the side's middle (vote-image pixels) and angle to it (degrees).
        public var heldByVotes: Int?
        public var heldByOffset: Double?
        public var heldByAngle: Double?
    }

    /// The engine's answer on the frame alone (`FrameAnalyzer.analyze` in document mode).
    public var feedback: [Feedback]
    /// The full search's winner's confidence (0 when it found no quad).
    public var foundConfidence: Double
    /// The confidence the quad search gives the outline it finds around the true corners, searching each true side's
    /// band for lines of its direction (`DocumentFinder.track`); nil when it finds none there. For a card the frame
    /// cuts (a true corner outside the frame, `truthCutOff`), each side's band is searched along its part inside the
    /// frame, the frame's borders are added, and any outline of those lines counts, border-closed or not
    /// (`DocumentFinder.scoreCutOffTruth`).
    public var truthConfidence: Double?
    /// Whether the true outline has a corner outside the frame (scored as a cut-off card, above).
    public var truthCutOff: Bool = false
    /// Each true side's part in the frame as the quad search reads it (nil for a side out of view; for a card seen
    /// whole every side, since session 36): whether it can be a side at all (`support` ≥ `minOccludedSupport`, 0.25,
    /// and a `step`), whether it can be the one weak side (under `sideSupport`, 0.4, with every other side at
    /// `strongSideSupport`, 0.85), and whether it can meet a frame border (≥ `borderSideSupport`, 0.7).
    public var truthSideReadings: [SideReading?]?
    /// For a cut-off card, the confidence of the same search's best outline as the search for a held card scores it
    /// (`coveredAtBorder`: one side meeting a frame border may lack its edge at the border, under a thumb); nil
    /// when no quad passes even so.
    public var truthHeldConfidence: Double?
    /// One side's edge as the quad search's first pass reads it (`DocumentFinder.sideSupport`).
    public struct SideReading: Sendable, Codable, Equatable {
        /// Share of its visible samples with an edge of its polarity.
        public var support: Double
        /// Whether the brightness differs across it (an edge between two regions, not a painted line).
        public var step: Bool
        public var visibleSamples: Int
    }
    /// The outline `truthConfidence` scores, corners in the input frame's pixels (nil with it): whether the quad
    /// search around the truth settles on the true outline or on another of its lines.
    public var truthOutline: [FramePoint]?
    /// The share of the true outline's inside with edges (`DocumentFinder.interiorTexture`; the printed-inside test's
    /// bar is `minInteriorTexture`, 0.3).
    public var truthPrint: Double
    /// The true outline's four sides, in the order of the corners given.
    public var sides: [Side]
    /// The frame's printed regions (`PrintedRegions`), largest first, as the searches in their windows read them.
    public var printedRegions: [PrintedRegionTrace] = []
    /// One printed region: its box (input pixels), its printed cells, whether it reaches the frame's edge (searched
    /// only for a card the frame cuts), and the share of its printed cells inside the true outline (a card holds its
    /// print; a region the card's print does not dominate is another object's).
    public struct PrintedRegionTrace: Sendable, Codable, Equatable {
        public var x0: Double, y0: Double, x1: Double, y1: Double
        public var printedCells: Int
        public var touchesEdge: Bool
        public var shareInsideTruth: Double
    }
    /// The detection image's size: the scale of `offset`.
    public var detectionWidth: Int
    public var detectionHeight: Int
}

extension FrameAnalyzer {
    /// The document finder's view of `input` against the card's true corners (`truth`: four corners in the upright
    /// input frame's pixels, in order around the card). Bad input throws as `analyze` does.
    public func diagnoseDocument(_ input: FrameInput, truth: [FramePoint]) throws(FrameAnalysisError)
        -> DocumentDiagnosis {
        guard truth.count == 4, truth.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            throw FrameAnalysisError(code: .unsupportedFormat, message: "a true outline has four finite corners")
        }
        // The answer (one search), then the frame's images again for the finder's steps (one more decode).
        let analysis = try analyze(input, mode: .document)
        let (inputSize, detection, working) = try documentImages(input)
        let finder = documentFinder
        let scale = SIMD2(Double(detection.width) / Double(inputSize.width),
                          Double(detection.height) / Double(inputSize.height))
        let corners = truth.map { SIMD2($0.x, $0.y) * scale }
        let sides = finder.firstSearchMatches(corners, coarse: detection)
        // (`firstSearchMatches` leaves the detection image's gradients, which the print share reads.)
        let print = finder.interiorTexture((corners[0], corners[1], corners[2], corners[3]), in: detection)
        let truthQuad = Quadrilateral(corners: corners)
        let cutOff = !truthQuad.liesInside(width: detection.width, height: detection.height)
        let readings: [DocumentDiagnosis.SideReading?]
        let heldConfidence: Double?
        let scored: DocumentFinder.Found?
        if cutOff {
            (scored, readings, heldConfidence) = finder.scoreCutOffTruth(truthQuad, coarse: detection, working: working)
        } else {
            var gradientsComputed = false
            scored = finder.track(truthQuad, coarse: detection, working: working, acceptance: 0,
                                  gradientsComputed: &gradientsComputed)
            // (After the track: the readings' band search replaces the finder's lines.)
            readings = finder.readTrueSides(truthQuad, coarse: detection).readings
            heldConfidence = nil
        }
        let toInput = SIMD2(Double(inputSize.width) / Double(working.width),
                            Double(inputSize.height) / Double(working.height))
        var diagnosis = DocumentDiagnosis(feedback: analysis.feedback,
                                          foundConfidence: analysis.metrics["documentConfidence"] ?? 0,
                                          truthConfidence: scored?.confidence, truthPrint: print, sides: sides,
                                          detectionWidth: detection.width, detectionHeight: detection.height)
        diagnosis.truthCutOff = cutOff
        // The printed regions, as `FrameAnalyzer.findInPrintedRegions` reads them.
        let gradients = SobelGradients(), regions = PrintedRegions()
        gradients.compute(detection)
        regions.find(gradients: gradients, width: detection.width, height: detection.height)
        let toInputFromDetection = SIMD2(Double(inputSize.width) / Double(detection.width),
                                         Double(inputSize.height) / Double(detection.height))
        diagnosis.printedRegions = regions.regions.map { region in
            let share = regions.printedShare(of: region, inside: truthQuad, scale: SIMD2(1, 1),
                                             offset: .zero)
            return DocumentDiagnosis.PrintedRegionTrace(
                x0: Double(region.x0) * toInputFromDetection.x, y0: Double(region.y0) * toInputFromDetection.y,
                x1: Double(region.x1) * toInputFromDetection.x, y1: Double(region.y1) * toInputFromDetection.y,
                printedCells: region.printedCells, touchesEdge: region.touchesEdge, shareInsideTruth: share)
        }
        diagnosis.truthSideReadings = readings
        diagnosis.truthHeldConfidence = heldConfidence
        diagnosis.truthOutline = scored.map { found in
            found.quad.scaled(x: toInput.x, y: toInput.y).corners.map { FramePoint(x: $0.x, y: $0.y) }
        }
        return diagnosis
    }
}

extension DocumentFinder {
    /// The outline the quad search finds around a card the frame cuts (`truth`: its true corners on `coarse`, one or
    /// more outside the frame), refined on `working`, and each true side's reading (`readTrueSides`): as `track` does
    /// for a card seen whole, each side's band is searched for lines of its direction, here along the side's part
    /// inside the frame (sides with too little of it are left to the frame's borders, which are added), and the best
    /// quad of those lines is taken whatever its confidence, border-closed or not (nil when fewer than two sides are
    /// in view or no quad passes the search's gates). Diagnosis only.
    func scoreCutOffTruth(_ truth: Quadrilateral, coarse: GrayImage, working: GrayImage)
        -> (found: Found?, sides: [DocumentDiagnosis.SideReading?], heldConfidence: Double?) {
        let (readings, searchable) = readTrueSides(truth, coarse: coarse)
        guard searchable else { return (nil, readings, nil) }
        let w = coarse.width, h = coarse.height
        // The held search's view too (`coveredAtBorder`: one side's end at a border may lack its edge, under a thumb).
        let held = bestQuad(coarse, width: w, height: h, coveredAtBorder: true)?.confidence
        guard let best = bestQuad(coarse, width: w, height: h) else { return (nil, readings, held) }
        return (refined(best, from: coarse, on: working), readings, held)
    }

    /// Each true side's part inside the frame (`truth`: the true corners on `coarse`) as the quad search's first
    /// pass reads it (`sideSupport`), on the best of the lines its band gives (nil for a side with too little of it in
    /// view), and whether the sides' band lines (two or more sides in view, two or more lines) and the frame's borders
    /// are left read as the quad search's lines (`searchable`: `scoreCutOffTruth` searches them). Diagnosis only.
    func readTrueSides(_ truth: Quadrilateral, coarse: GrayImage)
        -> (readings: [DocumentDiagnosis.SideReading?], searchable: Bool) {
        var readings = [DocumentDiagnosis.SideReading?](repeating: nil, count: 4)
        let w = coarse.width, h = coarse.height
        guard w >= 16, h >= 16 else { return (readings, false) }
        let reach = max(3, Self.trackingReach * Double(min(w, h)))
        coarseGradients.compute(coarse)
        lines.removeAll(keepingCapacity: true)
        let minSeparation = Self.sameLineOffset(shortSide: min(w, h))
        let hi = SIMD2(Double(w - 1), Double(h - 1))
        // Per true side in view: its part inside the frame and the lines its band gave.
        var inView: [(side: Int, a: SIMD2<Double>, b: SIMD2<Double>, lines: [Int])] = []
        for i in 0..<4 {
            guard let (a, b) = Quadrilateral.clip(truth.corners[i], truth.corners[(i + 1) & 3], to: hi) else {
                continue
            }
            guard addBandLines(from: a, to: b, reach: reach, minSeparation: minSeparation, width: w, height: h)
            else { continue }
            inView.append((i, a, b, bandLineIndices))
        }
        guard inView.count >= 2, lines.count >= 2 else { return (readings, false) }
        Self.appendFrameBorders(to: &lines, width: w, height: h)
        readLines(coarse, budget: Self.maxLines, perSector: Self.maxLinesPerSector, fresh: true)
        // Each side in view as the quad search's first pass reads it (`sideSupport`), on the best of its band's
        // lines, between the ends of its part in view.
        let table = lineTable
        for side in inView {
            var best: DocumentDiagnosis.SideReading?
            for index in side.lines where profiled.indices.contains(index) && profiled[index] {
                let (t0, t1) = Self.sideEnds(table, line: index, from: side.a, to: side.b)
                let sums = table.segment(index, min(t0, t1), max(t0, t1))
                let reading = Self.sideSupport(table, line: index, min(t0, t1), max(t0, t1), sums: sums,
                                               quarters: false)
                if reading.fraction > (best?.support ?? -1) {
                    best = DocumentDiagnosis.SideReading(support: reading.fraction, step: reading.isStep,
                                                         visibleSamples: Int(reading.visible))
                }
            }
            readings[side.side] = best
        }
        return (readings, true)
    }

    /// The vote's candidate lines and the first quad search's budgeted lines on `coarse` (the start of `find`),
    /// matched to each side of the outline `corners` (detection-image pixels).
    func firstSearchMatches(_ corners: [SIMD2<Double>], coarse: GrayImage) -> [DocumentDiagnosis.Side] {
        guard readFirstLines(coarse) else {
            return Array(repeating: DocumentDiagnosis.Side(offset: nil, searched: false, passedOver: nil, vote: nil),
                         count: 4)
        }
        return (0..<4).map { i in
            let a = corners[i], b = corners[(i + 1) & 3]
            let along = b - a
            let length = (along * along).sum().squareRoot()
            guard length > 0 else {
                return DocumentDiagnosis.Side(offset: nil, searched: false, passedOver: nil, vote: nil)
            }
            let trace = voteTrace(from: a, to: b)
            let middle = (a + b) / 2, direction = along / length
            var nearest: (index: Int, offset: Double)?
            for (index, line) in lines.enumerated() where !line.border {
                // Within 6° of the side's direction (the candidate's direction is its normal turned a quarter).
                let lineDirection = SIMD2(-line.normal.y, line.normal.x)
                guard abs((lineDirection * direction).sum()) >= 0.9945 else { continue }
                let offset = abs((middle * line.normal).sum() - line.rho)
                if offset < (nearest?.offset ?? .infinity) { nearest = (index, offset) }
            }
            guard let nearest else {
                return DocumentDiagnosis.Side(offset: nil, searched: false, passedOver: nil, vote: trace)
            }
            let searched = active.contains(nearest.index)
            return DocumentDiagnosis.Side(offset: nearest.offset, searched: searched,
                                          passedOver: searched ? nil : passedOver(nearest.index), vote: trace)
        }
    }

    /// Why `readLines` (first pass) left the candidate line `index` out of the active lines, replayed on its state.
    func passedOver(_ index: Int) -> DocumentDiagnosis.PassedOver {
        // The active lines before it (the budget takes the lines in vote order; the frame borders count).
        let before = active.filter { $0 < index }
        if before.count >= Self.maxLines { return .budgetSpent }
        let sector = Self.sector(of: lines[index])
        let inItsSector = before.filter { !lines[$0].border && Self.sector(of: lines[$0]) == sector }
        if inItsSector.count >= Self.maxLinesPerSector { return .sectorFull }
        if lines[index].unsupported { return .unsupported }
        return .noStep
    }

    /// The side from `a` to `b` (detection-image pixels) in the vote `readFirstLines` just ran: its cells in the
    /// accumulator and the candidate choice replayed over the kept peaks, in the vote's order, for the first reason
    /// its line was not taken.
    func voteTrace(from a: SIMD2<Double>, to b: SIMD2<Double>) -> DocumentDiagnosis.VoteTrace {
        let w = voteImage.width, h = voteImage.height
        // (The vote image's pixel x is the detection image's 2x + 0.5.)
        let va = (a - 0.5) / 2, vb = (b - 0.5) / 2
        let along = vb - va
        let length = (along * along).sum().squareRoot()
        let direction = along / length
        let normal = SIMD2(-direction.y, direction.x)
        let middle = (va + vb) / 2
        let diagonal = Self.voteDiagonal(width: w, height: h)
        let rhoBins = 2 * diagonal + 1, bins = Self.angleBins
        let shortSide = min(w, h)
        let minimum = Self.voteMinimum(voteGradients, shortSide: shortSide)
        // The side's line for either polarity (the vote's angles run over the whole turn: a gradient's sign counts).
        func cell(_ n: SIMD2<Double>) -> Int {
            var degrees = atan2(n.y, n.x) * 180 / .pi
            if degrees < 0 { degrees += 360 }
            return Int((degrees / 2).rounded()) % bins
        }
        // The best cell on the side's line, among the offsets the image's pixels reach (the cells the vote cleared
        // and read, see `vote`; a side outside the frame has none).
        var votes = 0, best: (t: Int, r: Int)?
        for angle in [cell(normal), cell(-normal)] {
            for dt in -1...1 {
                let t = (angle + dt + bins) % bins
                let first = max(1, Int(rowReach[2 * t])), last = min(rhoBins - 2, Int(rowReach[2 * t + 1]))
                // (The side's middle's offset at that cell's angle.)
                let r = (middle * Self.cellNormals[t]).sum()
                for dr in -1...1 {
                    let index = Int(r.rounded()) + dr + diagonal
                    guard index >= first && index <= last else { continue }
                    let v = Int(accumulator[t * rhoBins + index])
                    if v > votes { (votes, best) = (v, (t, index)) }
                }
            }
        }
        // Peaks near the side: within 4° and 2 vote-image pixels at its middle, either polarity.
        func near(_ line: Line) -> Bool {
            let dot = (line.normal * normal).sum()
            guard abs(dot) >= 0.9976 else { return false }
            return abs((middle * line.normal).sum() - line.rho) <= 2
        }
        // The vote's order: votes descending, equal votes in scan order.
        let order = peaks.indices.sorted { peaks[$0].votes != peaks[$1].votes ? peaks[$0].votes > peaks[$1].votes : $0 < $1 }
        let minSeparation = Self.sameLineOffset(shortSide: shortSide)
        var taken: [(line: Line, votes: Int)] = []
        var perSector = [Int](repeating: 0, count: 6)
        var trace = DocumentDiagnosis.VoteTrace(outcome: .budgetSpent, votes: votes, minimum: minimum)
        var firstNear: Int?
        for (rank, index) in order.enumerated() {
            let peak = peaks[index]
            let candidate = Line(normal: Self.cellNormals[peak.angle], rho: Double(peak.rho))
            let isNear = near(candidate)
            if isNear && firstNear == nil {
                firstNear = rank
                trace.peakRank = rank
                trace.peakVotes = Int(peak.votes)
            }
            if let held = taken.first(where: { Self.similar($0.line, candidate, cosine: Self.sameLineCosine,
                                                             offset: minSeparation) }) {
                if isNear && firstNear == rank {
                    trace.outcome = .similar
                    trace.heldByVotes = held.votes
                    let dot = (held.line.normal * normal).sum()
                    trace.heldByOffset = abs((middle * held.line.normal).sum() - held.line.rho)
                    trace.heldByAngle = acos(min(1, abs(dot))) * 180 / .pi
                }
                continue
            }
            let sector = Self.voteSector(angleCell: peak.angle)
            if perSector[sector] >= Self.maxCandidatesPerSector {
                if isNear && firstNear == rank { trace.outcome = .sectorFull }
                continue
            }
            perSector[sector] += 1
            taken.append((candidate, Int(peak.votes)))
            if isNear {
                trace.outcome = .candidate
                return trace
            }
            if taken.count >= Self.maxCandidates { break }
        }
        if firstNear != nil { return trace }
        // No kept peak near the side: below the minimum, no local maximum, or cut with the weakest peaks.
        if votes < minimum {
            trace.outcome = .belowMinimum
        } else if let best, isLocalMaximum(best.t, best.r, rhoBins: rhoBins) {
            trace.outcome = .cut
        } else {
            trace.outcome = .notPeak
        }
        return trace
    }

    /// The vote's peak test (a cell at least its neighbours in offset and in angle) on accumulator cell (t, r).
    private func isLocalMaximum(_ t: Int, _ r: Int, rhoBins: Int) -> Bool {
        let bins = Self.angleBins
        let v = accumulator[t * rhoBins + r]
        let previous = (t + bins - 1) % bins * rhoBins + r, next = (t + 1) % bins * rhoBins + r
        return v >= accumulator[t * rhoBins + r - 1] && v >= accumulator[t * rhoBins + r + 1]
            && v >= accumulator[previous] && v >= accumulator[next]
    }
}
