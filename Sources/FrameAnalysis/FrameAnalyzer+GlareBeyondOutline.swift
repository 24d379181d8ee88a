// A glare patch that runs on past a small outline: the outline was closed on the patch, and its size is no guide to
// the card's (docs/capture.md, "Feedback codes", "Glare beyond a small outline"; ADR 14's amendment).
import Foundation

extension FrameAnalyzer {
    /// How far outside each side of the outline its clipped samples are read, as a share of the image's short side.
    static let glareBeyondOutlineOffset = 0.03
    /// The least share of one side's samples, read `glareBeyondOutlineOffset` outside it, that must be clipped for the
    /// glare to run on past the outline. On the tuning sets the GLARE cards told MOVE_CLOSER on a part beside their
    /// patch read 0.16-0.37 there; at 0.3 one of the three is lost.
    static let minGlareBeyondOutline = 0.15
    /// The samples read along each side (between its corners, ends excluded).
    static let glareBeyondOutlineSamples = 19

    /// The largest share, over `quad`'s four sides (on `image`), of the samples read `glareBeyondOutlineOffset` of the
    /// image's short side outside a side, along its length, at `luma` or brighter. A side with fewer than 5 samples in
    /// the image counts as none.
    static func glareBeyondOutline(_ quad: Quadrilateral, on image: GrayImage, luma: Double) -> Double {
        let c = quad.corners, centre = (c[0] + c[1] + c[2] + c[3]) / 4
        let offset = glareBeyondOutlineOffset * Double(min(image.width, image.height))
        let steps = glareBeyondOutlineSamples + 1
        var worst = 0.0
        for k in 0..<4 {
            let a = c[k], b = c[(k + 1) & 3]
            let (_, inward, _) = OutlineRunOn.frame(a, b, centre: centre)
            let outward = -inward
            var clipped = 0, read = 0
            for i in 1..<steps {
                let p = a + (b - a) * (Double(i) / Double(steps)) + outward * offset
                let x = Int(p.x), y = Int(p.y)
                guard x >= 0, y >= 0, x < image.width, y < image.height else { continue }
                read += 1
                if Double(image.base[y * image.width + x]) >= luma { clipped += 1 }
            }
            if read >= 5 { worst = max(worst, Double(clipped) / Double(read)) }
        }
        return worst
    }
}
