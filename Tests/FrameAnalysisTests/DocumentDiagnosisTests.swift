// `FrameAnalyzer.diagnoseDocument`: the finder's view of a frame against the card's true corners (kycctl diagnose).
import Testing
@testable import FrameAnalysis

@Suite struct DocumentDiagnosisTests {
    static func points(_ corners: [(Double, Double)]) -> [FramePoint] { corners.map { FramePoint(x: $0.0, y: $0.1) } }

    /// A card the engine finds: every true side has a candidate line on it that the first quad search uses, the
    /// outline around the true corners scores as the finder's own winner does, and its inside is printed.
    @Test func aFoundCardHasEverySideAmongTheSearchedLines() throws {
        let input = FrameInput.jpeg(documentFrame().jpeg())
        let diagnosis = try FrameAnalyzer().diagnoseDocument(input, truth: Self.points(goodCorners))
        #expect(diagnosis.detectionWidth == 320 && diagnosis.detectionHeight == 180)
        #expect(diagnosis.foundConfidence >= AnalysisThresholds.default.minDocumentConfidence)
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        #expect(diagnosis.feedback == analysis.feedback)
        #expect(diagnosis.foundConfidence == analysis.region?.confidence)
        for side in diagnosis.sides {
            #expect((side.offset ?? .infinity) < 1.5, "\(diagnosis.sides)")
            #expect(side.searched, "\(diagnosis.sides)")
            let vote = try #require(side.vote)
            #expect(vote.outcome == .candidate, "\(vote)")
            #expect(vote.votes >= vote.minimum && (vote.peakVotes ?? 0) >= vote.minimum, "\(vote)")
        }
        let truth = try #require(diagnosis.truthConfidence)
        #expect(abs(truth - diagnosis.foundConfidence) < 0.1, "\(diagnosis)")
        #expect(diagnosis.truthPrint >= DocumentFinder.minInteriorTexture)
    }

    /// Fixtures/README.md: the small card on a grained desk that only the window around its print finds. The
    /// diagnosis lists its print as the largest region, clear of the frame's edge and nearly all inside the true
    /// outline.
    @Test func theCardsPrintIsAPrintedRegionInsideItsOutline() throws {
        let input = FrameInput.jpeg(try fixtureBytes("small-card-on-grained-desk-vote-crowded-camsim-portrait-seed5.jpg"))
        let truth = Self.points([(375.11, 808.56), (615.79, 836.49), (603.72, 990.96), (361.78, 957.17)])
        let diagnosis = try FrameAnalyzer().diagnoseDocument(input, truth: truth)
        let largest = try #require(diagnosis.printedRegions.first)
        #expect(!largest.touchesEdge && largest.shareInsideTruth >= 0.8, "\(diagnosis.printedRegions)")
        #expect(largest.x0 >= 330 && largest.x1 <= 640 && largest.y0 >= 780 && largest.y1 <= 1020, "\(largest)")
    }

    /// An outline where there is no card (a plain stretch of the frame beside it): nothing is found around it, and it
    /// encloses no print. (Its sides still have a nearest candidate line: the vote keeps its strongest lines, and on
    /// a plain frame those are weak ones running anywhere.)
    @Test func anOutlineWithoutACardHasNoScoreAndNoPrint() throws {
        var frame = SyntheticFrame(width: 640, height: 360, pixels: [UInt8](repeating: 110, count: 640 * 360))
        frame.drawCard(corners: [(330.0, 60.0), (610.0, 64.0), (606.0, 240.0), (334.0, 236.0)])
        frame.addNoise(amplitude: 3, seed: 5)
        let empty = [(40.0, 150.0), (230.0, 110.0), (260.0, 280.0), (70.0, 320.0)]
        let diagnosis = try FrameAnalyzer().diagnoseDocument(.jpeg(frame.jpeg()), truth: Self.points(empty))
        #expect(diagnosis.foundConfidence >= AnalysisThresholds.default.minDocumentConfidence, "the card beside it")
        #expect(diagnosis.truthConfidence == nil)
        #expect(diagnosis.truthPrint < 0.05)
        // Nothing runs along those sides: the vote gives them only the noise's few votes (fewer than eight pixels of
        // a full edge, a weight of 16 each), below the peaks it keeps or behind the stronger lines of their direction
        // (the card's print: `sectorFull`), and no candidate.
        for side in diagnosis.sides {
            let vote = side.vote
            #expect([.belowMinimum, .cut, .notPeak, .sectorFull].contains(vote?.outcome), "\(side)")
            #expect((vote?.votes ?? .max) < 8 * 16, "\(side)")
        }
    }

    /// Fixtures/README.md: the card on a finely striped desk. Two of its true sides are local maxima of the vote
    /// with 96 and 144 votes, above its minimum but below the floor of the peaks it keeps (`cut`); the other two are
    /// candidate lines. This is the loss the detection-scale search (DetectionScaleVoteTests) makes up for.
    @Test func sidesBesideFineStripesAreCutBelowTheKeptPeaks() throws {
        let input = FrameInput.jpeg(try fixtureBytes("card-on-fine-stripes-border-closed-camsim-seed2.jpg"))
        let corners = [(519.58, 307.37), (1444.41, 60.94), (1831.46, 458.64), (592.07, 838.14)]
        let diagnosis = try FrameAnalyzer().diagnoseDocument(input, truth: Self.points(corners))
        let votes = diagnosis.sides.map { $0.vote }
        #expect(votes.map { $0?.outcome } == [.cut, .candidate, .candidate, .cut], "\(votes)")
        for vote in votes.compactMap({ $0 }) where vote.outcome == .cut {
            #expect(vote.votes >= vote.minimum && vote.peakRank == nil, "\(vote)")
            // Fewer votes than either side that became a candidate.
            let weakestCandidate = votes.compactMap { $0 }.filter { $0.outcome == .candidate }.map(\.votes).min() ?? 0
            #expect(vote.votes < weakestCandidate, "\(votes)")
        }
    }

    @Test func aTrueOutlineNeedsFourFiniteCorners() throws {
        let input = FrameInput.jpeg(documentFrame().jpeg())
        #expect(throws: FrameAnalysisError.self) {
            try FrameAnalyzer().diagnoseDocument(input, truth: Array(Self.points(goodCorners).prefix(3)))
        }
        #expect(throws: FrameAnalysisError.self) {
            try FrameAnalyzer().diagnoseDocument(input, truth: Self.points(goodCorners).map { FramePoint(x: .nan, y: $0.y) })
        }
    }

    /// A card leaving the frame at the right (its right side beyond the frame's edge): scored as a cut-off card, its
    /// three sides in view searched along their parts inside the frame and closed by the frame's right border. The
    /// outline found is the card's part in view, each side in view reads as a strong step, and the side beyond the
    /// frame has no reading.
    @Test func aCutOffCardIsScoredWithTheFrameBorderClosingIt() throws {
        let corners = [(330.0, 60.0), (700.0, 70.0), (690.0, 300.0), (335.0, 292.0)]
        let input = FrameInput.jpeg(documentFrame(corners: corners).jpeg())
        let diagnosis = try FrameAnalyzer().diagnoseDocument(input, truth: Self.points(corners))
        #expect(diagnosis.truthCutOff)
        let truth = try #require(diagnosis.truthConfidence)
        #expect(truth >= AnalysisThresholds.default.minDocumentConfidence, "\(diagnosis)")
        let outline = try #require(diagnosis.truthOutline)
        #expect(outline.count == 4)
        // Its left corners are the card's, its right ones on the frame's right edge.
        let xs = outline.map(\.x).sorted()
        #expect(abs(xs[0] - 330) < 6 && abs(xs[1] - 335) < 6, "\(outline)")
        #expect(xs[2] > 630 && xs[3] < 645, "\(outline)")
        // The held search (one side's end at the border may be covered) takes at least what the plain one does.
        let held = try #require(diagnosis.truthHeldConfidence)
        #expect(held >= truth - 1e-9, "\(diagnosis)")
        let readings = try #require(diagnosis.truthSideReadings)
        #expect(readings.count == 4 && readings[1] == nil, "\(readings)")
        for i in [0, 2, 3] {
            let reading = try #require(readings[i], "side \(i)")
            #expect(reading.support >= 0.9 && reading.step && reading.visibleSamples > 0, "side \(i): \(reading)")
        }
    }

    /// A card seen whole is scored as before (tracked around its corners): not cut off, no held search; each of its
    /// four sides is read as for a cut-off card, all strong steps.
    @Test func aWholeCardHasEverySideRead() throws {
        let diagnosis = try FrameAnalyzer().diagnoseDocument(.jpeg(documentFrame().jpeg()),
                                                             truth: Self.points(goodCorners))
        #expect(!diagnosis.truthCutOff && diagnosis.truthHeldConfidence == nil)
        #expect(diagnosis.truthOutline?.count == 4)
        let readings = try #require(diagnosis.truthSideReadings)
        #expect(readings.count == 4, "\(readings)")
        for (i, reading) in readings.enumerated() {
            let reading = try #require(reading, "side \(i)")
            #expect(reading.support >= 0.9 && reading.step && reading.visibleSamples > 0, "side \(i): \(reading)")
        }
    }

    /// Fixtures/README.md: a light card on a light wall held by a thumb over its right side, which no search finds (a
    /// known miss: NO_DOCUMENT). Its side readings say why: both short sides read under `sideSupport` (the right under
    /// the thumb, the left at the wall's shade), where a quad may have one such side, and the top under
    /// `strongSideSupport` too. The bottom reads strong.
    @Test func aWholeCardsSideReadingsShowWhyItIsRefused() throws {
        let corners = [(171.76, 170.87), (639.35, 193.67), (603.7, 498.47), (159.27, 466.71)]
        let diagnosis = try FrameAnalyzer().diagnoseDocument(
            .jpeg(try fixtureBytes("turned-outline-closed-by-the-border-not-held-camsim-portrait-seed7.jpg")),
            truth: Self.points(corners))
        #expect(diagnosis.feedback.first?.code == .noDocument && diagnosis.truthConfidence == nil, "\(diagnosis)")
        let readings = try #require(diagnosis.truthSideReadings).compactMap { $0 }
        try #require(readings.count == 4, "\(readings)")
        #expect(readings[1].support < DocumentFinder.sideSupport && readings[3].support < DocumentFinder.sideSupport,
                "\(readings)")
        #expect(readings[0].support < DocumentFinder.strongSideSupport, "\(readings)")
        #expect(readings[2].support >= DocumentFinder.strongSideSupport, "\(readings)")
    }
}
