// The one funnel for OpenSSL libcrypto failures: the failing function's name and the library's own error queue
// (ERR_get_error), drained so a failure never leaks into the next call on the thread.
import COpenSSL

/// A libcrypto call failed.
public struct OpenSSLError: Error, Sendable, CustomStringConvertible {
    /// The C function that failed, e.g. `d2i_PUBKEY`.
    public let function: String
    /// OpenSSL's packed error code (0 when the queue was empty).
    public let code: UInt
    /// OpenSSL's text for `code`.
    public let reason: String

    public var description: String { "\(function) failed: \(reason) (code \(code))" }

    /// Builds the error for `function` from the thread's error queue and clears the queue.
    static func drain(_ function: String) -> OpenSSLError {
        let code = ERR_get_error()
        var buffer = [CChar](repeating: 0, count: 256)
        if code != 0 { ERR_error_string_n(code, &buffer, buffer.count) }
        ERR_clear_error()
        let reason = code == 0 ? "no OpenSSL error queued"
            : String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return OpenSSLError(function: function, code: code, reason: reason)
    }

    /// Returns `pointer`, or throws the drained error of `function` when it is nil.
    static func check<T>(_ pointer: T?, _ function: String) throws(OpenSSLError) -> T {
        guard let pointer else { throw drain(function) }
        return pointer
    }

    /// Throws the drained error of `function` unless `result` is 1 (libcrypto's success).
    static func check(_ result: Int32, _ function: String) throws(OpenSSLError) {
        guard result == 1 else { throw drain(function) }
    }
}
