// An outline closed by the frame's border (or running out of it) whose sides beside one side carry the card's edges
// only part of the way to it holds a card and the background past it (`OutlineStopsShort`): the card is looked for
// within the sides, where their edges stop.
import Testing
@testable import FrameAnalysis

@Suite struct OutlineStopsShortTests {
    /// A dark card (x 200-420) on the light wall of `OutlineRunOnTests.image`, and an outline whose top and bottom
    /// run on past the card's right end to the frame's right border: both stop at x 420, and the outline is cut
    /// back there.
    @Test func sidesThatStopAtTheCardsEndAreCutBackThere() throws {
        let image = OutlineRunOnTests.image(dark: [(200, 100, 420, 240)])
        let cut = try #require(OutlineStopsShort.cutBack(image, corners: OutlineRunOnTests.corners(200, 100, 639, 240)))
        #expect(abs(cut[1].x - 420) < 4 && abs(cut[1].y - 100) < 1, "\(cut)")
        #expect(abs(cut[2].x - 420) < 4 && abs(cut[2].y - 240) < 1, "\(cut)")
        #expect(cut[0] == SIMD2(200, 100) && cut[3] == SIMD2(200, 240))
    }

    /// A card seen whole carries its edges to its corners; a card the frame cuts carries them to the frame's border.
    @Test func edgesReachingTheCornersOrTheBorderAreNotCut() {
        let whole = OutlineRunOnTests.image(dark: [(200, 100, 420, 240)])
        #expect(OutlineStopsShort.cutBack(whole, corners: OutlineRunOnTests.corners(200, 100, 420, 240)) == nil)
        let cutByFrame = OutlineRunOnTests.image(dark: [(200, 100, 640, 240)])
        #expect(OutlineStopsShort.cutBack(cutByFrame, corners: OutlineRunOnTests.corners(200, 100, 639, 240)) == nil)
    }

    /// Only one side stops short (the bottom runs on, at the card's polarity, along a dark shelf's lower edge out
    /// to the border): no cut, the background might be the card's.
    @Test func oneSideStoppingAloneIsNotCut() {
        let image = OutlineRunOnTests.image(dark: [(200, 100, 420, 240), (420, 200, 640, 240)])
        #expect(OutlineStopsShort.cutBack(image, corners: OutlineRunOnTests.corners(200, 100, 639, 240)) == nil)
    }

    /// Past the card, a wall with dark dots against the outline's lines on the side away from the card: each dot's
    /// edge on the line has the other sign from the card's edge (light inside, dark outside). Read at either sign
    /// they would carry the edge on past the card on every other point; at the card's sign they do not.
    @Test func aDottedWallDoesNotCarryTheEdgeOn() throws {
        var dots: [((Int, Int, Int, Int), UInt8)] = [((200, 100, 420, 240), 60)]
        for x in stride(from: 430, to: 636, by: 12) {
            dots.append(((x, 90, x + 6, 100), 60))
            dots.append(((x, 240, x + 6, 250), 60))
        }
        let image = OutlineRunOnTests.image(dots)
        let cut = try #require(OutlineStopsShort.cutBack(image, corners: OutlineRunOnTests.corners(200, 100, 639, 240)))
        #expect(abs(cut[1].x - 420) < 4 && abs(cut[2].x - 420) < 4, "\(cut)")
    }

    /// Fresh camsim frames whose far side the search lost, their sides run on past it to a line out of the frame
    /// (CUT_OFF): a tilted card (landscape seed 91) and a card held upright in a portrait frame (seed 86). Found
    /// within the sides where their edges stop, they are TILTED and GOOD; with the rule off, CUT_OFF.
    @Test func aCardWhoseSidesRunPastItsFarSideIsFoundWithinThem() throws {
        for (name, labelled, answer) in [
            ("tilted-card-sides-run-past-camsim-seed91", FeedbackCode.tilted,
             [(302.72, 324.56), (548.51, 98.27), (1166.83, 310.26), (1129.66, 682.83)]),
            ("card-sides-run-past-camsim-portrait-seed86", FeedbackCode.good,
             [(365.97, 821.71), (940.07, 907.59), (890.63, 1270.52), (310.55, 1189.8)]),
        ] {
            let input = FrameInput.jpeg(try fixtureBytes("\(name).jpg"))
            // (The tilted card's far side is found on its header band's edge, 3 % of the diagonal inside.)
            try analyzeExpectingCard(input, primary: labelled, corners: answer, within: 0.035)
            // (The search for the card square-on after a turned weak answer finds one of them too: both off.)
            let without = try analyzeDocument(input) {
                $0.cutsBackSidesThatStopShort = false
                $0.reconsidersTurnedWeakAnswers = false
            }
            #expect(without.primary == .cutOff, "\(name): \(without.feedback)")
        }
    }
}
