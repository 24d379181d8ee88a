import CMicroHTTPD
import Foundation

/// The one place where libmicrohttpd results become errors or values. The two C-variadic info functions are reached
/// through the non-variadic wrappers in `Sources/CMicroHTTPD/shim.h`.
enum MicroHTTPDCall {
    /// Throws `HTTPServerError` naming `function` when `pointer` is nil, with the errno libmicrohttpd left behind.
    static func require(_ pointer: OpaquePointer?, _ function: String, _ code: HTTPServerError.Code,
                        _ message: String) throws -> OpaquePointer {
        guard let pointer else {
            throw HTTPServerError(code: code, function: function, errno: errno, message: message)
        }
        return pointer
    }

    /// The port the daemon is bound to (useful after binding port 0), or nil if libmicrohttpd cannot say.
    static func boundPort(of daemon: OpaquePointer) -> Int? {
        guard let info = kyc_mhd_daemon_info(daemon, .DAEMON_INFO_BIND_PORT) else { return nil }
        let port = Int(info.pointee.port)
        return port == 0 ? nil : port
    }

    /// The client's numeric IP address, or an empty string.
    static func clientAddress(of connection: OpaquePointer) -> String {
        guard let info = kyc_mhd_connection_info(connection, .CONNECTION_INFO_CLIENT_ADDRESS),
              let address = info.pointee.client_addr else { return "" }
        return ListenAddress.numericHost(of: address)
    }
}
