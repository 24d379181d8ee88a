import Glibc

/// Why the supervisor could not do what was asked. `description` names the path or C function involved.
public struct StackSupervisorError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// `ChildSpec.executablePath` does not exist.
        case executableNotFound
        /// The path exists but is not an executable file.
        case notExecutable
        /// A `ChildSpec` is unusable (empty name, fewer than one instance, …).
        case invalidSpecification
        /// `start()` was called a second time.
        case alreadyStarted
        /// A C call failed; `function` and `errorNumber` say which and why.
        case systemCallFailed
    }

    public let code: Code
    public let message: String
    /// The executable concerned, when there is one.
    public let path: String?
    /// The C function that failed, for `.systemCallFailed`.
    public let function: String?
    /// The errno (or returned error number) of the failed C call.
    public let errorNumber: Int32?

    public init(code: Code, message: String, path: String? = nil, function: String? = nil, errorNumber: Int32? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.function = function
        self.errorNumber = errorNumber
    }

    public var description: String {
        var text = "\(code.rawValue): \(message)"
        if let function { text += " [\(function)]" }
        if let errorNumber { text += " errno=\(errorNumber) (\(String(cString: strerror(errorNumber))))" }
        return text
    }

    static func systemCall(_ function: String, _ errorNumber: Int32, path: String? = nil) -> StackSupervisorError {
        StackSupervisorError(code: .systemCallFailed, message: "\(function) failed" + (path.map { " for \($0)" } ?? ""),
                             path: path, function: function, errorNumber: errorNumber)
    }
}
