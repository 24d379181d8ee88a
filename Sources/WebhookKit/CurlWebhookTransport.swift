// Webhook POSTs through libcurl's easy interface: one easy handle per attempt (owned by `CurlEasyHandle`, cleaned up
// once), header list owned by `CurlHeaderList`. Every `curl_easy_setopt` goes through `CurlEasyHandle.set`, the one
// funnel that turns a failing CURLcode into a `CurlError` naming the option. No signals (CURLOPT_NOSIGNAL) so that
// timeouts are safe on threads; no redirects; only http and https.
import CCurl
import Foundation

/// Sends webhook POSTs with libcurl.
public struct CurlWebhookTransport: WebhookTransport {
    /// Separate bound on connection set-up within the overall timeout.
    public var connectTimeoutMilliseconds: Int
    public var userAgent: String

    private static let globalInit: Bool = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK }()

    public init(connectTimeoutMilliseconds: Int = 5_000, userAgent: String = "KYC-Suite-Webhooks/1") {
        self.connectTimeoutMilliseconds = connectTimeoutMilliseconds
        self.userAgent = userAgent
    }

    public func post(url: String, headers: [(name: String, value: String)], body: [UInt8], timeoutMilliseconds: Int)
        -> WebhookTransportOutcome
    {
        guard Self.globalInit, let handle = CurlEasyHandle() else {
            return WebhookTransportOutcome(httpStatus: 0, error: "transport_error")
        }
        let headerList = CurlHeaderList(headers.map { "\($0.name): \($0.value)" } + ["Expect:"])
        do {
            try handle.set(CURLOPT_URL, string: url)
            try handle.set(CURLOPT_PROTOCOLS_STR, string: "http,https")
            try handle.set(CURLOPT_NOSIGNAL, 1)
            try handle.set(CURLOPT_FOLLOWLOCATION, 0)
            try handle.set(CURLOPT_POST, 1)
            try handle.set(CURLOPT_TIMEOUT_MS, timeoutMilliseconds)
            try handle.set(CURLOPT_CONNECTTIMEOUT_MS, min(connectTimeoutMilliseconds, timeoutMilliseconds))
            try handle.set(CURLOPT_USERAGENT, string: userAgent)
            try handle.set(CURLOPT_HTTPHEADER, pointer: UnsafeRawPointer(headerList.head))
            // The response body is not needed: read and discarded.
            try handle.discardResponseBody()
            return try body.withUnsafeBufferPointer { buffer in
                // POSTFIELDS is not copied by libcurl; the buffer outlives `perform` inside this closure.
                try handle.set(CURLOPT_POSTFIELDSIZE, buffer.count)
                // (An empty body still needs a valid pointer: a static empty string's, valid for the program's life.)
                let empty: StaticString = ""
                let pointer = buffer.baseAddress.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(empty.utf8Start)
                try handle.set(CURLOPT_POSTFIELDS, pointer: pointer)
                let code = curl_easy_perform(handle.raw)
                guard code == CURLE_OK else { return WebhookTransportOutcome(httpStatus: 0, error: Self.name(code)) }
                return WebhookTransportOutcome(httpStatus: handle.responseCode())
            }
        } catch {
            return WebhookTransportOutcome(httpStatus: 0, error: "transport_error")
        }
    }

    /// A short, stable name for a failed transfer (recorded on the attempt; never the raw library text).
    static func name(_ code: CURLcode) -> String {
        switch code {
        case CURLE_OPERATION_TIMEDOUT: "timeout"
        case CURLE_COULDNT_CONNECT: "connection_failed"
        case CURLE_COULDNT_RESOLVE_HOST: "dns_failed"
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION: "tls_failed"
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING: "send_failed"
        case CURLE_UNSUPPORTED_PROTOCOL: "unsupported_protocol"
        default: "transport_error"
        }
    }
}

/// A libcurl failure: the function (or option) and libcurl's code.
struct CurlError: Error {
    let function: String
    let code: UInt32
}

/// Owns one `CURL *` easy handle; cleaned up once in `deinit`.
final class CurlEasyHandle {
    let raw: UnsafeMutableRawPointer

    init?() {
        guard let raw = curl_easy_init() else { return nil }
        self.raw = raw
    }

    deinit { curl_easy_cleanup(raw) }

    func set(_ option: CURLoption, _ value: Int) throws {
        try check(kyc_curl_setopt_long(raw, option, value), option)
    }

    func set(_ option: CURLoption, pointer: UnsafeRawPointer?) throws {
        try check(kyc_curl_setopt_pointer(raw, option, pointer), option)
    }

    /// libcurl copies string options (since 7.17), so the temporary C string may go away after the call.
    func set(_ option: CURLoption, string: String) throws {
        try string.withCString { try check(kyc_curl_setopt_pointer(raw, option, $0), option) }
    }

    func discardResponseBody() throws {
        let discard: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
            _, size, count, _ in size * count
        }
        try check(kyc_curl_setopt_write_function(raw, discard), CURLOPT_WRITEFUNCTION)
    }

    func responseCode() -> Int {
        var status = 0
        _ = kyc_curl_getinfo_long(raw, CURLINFO_RESPONSE_CODE, &status)
        return status
    }

    /// The one funnel for setopt results.
    private func check(_ code: CURLcode, _ option: CURLoption) throws {
        guard code == CURLE_OK else {
            throw CurlError(function: "curl_easy_setopt(\(option.rawValue))", code: code.rawValue)
        }
    }
}

/// Owns a `curl_slist` of headers; freed once in `deinit`.
final class CurlHeaderList {
    private(set) var head: UnsafeMutablePointer<curl_slist>?

    init(_ lines: [String]) {
        for line in lines {
            if let appended = curl_slist_append(head, line) { head = appended }
        }
    }

    deinit { curl_slist_free_all(head) }
}
