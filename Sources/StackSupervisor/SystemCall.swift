import Glibc

/// The one funnel for C calls in this module: every failure becomes a `StackSupervisorError` carrying the function
/// name and error number, and EINTR is retried so that a signal landing mid-call is never mistaken for a failure.
enum SystemCall {
    /// For calls that return 0 on success and an error number otherwise (the `posix_spawn` family).
    static func checkReturnedError(_ function: String, path: String? = nil, _ call: () -> Int32) throws {
        while true {
            let result = call()
            if result == 0 { return }
            if result == EINTR { continue }
            throw StackSupervisorError.systemCall(function, result, path: path)
        }
    }

    /// For calls that return -1 and set errno (`kill`, `waitpid`, …). Returns the call's result.
    @discardableResult
    static func checkErrno<Result: BinaryInteger>(_ function: String, _ call: () -> Result) throws -> Result {
        while true {
            let result = call()
            if result != -1 { return result }
            let failure = errno
            if failure == EINTR { continue }
            throw StackSupervisorError.systemCall(function, failure)
        }
    }
}
