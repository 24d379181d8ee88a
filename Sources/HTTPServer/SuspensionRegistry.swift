import Foundation
import KYCCore
import Synchronization

/// The connections that are suspended (or being suspended) while their handler works, so that `stop()` can answer
/// them before stopping the daemon: libmicrohttpd aborts the process if `MHD_stop_daemon` finds a suspended
/// connection, and a connection freed by the daemon must never be resumed.
///
/// Rules that make this safe:
/// - a slot is admitted only while the server is not stopping, under the lock that `beginStopping` takes;
/// - a slot leaves only after `MHD_resume_connection` for it has *returned*, so "empty" means no resume is in
///   flight and nothing is suspended; `stop()` waits for empty before calling `MHD_stop_daemon`.
final class SuspensionRegistry: Sendable {
    private struct State {
        var isStopping = false
        var slots: [ObjectIdentifier: ReplySlot] = [:]
    }

    private let state = Mutex(State())

    /// Records `slot` as about to be suspended; false when the server is stopping (the caller must not suspend).
    func admit(_ slot: ReplySlot) -> Bool {
        state.withLock { state in
            guard !state.isStopping else { return false }
            state.slots[slot.id] = slot
            return true
        }
    }

    /// Forgets `slot`; call only after `MHD_resume_connection` for it returned.
    func remove(_ slot: ReplySlot) {
        _ = state.withLock { $0.slots.removeValue(forKey: slot.id) }
    }

    /// Refuses further admissions and returns the slots that still wait for a reply.
    func beginStopping() -> [ReplySlot] {
        state.withLock { state in
            state.isStopping = true
            return Array(state.slots.values)
        }
    }

    var count: Int { state.withLock { $0.slots.count } }

    /// Waits until every admitted slot was resumed; they only need the few microseconds a resume call takes, since
    /// `stop()` has already given each a reply. Returns false if slots remain after `timeoutSeconds`, which would
    /// mean a broken invariant; the caller logs it rather than hanging shutdown forever.
    func waitUntilEmpty(timeoutSeconds: Double = 5) -> Bool {
        let deadline = MonotonicClock.nowNanoseconds() + UInt64(timeoutSeconds * 1e9)
        while count > 0 {
            if MonotonicClock.nowNanoseconds() > deadline { return false }
            usleep(100)
        }
        return true
    }
}
