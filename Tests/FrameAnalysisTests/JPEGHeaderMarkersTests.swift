// The header-segment walk both the EXIF reader and the coding-process check stand on.
import Testing
@testable import FrameAnalysis

@Suite struct JPEGHeaderMarkersTests {
    /// Markers in order, fill bytes skipped, each segment stepped over by its length, the walk ending with the start
    /// of scan (the bytes after it are entropy-coded data, here made to look like a marker).
    @Test func markersComeInOrderUpToTheStartOfScan() {
        let jpeg: [UInt8] = [0xFF, 0xD8,
                             0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46,
                             0xFF, 0xFF, 0xDB, 0x00, 0x02,
                             0xFF, 0xC2, 0x00, 0x03, 0x08,
                             0xFF, 0xDA, 0x00, 0x02,
                             0xFF, 0xC0, 0x00, 0x02]
        #expect(Array(JPEGHeaderMarkers(jpeg)) == [0xE0, 0xDB, 0xC2, 0xDA])
    }

    /// A length below 2, a segment cut short, or bytes that are not a JPEG end the walk; it never reads past the
    /// buffer.
    @Test func damagedHeadersEndTheWalk() {
        #expect(Array(JPEGHeaderMarkers([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01, 0xFF, 0xC2, 0x00, 0x02])) == [0xE0])
        #expect(Array(JPEGHeaderMarkers([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x40, 0xFF, 0xC2, 0x00, 0x02])) == [0xE0])
        #expect(Array(JPEGHeaderMarkers([0xFF, 0xD8, 0xFF, 0xE0, 0x00])).isEmpty)
        #expect(Array(JPEGHeaderMarkers([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A])).isEmpty)
        #expect(Array(JPEGHeaderMarkers([])).isEmpty)
    }
}
