// Geometry reported to callers, always in the input frame's pixel coordinates.

/// A point in input pixel coordinates (x to the right, y down).
public struct FramePoint: Sendable, Codable, Equatable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// The document's quadrilateral. Corners in INPUT pixel coordinates, clockwise from top-left.
public struct DocumentRegion: Sendable, Codable, Equatable {
    /// Four corners: top-left, top-right, bottom-right, bottom-left.
    public var corners: [FramePoint]
    /// 0…1: how strongly the frame supports this quadrilateral (edge support, shape and contrast).
    public var confidence: Double

    public init(corners: [FramePoint], confidence: Double) {
        self.corners = corners
        self.confidence = confidence
    }
}

/// A detected face, in input pixels, with the number of eyes found inside it (0…2; counted for the largest face only,
/// the others report 0).
public struct FaceRegion: Sendable, Codable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public var eyes: Int

    public init(x: Double, y: Double, width: Double, height: Double, eyes: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.eyes = eyes
    }
}

extension FaceRegion {
    /// What selfie feedback judges a face by, in a frame of `frameWidth` × `frameHeight` (the face's units): its
    /// width over the frame's short side (FACE_TOO_SMALL, FACE_TOO_LARGE), and its box centre's distance from the
    /// frame's centre over the short side (FACE_NOT_CENTERED).
    func sizeAndOffset(frameWidth: Int, frameHeight: Int) -> (size: Double, offset: Double) {
        let shortSide = Double(min(frameWidth, frameHeight))
        let dx = x + width / 2 - Double(frameWidth) / 2, dy = y + height / 2 - Double(frameHeight) / 2
        return (width / shortSide, (dx * dx + dy * dy).squareRoot() / shortSide)
    }
}
