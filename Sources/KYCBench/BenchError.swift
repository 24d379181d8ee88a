/// A benchmark could not run or produced an invalid result. Carries the failing function (C or Swift) and, for C
/// calls, the errno it reported, so that the script can print one line that says what broke.
struct BenchError: Error, CustomStringConvertible {
    /// What kind of failure, for callers that react differently (usage errors exit 2, the rest exit 1).
    enum Code: Sendable {
        case usage
        case systemCall
        case notReady
        case invalidResult
    }

    let code: Code
    /// The C function or benchmark step that failed, e.g. `"MHD_start_daemon_va"`.
    let function: String
    let message: String
    /// errno (or library code) when a C call failed; 0 otherwise.
    let errorNumber: Int32

    init(_ code: Code, function: String, message: String, errorNumber: Int32 = 0) {
        self.code = code
        self.function = function
        self.message = message
        self.errorNumber = errorNumber
    }

    var description: String {
        errorNumber == 0 ? "\(function): \(message)" : "\(function): \(message) (errno \(errorNumber))"
    }
}
