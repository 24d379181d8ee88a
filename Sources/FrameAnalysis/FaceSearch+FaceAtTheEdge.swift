// A face near the frame's edge, measured again where the cascade has room for its whole box: in the detection image
// inside a border of its own edge pixels.
import COpenCVBridge

extension FaceSearch {
    /// How near the frame's edge a face's box must come, as a share of the detection image's short side, to be
    /// measured again beyond it. A face of an ordinary selfie's size and place stays farther from every edge (up to
    /// 0.45 of the short side wide and 0.1 off centre, camsim's GOOD faces: 0.175 of the short side or more); faces
    /// too large or off centre come nearer. (A face judged GOOD only just, `maxFaceSize` wide and `maxFaceOffset`
    /// off centre, can come within 0.025: measured again, it is that face, or a larger box of it with more eyes.)
    /// 0.15 changed one frame's second code and nothing else on 500 frames.
    static let edgeRoom = 0.1
    /// The face sizes looked for beyond the edge, relative to the face's width: the cascade's boxes of a face too
    /// large for the frame were down to 0.54 of the face's width (a box on one eye and brow), most 0.8–0.9, and its
    /// whole box is a little larger than the face (1.73 times that one-eye box). Up to 2.2, not 2: the cascade's
    /// windows are a fixed ladder (24 px × 1.1ᵏ), and the one-eye face's whole box came from the 133.5 px window.
    /// The first pass's box there is 70 px wide (2 × 70 takes that window in); a tracked box of the same face was 66
    /// (2 × 66 = 132 does not), so with 2 the tracked frame kept the one-eye box (FACE_NOT_CENTERED).
    static let beyondEdgeSizes = 1.0...2.2
    /// The beyond-the-edge search's ratio between face sizes and its overlapping hits: a finer search than the first
    /// pass's (1.2, 3), since it runs only on the sizes from the face's up and on few frames.
    static let beyondEdgeStep = 1.1
    static let beyondEdgeNeighbours = 2

    /// Whether `face` (a box on `detection`) comes within `edgeRoom` of the frame's edge.
    static func nearTheEdge(_ face: kyc_face, of detection: GrayImage) -> Bool {
        let room = min(Int(face.x), Int(face.y), detection.width - Int(face.x + face.width),
                       detection.height - Int(face.y + face.height))
        return Double(room) < edgeRoom * Double(min(detection.width, detection.height))
    }

    /// `found` with its main face measured again beyond the frame's edge when it comes near it (`nearTheEdge`):
    /// the face searched for in the padded detection image (`searchPadded`, as `paddedPass` searches it), from its
    /// size up (`beyondEdgeSizes`). A hit there that takes in the face's centre and shows it better (`showsMore`) is
    /// the same face, measured whole, and replaces it. Its eyes are counted on the padded detection image, where
    /// `showsMore` was set: counted on the padded working image (as `paddedPass` counts them), more boxes show both
    /// eyes and larger ones replace the face (in 30 of 1,440 frames of eleven selfie sets, 10–40 % wider; no answer
    /// changed), which wants its own measurement against the labelled face boxes.
    /// Purpose: the cascade's window must fit in the image, so a face too large for the frame (its brows near the
    /// top, its chin near the bottom) is found, if at all, in a smaller box that fits: on part of it (one eye and
    /// brow), or 0.8–0.9 of its width. A face too large (camsim: over 0.62 of the short side) was then measured
    /// under `maxFaceSize` and judged GOOD or FACE_NOT_CENTERED (camsim selfie seed 96: 2 of 30 frames).
    /// The whole padded image is searched, not a region around the face: a region cut off neighbouring windows the
    /// cascade's grouping needed, and the whole face was lost. Cost: one search at the face's sizes and above, on
    /// frames whose face comes near the edge only (not an ordinary selfie's, above).
    /// Faces found on the working image (the small-face passes) are left: they are far from too large.
    func measuredBeyondTheEdge(_ found: Found, detection: GrayImage) -> Found {
        guard measuresBeyondTheEdge, found.searched === detection, let face = found.faces.first,
              Self.nearTheEdge(face, of: detection) else { return found }
        let hits = searchPadded(detection: detection, eyesOn: nil,
                                minFace: Int((Self.beyondEdgeSizes.lowerBound * Double(face.width)).rounded()),
                                maxFace: Int((Self.beyondEdgeSizes.upperBound * Double(face.width)).rounded(.up)),
                                scaleStep: Self.beyondEdgeStep, minNeighbors: Self.beyondEdgeNeighbours)
        guard let whole = hits.filter({ Self.isRepeat(face, of: [$0]) && Self.showsMore($0, than: face) })
            .max(by: { ($0.eyes, $0.score) < ($1.eyes, $1.score) }) else { return found }
        var measured = found
        measured.faces[0] = whole
        measured.boxes.append(whole)
        return measured
    }

    /// Whether `hit` is a better view of a face than `face`: more eyes, or as many (at least one) and a higher score.
    /// Eyes first: a box on part of a face shows one eye and can score higher than the whole face's box, which shows
    /// two (camsim selfie seed 96: 3.6 against 1.9).
    static func showsMore(_ hit: kyc_face, than face: kyc_face) -> Bool {
        hit.eyes > 0 && (hit.eyes > face.eyes || (hit.eyes == face.eyes && hit.score > face.score))
    }
}
