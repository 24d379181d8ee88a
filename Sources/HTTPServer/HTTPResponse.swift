/// What a handler answers. The server adds `Content-Length` and the `Date` header itself.
public struct HTTPResponse: Sendable {
    /// The status code, 100...999; anything else is sent as 500.
    public var status: Int
    /// Header fields in the order they are sent. Names and values must not hold CR or LF; such fields are dropped.
    public var headers: [(name: String, value: String)]
    /// The body bytes.
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response whose `Content-Type` is `contentType`.
    public init(status: Int, contentType: String, body: [UInt8], headers: [(name: String, value: String)] = []) {
        self.init(status: status, headers: [("Content-Type", contentType)] + headers, body: body)
    }

    /// A response with a UTF-8 text body.
    public init(status: Int, contentType: String = "text/plain; charset=utf-8", text: String) {
        self.init(status: status, contentType: contentType, body: Array(text.utf8))
    }

    /// The first value of the header field `name`, matched case-insensitively.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }
}
