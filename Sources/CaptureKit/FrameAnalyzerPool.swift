// A small pool of frame analyzers shared by the worker threads of one CaptureService process.
import FrameAnalysis
import Foundation

/// Lends each handler call an analyzer of its own. `FrameAnalyzer` reuses its buffers between frames and is not
/// thread-safe, so one analyzer is used by exactly one thread at a time; the pool keeps at most `capacity` idle ones
/// (one per worker thread is enough: each thread runs one request at a time), so memory stays flat.
public final class FrameAnalyzerPool: @unchecked Sendable {
    // @unchecked: `idle` is only read and written under `lock`, and an analyzer taken from it is used by the one
    // thread that took it until it is handed back, so no analyzer is ever touched by two threads at once.
    private let lock = NSLock()
    private var idle: [FrameAnalyzer] = []
    private var created = 0
    private let capacity: Int
    private let makeAnalyzer: @Sendable () -> FrameAnalyzer

    /// `capacity`: analyzers kept for reuse (the worker thread count).
    public init(capacity: Int, makeAnalyzer: @escaping @Sendable () -> FrameAnalyzer) {
        self.capacity = max(1, capacity)
        self.makeAnalyzer = makeAnalyzer
    }

    /// Runs `body` with an analyzer no other thread is using.
    public func withAnalyzer<Result, Failure: Error>(_ body: (FrameAnalyzer) throws(Failure) -> Result)
        throws(Failure) -> Result
    {
        let analyzer = checkOut()
        defer { checkIn(analyzer) }
        return try body(analyzer)
    }

    /// Analyzers made so far (for tests: reuse means this stays at the number of concurrent callers).
    public var createdCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return created
    }

    private func checkOut() -> FrameAnalyzer {
        lock.lock()
        if let analyzer = idle.popLast() {
            lock.unlock()
            return analyzer
        }
        created += 1
        lock.unlock()
        return makeAnalyzer()
    }

    private func checkIn(_ analyzer: FrameAnalyzer) {
        lock.lock()
        defer { lock.unlock() }
        if idle.count < capacity { idle.append(analyzer) }
    }
}
