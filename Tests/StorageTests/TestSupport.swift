import Dispatch
import Foundation
import Storage
import Testing

/// Runs `work(index)` on `count` threads released together, and waits for all of them (with a generous deadline,
/// as a guard against a deadlock hanging the test run).
func runOnThreads(_ count: Int, _ work: @escaping @Sendable (Int) -> Void) -> Bool {
    let finished = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for index in 0..<count {
        finished.enter()
        let thread = Thread {
            start.wait()
            work(index)
            finished.leave()
        }
        thread.start()
    }
    for _ in 0..<count { start.signal() }
    return finished.wait(timeout: .now() + 120) == .success
}

/// The StorageError thrown by `body`, or nil (and a recorded issue) when it throws nothing or something else.
func storageError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> StorageError? {
    do {
        try body()
        Issue.record("expected a StorageError, nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as StorageError {
        return error
    } catch {
        Issue.record("expected a StorageError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
