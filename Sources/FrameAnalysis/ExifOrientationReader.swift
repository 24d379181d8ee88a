// libexif: a JPEG's EXIF Orientation tag (how a phone photo must be turned to be shown upright).
// libexif parses the APP1 "Exif" segment; it allocates, so it is called only when the application segments at the
// file's start include an APP1 one (camera frames streamed by an SDK usually have none). A missing, damaged or
// out-of-range tag reads as upright, as image viewers treat it: the frame is still analysed.
import CExif

enum ExifOrientationReader {
    /// The orientation the JPEG's EXIF data asks for; `.upright` when it has none.
    static func orientation(ofJPEG jpeg: [UInt8]) -> FrameOrientation {
        guard jpeg.count >= 4, jpeg.count <= Int(UInt32.max), hasApp1Segment(jpeg) else { return .upright }
        let value: Int? = jpeg.withUnsafeBufferPointer { buffer in
            guard let data = exif_data_new_from_data(buffer.baseAddress, UInt32(buffer.count)) else { return nil }
            defer { exif_data_unref(data) }
            guard let ifd0 = data.pointee.ifd.0,
                  let entry = exif_content_get_entry(ifd0, EXIF_TAG_ORIENTATION),
                  entry.pointee.format == EXIF_FORMAT_SHORT, entry.pointee.components >= 1,
                  entry.pointee.size >= 2, let bytes = entry.pointee.data else { return nil }
            return Int(exif_get_short(bytes, exif_data_get_byte_order(data)))
        }
        return value.flatMap { FrameOrientation(exifOrientation: $0) } ?? .upright
    }

    /// Whether an APP1 segment (where EXIF lives) comes among the application and comment segments that follow the
    /// start-of-image marker, the only place EXIF may be. Only segment lengths are read; libexif reads the rest.
    static func hasApp1Segment(_ jpeg: [UInt8]) -> Bool {
        for marker in JPEGHeaderMarkers(jpeg) {
            if marker == 0xE1 { return true }
            guard (0xE0...0xEF).contains(marker) || marker == 0xFE else { return false }
        }
        return false
    }
}
