import Dispatch
import Foundation

/// A named OS thread that can be joined: blocking socket loops run on these, never on the Swift concurrency pool.
public final class DedicatedThread: Sendable {
    private let finished = DispatchSemaphore(value: 0)

    /// Starts `body` on a new thread called `name`.
    public init(name: String, _ body: @escaping @Sendable () -> Void) {
        let finished = self.finished
        let thread = Thread {
            body()
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Blocks until the thread's body returned. Call at most once.
    public func join() { finished.wait() }
}
