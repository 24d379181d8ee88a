import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into a flag that run loops poll and a callback, so that services stop intake, drain and
/// exit cleanly instead of dying mid-write.
public final class ShutdownSignal: Sendable {
    private let requested = Atomic<Bool>(false)
    private let handlers = Mutex<[@Sendable () -> Void]>([])
    private let sources = Mutex<SignalSources>(SignalSources())

    public init() {}

    /// Starts listening for SIGINT and SIGTERM.
    public func install(signals: [Int32] = [SIGINT, SIGTERM]) {
        for signo in signals {
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
            source.setEventHandler { [weak self] in self?.trigger() }
            source.resume()
            sources.withLock { $0.list.append(source) }
        }
    }

    public var isRequested: Bool { requested.load(ordering: .acquiring) }

    /// Requests shutdown; runs each handler once.
    public func trigger() {
        guard !requested.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let toRun = handlers.withLock { $0 }
        for handler in toRun { handler() }
    }

    /// Runs `handler` when shutdown is requested (at once if it already was).
    public func onShutdown(_ handler: @escaping @Sendable () -> Void) {
        let runNow = handlers.withLock { list -> Bool in
            if requested.load(ordering: .acquiring) { return true }
            list.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// Blocks the calling thread until shutdown is requested.
    public func wait() {
        let semaphore = DispatchSemaphore(value: 0)
        onShutdown { semaphore.signal() }
        semaphore.wait()
    }
}

/// Keeps the dispatch signal sources alive. Dispatch sources are thread-safe objects that Swift does not mark
/// `Sendable`; this box is only touched under `ShutdownSignal.sources`' lock, which makes the conformance safe.
struct SignalSources: @unchecked Sendable {
    var list: [any DispatchSourceSignal] = []
}
