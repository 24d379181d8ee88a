// The face search's pass for heads rolled further than the upright-only Haar cascade finds: the frame is turned
// against the roll, searched, and each face's box is turned back.
import COpenCVBridge
import Foundation

extension FaceSearch {
    /// Turns tried, in degrees (positive turns the picture counter-clockwise). The frontal cascade finds faces
    /// rolled up to about 10°: on camsim selfie seeds 1-3 faces rolled 11-14° were missed, and found once the frame
    /// was turned back by 7 or 14°. A 15° turn each way covers rolls of about 5-25° (the frontal pass covers the
    /// rest up to 10°); a 30° turn each way, tried after them, covers a phone held at a slant to about 40° (framegen's
    /// upright selfies turned 35° and 40° each way: 3 of 12 found with the 15° turns, 12 of 12 with both; every
    /// output of the eight selfie sets unchanged; a faceless frame searched whole costs ~12 % more).
    static let rollTurns: [Double] = [15, -15, 30, -30]

    /// The smallest face, as a share of the short side, whose eyes the eye cascade finds (eyes 0 below it on every
    /// face the engine found in framegen seeds 20250501, 7, 11 and camsim seeds 1-5 but one at 0.133; from 0.21 up
    /// every lit face had one). The rolled pass counts only faces with an eye, so it looks for no smaller ones.
    static let smallestEyedFace = 0.18

    /// Rolled-face pass: the first pass's search on the working image turned by each of `rollTurns` (OpenCV's
    /// warpAffine through the bridge, then the half-size copy), stopping at the first turn that finds a face. A hit
    /// is mapped back to the detection image (`turnedBack`). Purpose: a head rolled 10-20°, which the upright-only
    /// cascade misses. Only hits with an eye count: turned, the frame's texture passed the face cascade as small
    /// eyeless faces (3 of the 79 NO_FACE frames of framegen seeds 20250501, 7, 11 and camsim seeds 1-5; 8 with the
    /// small-face sizes searched turned too; 0.09-0.20 of the short side, scoring like real small faces), while every
    /// real face it found had an eye. So faces are searched from `smallestEyedFace` up here; rolled faces too small
    /// to show eyes on the working image (FACE_TOO_SMALL) are the rolled small-face pass's. Cost: two turns of the
    /// working image and up to two searches somewhat cheaper than the first pass (~16-19 ms user CPU per faceless
    /// frame here), on frames without a face only (run when every earlier pass found nothing).
    func rolledPass(detection: GrayImage, working: GrayImage) -> [kyc_face] {
        let toWorking = Double(working.width) / Double(max(detection.width, 1))
        let shortDetection = Double(min(detection.width, detection.height))
        let minFace = max(Self.firstPassSmallest(detection: detection), Int(shortDetection * Self.smallestEyedFace))
        for degrees in Self.rollTurns {
            turnedWorking.resize(width: working.width, height: working.height)
            guard kyc_rotate_gray(working.base, Int32(working.width), Int32(working.height), Int32(working.width),
                                  degrees, turnedWorking.base, Int32(working.width)) == 0 else { return [] }
            let search: GrayImage
            if detection !== working {
                turnedDetection.downsample2x(from: turnedWorking)
                search = turnedDetection
            } else {
                search = turnedWorking
            }
            let hits = plausibleFaces(in: detector.detect(search: search, eyes: turnedWorking, minFace: minFace,
                                                          scaleStep: 1.2, minNeighbors: 3),
                                      searched: search, working: turnedWorking).filter { $0.eyes > 0 }
            guard !hits.isEmpty else { continue }
            return hits.map { Self.turnedBack($0, by: degrees, searchScale: toWorking, working: working) }
        }
        return []
    }

    /// The turns the rolled small-face pass tries: the rolled pass's first two (a far user's phone is held upright
    /// as often as a near one's; the 30° turns would double the pass's cost for slanted far faces, not seen).
    static let smallRollTurns: [Double] = [15, -15]
    /// The smallest face, as a share of the short side, the rolled small-face pass looks for.
    static let smallestRolledSmallFace = 0.075

    /// Rolled small-face pass: the small-face pass's sizes, and up to the rolled pass's smallest, on the working
    /// image turned by each of `smallRollTurns`, stopping at the first turn that finds a face, in working
    /// coordinates. Purpose: a far head rolled 10-20° (FACE_TOO_SMALL), which neither the upright small-face pass
    /// nor the rolled pass (from `smallestEyedFace` up) finds (camsim selfie seeds 2, 3, 4: faces of 0.13-0.15 of
    /// the short side rolled 11-14°, each told NO_FACE). Such a face's eyes are below the eye cascades' reach on
    /// the working image, and turned texture passes the face cascade (3 of framegen's 10 faceless frames, with both
    /// face cascades), so a hit counts only when its part of the turned image, enlarged twice, shows an eye
    /// (`enlargedEyes`): each of the three faces did at every turn from 6 to 24° its way, no texture hit did at any.
    /// Cost: up to two turns and two small-face searches on the working image, on frames without a face only (the
    /// last pass).
    func rolledSmallFacePass(detection: GrayImage, working: GrayImage) -> [kyc_face] {
        let toWorking = Double(working.width) / Double(max(detection.width, 1))
        let rolledSmallest = max(Self.firstPassSmallest(detection: detection),
                                 Int(Double(min(detection.width, detection.height)) * Self.smallestEyedFace))
        let largest = Int(Double(rolledSmallest) * toWorking * 5 / 4)
        let shortWorking = Double(min(working.width, working.height))
        let smallest = max(Self.cascadeWindow, Int(shortWorking * Self.smallestRolledSmallFace))
        for degrees in Self.smallRollTurns {
            turnedWorking.resize(width: working.width, height: working.height)
            guard kyc_rotate_gray(working.base, Int32(working.width), Int32(working.height), Int32(working.width),
                                  degrees, turnedWorking.base, Int32(working.width)) == 0 else { return [] }
            let hits = showingEyes(detector.detect(search: turnedWorking, eyes: turnedWorking, minFace: smallest,
                                                   maxFace: largest, scaleStep: 1.2, minNeighbors: 2),
                                   in: turnedWorking)
            guard !hits.isEmpty else { continue }
            return hits.map { Self.turnedBack($0, by: degrees, searchScale: 1, working: working) }
        }
        return []
    }

    /// `hit`, found on the working image turned by `degrees` (or on its copy `searchScale` times smaller), turned
    /// back: its box's centre turned back about the working image's centre (the turn's centre), its size kept (the
    /// upright box of a face rolled 15° is about as wide), in the searched image's pixels.
    static func turnedBack(_ hit: kyc_face, by degrees: Double, searchScale: Double, working: GrayImage) -> kyc_face {
        let radians = degrees * .pi / 180, c = cos(radians), s = sin(radians)
        let centreX = Double(working.width - 1) / 2, centreY = Double(working.height - 1) / 2
        let dx = (Double(hit.x) + Double(hit.width) / 2) * searchScale - centreX
        let dy = (Double(hit.y) + Double(hit.height) / 2) * searchScale - centreY
        let x = centreX + c * dx - s * dy, y = centreY + s * dx + c * dy
        var face = hit
        face.x = Int32((x / searchScale - Double(hit.width) / 2).rounded())
        face.y = Int32((y / searchScale - Double(hit.height) / 2).rounded())
        return face
    }
}
