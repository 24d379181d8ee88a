// How a frame's pixels must be turned to stand upright, as the user sees the scene.
//
// Phone cameras deliver frames in the sensor's orientation, not the screen's: an Android frame from a phone held
// upright is usually stored a quarter turn away (CameraX's `rotationDegrees`), and a phone photo is stored as the
// sensor saw it with an EXIF Orientation tag saying how to show it. The Haar face cascades only see upright faces, and
// the document geometry (fill against an upright frame, which side is cut off) is judged in the frame the user sees,
// so the engine turns the working image upright before it looks at it and reports every coordinate in that upright
// frame.

/// The clockwise quarter turn a client says its frame needs (`AnalyzeFrameRequest.rotation`, `kycctl --rotation`).
public enum FrameRotation: Int, Sendable, Codable, CaseIterable {
    case none = 0, clockwise90 = 90, clockwise180 = 180, clockwise270 = 270

    /// nil unless `degrees` is 0, 90, 180 or 270.
    public init?(degrees: Int) { self.init(rawValue: degrees) }

    public var degrees: Int { rawValue }
}

/// One of the eight ways to turn a stored image upright (the EXIF orientations): an optional mirror across the
/// vertical axis, then a clockwise rotation by a number of quarter turns.
struct FrameOrientation: Sendable, Equatable {
    /// Mirror left ↔ right first.
    var mirrored: Bool
    /// Then turn clockwise this many quarter turns (0…3).
    var clockwiseQuarterTurns: Int

    static let upright = FrameOrientation(mirrored: false, clockwiseQuarterTurns: 0)

    init(mirrored: Bool, clockwiseQuarterTurns: Int) {
        self.mirrored = mirrored
        self.clockwiseQuarterTurns = ((clockwiseQuarterTurns % 4) + 4) % 4
    }

    init(_ rotation: FrameRotation) {
        self.init(mirrored: false, clockwiseQuarterTurns: rotation.degrees / 90)
    }

    /// The EXIF/TIFF Orientation tag's value (1…8) as the transform that shows the stored image upright; nil for
    /// any other value (which readers treat as 1).
    init?(exifOrientation value: Int) {
        switch value {
        case 1: self.init(mirrored: false, clockwiseQuarterTurns: 0)
        case 2: self.init(mirrored: true, clockwiseQuarterTurns: 0)    // mirrored left ↔ right
        case 3: self.init(mirrored: false, clockwiseQuarterTurns: 2)   // upside down
        case 4: self.init(mirrored: true, clockwiseQuarterTurns: 2)    // mirrored top ↔ bottom
        case 5: self.init(mirrored: true, clockwiseQuarterTurns: 3)    // transposed
        case 6: self.init(mirrored: false, clockwiseQuarterTurns: 1)   // turn 90° clockwise to show
        case 7: self.init(mirrored: true, clockwiseQuarterTurns: 1)    // transversed
        case 8: self.init(mirrored: false, clockwiseQuarterTurns: 3)   // turn 90° anticlockwise to show
        default: return nil
        }
    }

    /// This orientation followed by a further clockwise rotation (a client's rotation after the file's own EXIF one).
    func followed(by rotation: FrameRotation) -> FrameOrientation {
        FrameOrientation(mirrored: mirrored, clockwiseQuarterTurns: clockwiseQuarterTurns + rotation.degrees / 90)
    }

    /// Whether the upright image's width is the stored image's height.
    var swapsAxes: Bool { clockwiseQuarterTurns % 2 == 1 }

    /// The upright size of a stored image of `width × height`.
    func upright(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    /// Where the stored pixel (x, y) of a `width × height` image lands in the upright image, as an affine map with
    /// integer coefficients: upright = (ax·x + bx·y + cx, ay·x + by·y + cy).
    func pixelMap(width: Int, height: Int)
        -> (ax: Int, bx: Int, cx: Int, ay: Int, by: Int, cy: Int) {
        // Mirror: (x, y) → (w−1−x, y). A clockwise quarter turn of a w × h image: (x, y) → (h−1−y, x), the new
        // image being h × w.
        var map = mirrored ? (ax: -1, bx: 0, cx: width - 1, ay: 0, by: 1, cy: 0)
                           : (ax: 1, bx: 0, cx: 0, ay: 0, by: 1, cy: 0)
        var h = height
        var w = width
        for _ in 0..<clockwiseQuarterTurns {
            // new x = h−1−y(old map), new y = x(old map)
            map = (ax: -map.ay, bx: -map.by, cx: h - 1 - map.cy, ay: map.ax, by: map.bx, cy: map.cx)
            swap(&w, &h)
        }
        return map
    }
}
