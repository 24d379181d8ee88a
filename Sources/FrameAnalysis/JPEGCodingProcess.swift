// Which coding process a JPEG declares, read from its start-of-frame marker (`JPEGHeaderMarkers`; TurboJPEG 2.1's
// header call does not report it). A progressive JPEG's decode is several times a baseline one's (every scan is
// entropy-decoded into a whole-image coefficient buffer first), so the analyzer decodes its chroma with its luma
// rather than risk decoding it twice (docs/capture.md, "Colour edges").

enum JPEGCodingProcess {
    /// Whether the frame header is a progressive one (SOF2, SOF6, SOF10 or SOF14); false for a baseline or
    /// sequential JPEG and for bytes whose headers end, or are not a JPEG's, before a frame header.
    static func isProgressive(_ jpeg: [UInt8]) -> Bool {
        for marker in JPEGHeaderMarkers(jpeg) {
            switch marker {
            case 0xC2, 0xC6, 0xCA, 0xCE: return true
            case 0xC0, 0xC1, 0xC3, 0xC5, 0xC7, 0xC9, 0xCB, 0xCD, 0xCF: return false
            default: continue
            }
        }
        return false
    }
}

extension FrameInput {
    /// A JPEG whose frame header is progressive (`JPEGCodingProcess.isProgressive`); false for raw frames.
    var isProgressiveJPEG: Bool {
        guard case .jpeg(let bytes) = self else { return false }
        return JPEGCodingProcess.isProgressive(bytes)
    }
}
