/// One complete HTTP request as the server hands it to an `HTTPHandler`: the body is fully read and every field is
/// already decoded, so handlers never touch libmicrohttpd.
public struct HTTPRequest: Sendable {
    /// The request method as sent, for example `GET` or `POST`.
    public var method: String
    /// The path, percent-decoded, without the query string (`/v1/appointments/42`).
    public var path: String
    /// The query string exactly as sent, without the leading `?` (empty when there is none).
    public var rawQuery: String
    /// Query parameters in the order sent, names and values percent-decoded (`+` reads as a space).
    public var queryItems: [(name: String, value: String)]
    /// Header fields with lower-cased names; repeated fields are joined with `", "` as RFC 9110 allows.
    public var headers: [String: String]
    /// The request body, at most `HTTPServerConfiguration.maxBodyBytes` long.
    public var body: [UInt8]
    /// The client's IP address (`127.0.0.1`, `::1`), or an empty string when unknown.
    public var remoteAddress: String
    /// The protocol version from the request line, for example `HTTP/1.1`.
    public var version: String

    public init(method: String, path: String, rawQuery: String = "", queryItems: [(name: String, value: String)] = [],
                headers: [String: String] = [:], body: [UInt8] = [], remoteAddress: String = "",
                version: String = "HTTP/1.1") {
        self.method = method
        self.path = path
        self.rawQuery = rawQuery
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.version = version
    }

    /// Query parameters by name; when a name repeats, the first value wins.
    public var query: [String: String] {
        var result: [String: String] = [:]
        for item in queryItems where result[item.name] == nil {
            result[item.name] = item.value
        }
        return result
    }

    /// The value of the header field `name`, matched case-insensitively.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}
