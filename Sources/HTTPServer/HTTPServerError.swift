/// Why the HTTP server could not start. Carries the libmicrohttpd or socket function that failed and its errno,
/// so that an operator can tell a port in use from a bad configuration.
public struct HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// A configuration value is out of range or the host is not an IP address.
        case invalidConfiguration
        /// `start()` was called on a server that is running or was stopped.
        case invalidState
        /// libmicrohttpd refused to start (port in use, no permission, out of resources).
        case startFailed
    }

    public let code: Code
    /// The C function that failed, when one did.
    public let function: String?
    /// `errno` right after the failing call, or 0.
    public let errno: Int32
    public let message: String

    public init(code: Code, function: String? = nil, errno: Int32 = 0, message: String) {
        self.code = code
        self.function = function
        self.errno = errno
        self.message = message
    }

    public var description: String {
        var text = "\(code.rawValue): \(message)"
        if let function { text += " (\(function)" + (errno != 0 ? ", errno \(errno)" : "") + ")" }
        return text
    }
}
