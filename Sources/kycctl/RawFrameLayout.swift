// `kycctl analyze --raw FORMAT:WIDTHxHEIGHT[:STRIDE]`: how to read the files as raw camera frames (a device's NV21
// dump, say) instead of JPEGs.
import FrameAnalysis

/// The layout every file of one `kycctl analyze --raw` run has.
struct RawFrameLayout: Equatable {
    var format: RawPixelFormat
    var width: Int
    var height: Int
    /// Bytes per row of the Y plane (the width when not given).
    var stride: Int

    /// Reads `nv21:1280x720`, `gray8:640x480:704`, …; nil for anything else.
    init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), let format = RawPixelFormat(rawValue: String(parts[0]).lowercased())
        else { return nil }
        let size = parts[1].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]), width > 0, height > 0 else {
            return nil
        }
        let stride = parts.count == 3 ? Int(parts[2]) : width
        guard let stride, stride >= width else { return nil }
        self.format = format
        self.width = width
        self.height = height
        self.stride = stride
    }

    /// `bytes` as a frame of this layout.
    func input(_ bytes: [UInt8], lumaRange: LumaRange) -> FrameInput {
        .raw(bytes: bytes, width: width, height: height, stride: stride, format: format, lumaRange: lumaRange)
    }
}
