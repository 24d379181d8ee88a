import CMicroHTTPD
import Foundation

/// The Swift side of the C entry points libmicrohttpd calls (`HTTPServer` wraps each in a capture-free closure).
/// Each turns `cls` back into the `HTTPServerContext` and does the rest in Swift.
enum HTTPServerCallbacks {
    static func context(_ cls: UnsafeMutableRawPointer?) -> HTTPServerContext? {
        cls.map { Unmanaged<HTTPServerContext>.fromOpaque($0).takeUnretainedValue() }
    }

    /// `MHD_OPTION_URI_LOG_CALLBACK`: called with the raw request target before libmicrohttpd decodes it; its
    /// result becomes the request's `*con_cls`, so this is where per-request state is born.
    static func requestStarted(_ cls: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?,
                               _ connection: OpaquePointer?) -> UnsafeMutableRawPointer? {
        guard let context = context(cls) else { return nil }
        let exchange = context.exchangeStarted(rawTarget: uri.map { String(cString: $0) } ?? "/")
        return Unmanaged.passRetained(exchange).toOpaque()
    }

    /// The access handler: called once when the headers are in, once per body chunk, once when the body is
    /// complete, and once more after each resume.
    static func accessHandler(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                              _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?,
                              _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
                              _ uploadDataSize: UnsafeMutablePointer<Int>?,
                              _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result {
        guard let context = context(cls), let connection, let uploadDataSize, let conCls else { return .NO }
        let exchange: RequestExchange
        if let existing = conCls.pointee {
            exchange = Unmanaged<RequestExchange>.fromOpaque(existing).takeUnretainedValue()
        } else {
            // The URI callback always runs first; this only guards against a libmicrohttpd that skips it.
            exchange = context.exchangeStarted(rawTarget: url.map { String(cString: $0) } ?? "/")
            conCls.pointee = Unmanaged.passRetained(exchange).toOpaque()
        }
        return context.advance(exchange, connection: connection, method: method.map { String(cString: $0) } ?? "",
                               version: version.map { String(cString: $0) } ?? "", uploadData: uploadData,
                               uploadDataSize: uploadDataSize)
    }

    /// `MHD_OPTION_NOTIFY_COMPLETED`: the request is over (answered, client gone, timed out or daemon stopping).
    /// Releases the per-request state exactly once and clears the pointer so nothing can reach it again.
    static func requestCompleted(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                                 _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                                 _ termination: MHD_RequestTerminationCode) {
        guard let context = context(cls), let conCls, let raw = conCls.pointee else { return }
        conCls.pointee = nil
        let exchange = Unmanaged<RequestExchange>.fromOpaque(raw).takeRetainedValue()
        context.exchangeCompleted(exchange, termination: termination)
    }

    /// `MHD_OPTION_EXTERNAL_LOGGER`: routes libmicrohttpd's own messages to the structured logger.
    static func log(_ cls: UnsafeMutableRawPointer?, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?) {
        guard let context = context(cls), let format, let arguments else { return }
        var buffer = [CChar](repeating: 0, count: 512)
        _ = vsnprintf(&buffer, buffer.count, format, arguments)
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let message = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        context.logger.info("libmicrohttpd: \(message)")
    }
}
