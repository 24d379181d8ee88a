// An answer whose two sides at one corner carry their edges on past its far corners is a larger card's part
// (`OutlineRunsPastCorner`): held back from a capture, MOVE_AWAY when the card they imply is too large.
import Testing
@testable import FrameAnalysis

@Suite struct OutlineRunsPastCornerTests {
    static func image(_ rectangles: [((Int, Int, Int, Int), UInt8)]) -> GrayImage {
        OutlineRunOnTests.image(rectangles)
    }

    /// The outline (300, 150)-(500, 260) inside a dark card (100, 60)-(500, 260): its right and bottom sides are the
    /// card's, and both go on past its far corners to the card's own corners.
    static let part = OutlineRunOnTests.corners(300, 150, 500, 260)

    @Test func aCardsCornerPartImpliesTheCard() throws {
        // A light print line closes the part at the top and at the left, as print lines inside a card do.
        let image = Self.image([((100, 60, 500, 260), 60), ((300, 148, 500, 151), 200), ((298, 150, 301, 260), 200)])
        let larger = try #require(OutlineRunsPastCorner.impliedCard(image, corners: Self.part))
        // The right side goes on 90 px past (500, 150) to the card's top, the bottom 200 px past (300, 260).
        #expect(larger.runShare > 0.7, "\(larger.runShare)")
        let c = larger.corners
        #expect(abs(c[0].x - 100) < 8 && abs(c[0].y - 60) < 8, "\(c)")
        #expect(abs(c[1].x - 500) < 2 && abs(c[1].y - 60) < 8, "\(c)")
        #expect(c[2] == Self.part[2], "\(c)")
        #expect(abs(c[3].x - 100) < 8 && abs(c[3].y - 260) < 2, "\(c)")
    }

    @Test func aWholeCardImpliesNothing() {
        let image = Self.image([((300, 150, 500, 260), 60)])
        #expect(OutlineRunsPastCorner.impliedCard(image, corners: Self.part) == nil)
    }

    /// One side alone running on (a desk's edge in line with a card's side) is not a larger card.
    @Test func oneSideRunningOnIsNotALargerCard() {
        let image = Self.image([((300, 150, 500, 260), 60), ((500, 40, 503, 150), 60)])
        #expect(OutlineRunsPastCorner.impliedCard(image, corners: Self.part) == nil)
    }

    /// A thumb (flat, a shade of its own) over the card's bottom edge just past the part's corner: the bottom's run
    /// is bridged over it, the right side's running on from the corner.
    @Test func aRunIsBridgedOverAThumb() throws {
        let card = ((100, 60, 500, 260), UInt8(60))
        let thumb = ((240, 200, 300, 330), UInt8(130))
        let image = Self.image([card, thumb])
        let larger = try #require(OutlineRunsPastCorner.impliedCard(image, corners: Self.part))
        #expect(abs(larger.corners[3].x - 100) < 8, "\(larger.corners)")
        // Textured instead of flat (spots on either side of the line), the stretch is a background's, not a thumb's:
        // the bottom's run ends there.
        var spotted: [((Int, Int, Int, Int), UInt8)] = [card, thumb]
        for x in stride(from: 240, to: 300, by: 10) {
            spotted.append(((x, 255, x + 4, 259), 90))
            spotted.append(((x + 5, 261, x + 9, 265), 170))
        }
        #expect(OutlineRunsPastCorner.impliedCard(Self.image(spotted), corners: Self.part) == nil)
        // Past a thumb the edge must come back as strong as along the side: a faint line in line with it is chance.
        let faint = Self.image([((300, 150, 500, 260), 60), ((500, 60, 503, 150), 60), thumb,
                                ((100, 258, 240, 262), 170)])
        #expect(OutlineRunsPastCorner.impliedCard(faint, corners: Self.part) == nil)
    }

    /// The outline (100, 150)-(500, 260) inside the same card, closed at the top by a print line: its left and
    /// right sides run on past that line to the card's top and stop at its bottom.
    @Test func aCardsPartClosedAcrossItImpliesTheCard() throws {
        let part = OutlineRunOnTests.corners(100, 150, 500, 260)
        let image = Self.image([((100, 60, 500, 260), 60), ((100, 148, 500, 151), 200)])
        let larger = try #require(OutlineRunsPastCorner.impliedCard(image, corners: part))
        let c = larger.corners
        #expect(abs(c[0].x - 100) < 2 && abs(c[0].y - 60) < 8 && abs(c[1].x - 500) < 2 && abs(c[1].y - 60) < 8,
                "\(c)")
        #expect(c[2] == part[2] && c[3] == part[3], "\(c)")
        #expect(OutlineRunsPastCorner.impliedCard(image, corners: part, closedSides: false) == nil)
        // Lines along both sides past both ends (a striped desk's): not a part.
        let striped = Self.image([((100, 60, 500, 260), 60), ((100, 148, 500, 151), 200), ((100, 260, 103, 350), 60),
                                  ((497, 260, 500, 350), 60)])
        #expect(OutlineRunsPastCorner.impliedCard(striped, corners: part) == nil)
    }

    /// Fixtures/README.md: a passport turned 28°, answered on its part below the header band (skew under the bar):
    /// GOOD, an unsafe capture. Its long sides run on past the band's edge and stop at its bottom: held back.
    @Test func aTurnedCardsPartBelowItsHeaderIsHeldBack() throws {
        let (analysis, _) = try expectSettingDecides(
            "turned-card-its-part-below-the-header-camsim-portrait-seed118.jpg", primary: .cutOff,
            otherwise: .good) { $0.followsSidesPastClosingSides = false }
        #expect(analysis.feedback.map(\.code) == [.cutOff], "\(analysis.feedback)")
        #expect(try #require(analysis.metrics["largerCardRunOn"]) >= OutlineRunsPastCorner.minRunShare)
    }

    /// Fixtures/README.md: a card held too close (0.91 of the frame), a thumb over its bottom edge. The part right of
    /// the thumb, closed above by a print line, passed for a card (0.72): GOOD. Its right side runs on to the card's
    /// top, its bottom past the thumb to the frame's left: the card they imply is too large for the frame.
    @Test func aTooCloseCardsPartIsMoveAway() throws {
        let (analysis, without) = try expectSettingDecides(
            "too-close-card-its-part-beside-the-thumb-camsim-portrait-seed122.jpg", primary: .moveAway,
            otherwise: .good) { $0.followsSidesPastCorners = false }
        #expect(analysis.feedback.map(\.code) == [.moveAway], "\(analysis.feedback)")
        let fill = try #require(analysis.metrics["largerCardFill"])
        #expect(analysis.feedback.first?.value == fill && fill > AnalysisThresholds.default.maxFill, "\(fill)")
        #expect(without.metrics["largerCardFill"] == nil)
    }

    /// Fixtures/README.md: a card seen whole, answered on its part right of the photo and above the MRZ band
    /// (corner error 0.13 of the diagonal): GOOD, a capture of the wrong region. The card is found around the outline
    /// the runs imply, at twice a stream's reach (the top's run fades short of the card's corner): GOOD on the card.
    @Test func aWholeCardIsFoundAroundItsPart() throws {
        let input = FrameInput.jpeg(try fixtureBytes("whole-card-its-part-right-of-the-photo-camsim-seed80.jpg"))
        let analysis = try FrameAnalyzer().analyze(input, mode: .document)
        let part = try analyzeDocument(input) { $0.followsSidesPastCorners = false }
        #expect(analysis.primary == .good && part.primary == .good, "\(analysis.feedback) \(part.feedback)")
        // The card's corners (camsim's labels).
        let card: [(Double, Double)] = [(537.9, 108.3), (1771.8, 147.8), (1789.9, 929), (507.1, 917.8)]
        func error(_ region: DocumentRegion?) throws -> Double {
            let corners = try #require(region?.corners)
            return zip(corners, card).map { p, q in ((p.x - q.0) * (p.x - q.0) + (p.y - q.1) * (p.y - q.1)).squareRoot() }
                .max() ?? .infinity
        }
        #expect(try error(analysis.region) < 8, "\(String(describing: analysis.region))")
        #expect(try error(part.region) > 300, "\(String(describing: part.region))")
    }

    /// Fixtures/README.md: a card held by a thumb over its face, answered on its part left of the thumb (corner error
    /// 0.07): GOOD for the wrong region. Its left side runs on to the card's top, its bottom past the thumb and on
    /// out of the frame: no card is found around that outline, and the answer is held back, CUT_OFF.
    @Test func aPartWhoseCardIsNotFoundIsHeldBack() throws {
        let (analysis, _) = try expectSettingDecides(
            "held-card-its-part-beside-the-thumb-held-back-camsim-small-seed173.jpg", primary: .cutOff,
            otherwise: .good) { $0.followsSidesPastCorners = false }
        #expect(analysis.feedback.map(\.code) == [.cutOff], "\(analysis.feedback)")
        let runOn = try #require(analysis.metrics["largerCardRunOn"])
        #expect(analysis.feedback.first?.value == runOn && runOn >= OutlineRunsPastCorner.minRunShare, "\(runOn)")
        #expect(try #require(analysis.metrics["largerCardFill"]) <= AnalysisThresholds.default.maxFill)
    }
}
