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
    /// face the engine found in framegen seeds 20250501, 7, 11 and camsim seeds 1-5 but one at 0.133; from 0.21 up every
    /// lit face had one). The rolled pass counts only faces with an eye, so it looks for no smaller ones.
    static let smallestEyedFace = 0.18

    /// Rolled-face pass: the first pass's search on the working image turned by each of `rollTurns` (OpenCV's
    /// warpAffine through the bridge, then the half-size copy), stopping at the first turn that finds a face. A hit
    /// is mapped back to the detection image: its box's centre turned back, its size kept (the upright box of a face
    /// rolled 15° is about as wide). Purpose: a head rolled 10-20°, which the upright-only cascade misses. Only hits
    /// with an eye count: turned, the frame's texture passed the face cascade as small eyeless faces (3 of the 79
    /// NO_FACE frames of framegen seeds 20250501, 7, 11 and camsim seeds 1-5; 8 with the small-face sizes searched
    /// turned too; 0.09-0.20 of the short side, scoring like real small faces), while every real face it found had
    /// an eye. So rolled faces too small to show eyes (FACE_TOO_SMALL) stay unfound, and faces are searched from
    /// `smallestEyedFace` up. Cost: two turns of the working image and up to two searches somewhat cheaper than the
    /// first pass (~16-19 ms user CPU per faceless frame here), on frames without a face only (the last pass: run
    /// when every other found nothing).
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
            // Turned back about the working image's centre (the turn's centre), in working pixels.
            let radians = degrees * .pi / 180, c = cos(radians), s = sin(radians)
            let centreX = Double(working.width - 1) / 2, centreY = Double(working.height - 1) / 2
            return hits.map { hit in
                let dx = (Double(hit.x) + Double(hit.width) / 2) * toWorking - centreX
                let dy = (Double(hit.y) + Double(hit.height) / 2) * toWorking - centreY
                let x = centreX + c * dx - s * dy, y = centreY + s * dx + c * dy
                var face = hit
                face.x = Int32((x / toWorking - Double(hit.width) / 2).rounded())
                face.y = Int32((y / toWorking - Double(hit.height) / 2).rounded())
                return face
            }
        }
        return []
    }
}
