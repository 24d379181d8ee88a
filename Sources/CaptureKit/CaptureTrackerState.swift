// The auto-capture tracker's state as it travels in AnalyzeFrameRequest/Reply: authenticated and short-lived.
//
// The state comes back from the client with the stream's next frame, so the client holds it in between. Unsealed, a
// client could claim it had been GOOD and still for N frames and skip the hold-still wait, or carry a state over
// into another tenant's or stream's run. So each state is sealed with an HMAC-SHA256 under a key only the
// CaptureService processes know, bound to the tenant, stream and mode it was issued for, and stamped with the time
// it was issued: a state older than `maxAge` is refused, which bounds how long an old state can be replayed.
import FrameAnalysis
import Foundation
import KYCCrypto

/// What a tracker state is bound to: it is valid only for the same tenant, stream and mode.
struct TrackerStateBinding: Equatable {
    var tenant: String
    var stream: String
    var mode: FrameMode
}

/// Seals a stream's `CaptureTracker` into the opaque `tracker_state` bytes and opens them again.
///
/// Layout: `version (1 byte) ‖ issuedAt (8 bytes, big-endian Unix milliseconds) ‖ payload ‖ tag (32 bytes)`, where
/// the payload is the tracker as JSON (about 330 bytes: a few counters and the previous frame's region) and
/// `tag = HMAC-SHA256(key, label ‖ tenant ‖ stream ‖ mode ‖ version ‖ issuedAt ‖ payload)`, each variable-length
/// field preceded by its length so that no two different bindings hash the same bytes. The tenant, stream and mode
/// are not in the state (the request carries them), only in the tag.
struct CaptureTrackerState: Sendable {
    /// The format version in the first byte; states of any other version are refused.
    static let version: UInt8 = 1
    /// Largest accepted state; a real one is about 370 bytes sealed.
    static let maxBytes = 4096
    /// States issued up to this far in the future are accepted (clocks of different hosts differ a little).
    static let allowedClockSkewMilliseconds: Int64 = 5_000
    /// Separates these tags from HMACs any other part of the platform might compute with the same key.
    static let domainLabel = Array("kyc.v1.capture.tracker_state".utf8)
    static let headerByteCount = 1 + 8

    /// Why state bytes were refused.
    enum Problem: Error, Equatable {
        /// Longer than `maxBytes`.
        case tooLong
        /// Not sealed by a known key for this tenant, stream and mode (forged, altered, another stream's, garbage).
        case unauthentic
        /// Issued more than `maxAge` ago: the stream paused too long and starts over.
        case expired
        /// Issued later than now plus the allowed clock skew.
        case issuedInTheFuture
    }

    let keys: TrackerStateKeys
    let maxAgeMilliseconds: Int64
    /// Unix milliseconds now (injected so tests can move time).
    let now: @Sendable () -> Int64

    /// The tracker to continue: a new one for empty bytes. The payload is decoded only once the tag has verified, so
    /// unauthenticated bytes never reach the JSON decoder.
    func open(_ bytes: [UInt8], for binding: TrackerStateBinding) throws(Problem) -> CaptureTracker {
        guard !bytes.isEmpty else { return CaptureTracker() }
        guard bytes.count <= Self.maxBytes else { throw .tooLong }
        guard bytes.count > Self.headerByteCount + HMACSHA256.tagByteCount, bytes[0] == Self.version else {
            throw .unauthentic
        }
        let tag = Array(bytes.suffix(HMACSHA256.tagByteCount))
        let sealed = Array(bytes.dropLast(HMACSHA256.tagByteCount))
        let message = Self.authenticatedMessage(sealed: sealed, binding: binding)
        // Both keys are always tried, so timing does not tell which one (if any) matched.
        let matchesCurrent = HMACSHA256.isValid(tag, for: message, key: keys.current)
        let matchesPrevious = keys.previous.map { HMACSHA256.isValid(tag, for: message, key: $0) } ?? false
        guard matchesCurrent || matchesPrevious else { throw .unauthentic }
        let issuedAt = sealed[1..<Self.headerByteCount].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let issued = Int64(bitPattern: issuedAt), current = now()
        // Only a clock gone wild issues extreme times; an overflowing age is then simply too old or too new.
        let (age, overflow) = current.subtractingReportingOverflow(issued)
        if overflow { throw issued > current ? .issuedInTheFuture : .expired }
        guard age >= -Self.allowedClockSkewMilliseconds else { throw .issuedInTheFuture }
        guard age <= maxAgeMilliseconds else { throw .expired }
        do {
            return try JSONDecoder().decode(CaptureTracker.self, from: Data(sealed[Self.headerByteCount...]))
        } catch {
            // Only a process with the key could have sealed it: a tracker of an incompatible build, say.
            throw .unauthentic
        }
    }

    /// The sealed state of `tracker` for `binding`, issued now under the current key.
    func seal(_ tracker: CaptureTracker, for binding: TrackerStateBinding) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding plain numbers, booleans and arrays cannot fail; an empty state only restarts the run.
        guard let payload = try? encoder.encode(tracker) else { return [] }
        var sealed: [UInt8] = [Self.version]
        sealed.reserveCapacity(Self.headerByteCount + payload.count + HMACSHA256.tagByteCount)
        let issuedAt = UInt64(bitPattern: now())
        for shift in stride(from: 56, through: 0, by: -8) {
            sealed.append(UInt8(truncatingIfNeeded: issuedAt >> shift))
        }
        sealed.append(contentsOf: payload)
        let tag = HMACSHA256.tag(for: Self.authenticatedMessage(sealed: sealed, binding: binding), key: keys.current)
        return sealed + tag
    }

    /// `label ‖ tenant ‖ stream ‖ mode ‖ version ‖ issuedAt ‖ payload`, variable fields length-prefixed.
    private static func authenticatedMessage(sealed: [UInt8], binding: TrackerStateBinding) -> [UInt8] {
        var message: [UInt8] = []
        message.reserveCapacity(domainLabel.count + binding.tenant.utf8.count + binding.stream.utf8.count
                                + 32 + sealed.count)
        for field in [domainLabel, Array(binding.tenant.utf8), Array(binding.stream.utf8),
                      Array(binding.mode.rawValue.utf8)] {
            let count = UInt32(truncatingIfNeeded: field.count)
            for shift in stride(from: 24, through: 0, by: -8) {
                message.append(UInt8(truncatingIfNeeded: count >> shift))
            }
            message.append(contentsOf: field)
        }
        message.append(contentsOf: sealed)
        return message
    }
}
