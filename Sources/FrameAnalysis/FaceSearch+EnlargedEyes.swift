// A small face's eyes, read on its part of the frame enlarged twice: the small-face passes' proof that a hit is a face.
import COpenCVBridge

extension FaceSearch {
    /// How far around a hit's box its part of the frame reaches, as a share of the box's width: room for the face
    /// cascade to find the face again at the sizes `enlargedEyes` tries.
    static let enlargedEyesMargin = 0.35
    /// The face sizes, relative to the hit's width, at which `enlargedEyes` finds the face again.
    static let enlargedEyesSizes = 0.75...1.33

    /// The eyes (0…2) the eye cascades see in the face at `hit` (a box in `image`'s pixels), read on the hit's part
    /// of `image` enlarged twice: the face cascade finds the face again on that part, at about the hit's size, and
    /// counts its eyes on the enlarged copy. Purpose: under ~18 % of the short side the working image's eyes are
    /// below the eye cascades' reach (every face the engine found under 0.13 had none), so a small face's hit and
    /// texture the face cascade mistook for one look alike; at twice the size the eyes of every small face found
    /// on camsim selfie seeds 1–4, 48, 49 and framegen seeds 20250501, 7 and 11 showed, and no texture hit had one
    /// (textures that passed both face cascades included). Cost: one face search and an eye search on a few
    /// thousand pixels per hit, on frames whose earlier passes found no face only.
    func enlargedEyes(_ hit: kyc_face, in image: GrayImage) -> Int32 {
        let width = Double(hit.width)
        let margin = Int((Self.enlargedEyesMargin * width).rounded())
        eyesPart.crop(from: image, x: Int(hit.x) - margin, y: Int(hit.y) - margin,
                      width: Int(hit.width) + 2 * margin, height: Int(hit.height) + 2 * margin)
        guard eyesPart.width >= Self.cascadeWindow, eyesPart.height >= Self.cascadeWindow else { return 0 }
        enlargedPart.enlarge2x(from: eyesPart)
        let again = detector.detect(search: eyesPart, eyes: enlargedPart,
                                    minFace: max(Self.cascadeWindow, Int(Self.enlargedEyesSizes.lowerBound * width)),
                                    maxFace: Int((Self.enlargedEyesSizes.upperBound * width).rounded(.up)),
                                    scaleStep: 1.1, minNeighbors: 2)
        return again.map(\.eyes).max() ?? 0
    }

    /// The hits of `hits` (boxes in `image`'s pixels) that show an eye, on `image` or, for a hit without one there,
    /// on its part enlarged twice (`enlargedEyes`, whose count it then carries); every hit when
    /// `smallFacesMustShowEyes` is off.
    func showingEyes(_ hits: [kyc_face], in image: GrayImage) -> [kyc_face] {
        hits.compactMap { hit in
            if hit.eyes > 0 || !smallFacesMustShowEyes { return hit }
            var face = hit
            face.eyes = enlargedEyes(hit, in: image)
            return face.eyes > 0 ? face : nil
        }
    }
}
