import Foundation

/// Runs CPU-bound test work on a thread of its own and awaits its result.
///
/// Swift Testing runs every test on the cooperative pool, which has one thread per core. A test that computes for
/// many seconds there (analysing a whole generated set) holds a pool thread all that time; on the two-core CI machine
/// the accuracy tests held both, and every async test (the end-to-end tests' readiness polls) stalled for ~30 s until
/// one timed out. On a thread of its own the work competes for the CPU like any process, and the pool keeps serving.
/// Record expectations after the await, in the test's own task, not inside `work`.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result(catching: work)) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
