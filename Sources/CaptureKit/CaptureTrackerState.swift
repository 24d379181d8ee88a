// The auto-capture tracker's state as it travels in AnalyzeFrameRequest/Reply: JSON, bound to its stream.
import FrameAnalysis
import Foundation

/// The opaque `tracker_state` bytes: the stream's `CaptureTracker` plus the stream id and mode it belongs to, so
/// a state copied from another stream (or a selfie stream into a document stream) is refused instead of silently
/// shortening that stream's run of still frames.
struct CaptureTrackerState: Codable, Equatable {
    /// Format version; a state of another version starts a new run.
    var version: Int = 1
    var stream: String
    var mode: FrameMode
    var tracker: CaptureTracker

    /// Largest accepted state; a real one is a few hundred bytes.
    static let maxBytes = 4096

    /// Why state bytes were refused.
    enum Problem: Error, Equatable {
        case tooLong, unreadable, otherStream
    }

    /// The tracker to continue: a new one for empty bytes.
    static func decode(_ bytes: [UInt8], stream: String, mode: FrameMode) throws(Problem) -> CaptureTracker {
        guard !bytes.isEmpty else { return CaptureTracker() }
        guard bytes.count <= maxBytes else { throw .tooLong }
        let state: CaptureTrackerState
        do {
            state = try JSONDecoder().decode(CaptureTrackerState.self, from: Data(bytes))
        } catch {
            throw .unreadable
        }
        guard state.version == 1 else { return CaptureTracker() }
        guard state.stream == stream, state.mode == mode else { throw .otherStream }
        return state.tracker
    }

    static func encode(_ tracker: CaptureTracker, stream: String, mode: FrameMode) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let state = CaptureTrackerState(stream: stream, mode: mode, tracker: tracker)
        // Encoding plain numbers, strings and arrays cannot fail; an empty state only restarts the run.
        return (try? Array(encoder.encode(state))) ?? []
    }
}
