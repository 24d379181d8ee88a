// The markers of a JPEG's header segments, in order, read by segment lengths alone: what the EXIF reader
// (`ExifOrientationReader.hasApp1Segment`) and the coding-process check (`JPEGCodingProcess`) need before a decoder
// (libexif, TurboJPEG) reads anything.

/// The segment markers after the start-of-image marker, up to and including the start of scan (or end of image),
/// skipping fill bytes; ends early at bytes that are not a JPEG's, a truncated segment, or a length below 2.
/// Every marker yielded has its two length bytes in the buffer.
struct JPEGHeaderMarkers: Sequence, IteratorProtocol {
    private let jpeg: [UInt8]
    /// Where the next marker is looked for; nil once the walk has ended.
    private var position: Int?
    /// The marker yielded last sits at `current`, its segment not yet stepped over.
    private var current: Int?

    init(_ jpeg: [UInt8]) {
        self.jpeg = jpeg
        position = jpeg.count >= 4 && jpeg[0] == 0xFF && jpeg[1] == 0xD8 ? 2 : nil
    }

    mutating func next() -> UInt8? {
        if let at = current {
            current = nil
            let marker = jpeg[at + 1]
            // Nothing after the start of scan (entropy-coded data) or the end of image is a header segment.
            guard marker != 0xDA, marker != 0xD9 else { position = nil; return nil }
            let length = Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3])
            guard length >= 2 else { position = nil; return nil }
            position = at + 2 + length
        }
        guard var i = position else { return nil }
        while i + 4 <= jpeg.count, jpeg[i] == 0xFF {
            if jpeg[i + 1] == 0xFF { i += 1; continue }     // fill byte before a marker
            current = i
            return jpeg[i + 1]
        }
        position = nil
        return nil
    }
}
