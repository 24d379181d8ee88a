// The inputs the engine accepts: a JPEG file's bytes, or a raw camera frame's luma plane (gray8, NV12, NV21).

/// What kind of capture a frame belongs to: an identity document or a selfie.
public enum FrameMode: String, Sendable, Codable, CaseIterable {
    case document, selfie
}

/// Layouts of raw camera frames. NV12 and NV21 carry a full-resolution Y plane first; only it is read.
public enum RawPixelFormat: String, Sendable, Codable, CaseIterable {
    case gray8, nv12, nv21
}

/// One camera frame as it arrives from the capture SDK.
public enum FrameInput: Sendable {
    /// A baseline or progressive JPEG file.
    case jpeg([UInt8])
    /// A raw frame: `stride` bytes per row of the Y plane (≥ width); NV12/NV21 also carry the interleaved chroma
    /// plane of `stride × ceil(height / 2)` bytes after it.
    case raw(bytes: [UInt8], width: Int, height: Int, stride: Int, format: RawPixelFormat)
}
