import Credentials
import HTTPServer
import KYCMessages

/// Who may call a route.
public enum RouteAccess: Sendable, Equatable {
    /// Anyone (health and metrics).
    case open
    /// A customer backend: an API key carrying `scope` (`backend` or `admin`).
    case apiKey(scope: String)
    /// A customer backend's API key (scope `backend`) or a mobile session token carrying `sessionScope`
    /// (nil: any session).
    case apiKeyOrSession(sessionScope: String?)
}

/// What a route handler is given.
public struct RouteContext: Sendable {
    public let request: HTTPRequest
    public let requestID: String
    public let caller: AuthenticatedCaller?
    public let pathParameters: [String: String]

    /// The request body as a JSON object; `APIError` 400 when it is not one.
    public func jsonBody() throws -> JSONValue {
        do {
            return try JSONValue.parseObject(request.body)
        } catch .notAnObject {
            throw APIError.badRequest("invalid_json", "the body must be a JSON object", field: "body")
        } catch let .malformed(message) {
            throw APIError.badRequest("invalid_json", message, field: "body")
        }
    }
}

/// A response a route produces itself, or renders from a service reply.
public struct RouteResponse: Sendable {
    public var status: Int
    public var body: JSONValue?
    public var text: (contentType: String, body: [UInt8])?
    /// Further header fields (after `Content-Type` and `X-Request-Id`).
    public var headers: [(name: String, value: String)] = []

    public static func json(_ value: JSONValue, status: Int = 200) -> RouteResponse {
        RouteResponse(status: status, body: value, text: nil)
    }

    public static func plain(_ body: String, contentType: String, status: Int = 200) -> RouteResponse {
        RouteResponse(status: status, body: nil, text: (contentType, Array(body.utf8)))
    }

    /// Raw bytes served as they are, e.g. a stored document.
    public static func binary(_ bytes: [UInt8], contentType: String, status: Int = 200,
                              headers: [(name: String, value: String)] = []) -> RouteResponse {
        RouteResponse(status: status, body: nil, text: (contentType, bytes), headers: headers)
    }
}

/// A route answered by a service over the broker: the gateway turns JSON into the service's request message and
/// the reply message back into JSON.
public struct ServiceCall: Sendable {
    public let service: String
    public let method: String
    public let successStatus: Int
    public let buildPayload: @Sendable (RouteContext) throws -> [UInt8]
    /// Turns an OK reply's payload into the whole HTTP answer (status, JSON or raw bytes, headers).
    public let renderResponse: @Sendable ([UInt8], RouteContext) throws -> RouteResponse

    /// A JSON route: the reply renders to a JSON body answered with `successStatus`.
    public init(service: String, method: String, successStatus: Int = 200,
                buildPayload: @escaping @Sendable (RouteContext) throws -> [UInt8],
                renderReply: @escaping @Sendable ([UInt8], RouteContext) throws -> JSONValue) {
        self.service = service
        self.method = method
        self.successStatus = successStatus
        self.buildPayload = buildPayload
        self.renderResponse = { payload, context in .json(try renderReply(payload, context), status: successStatus) }
    }

    /// A route that chooses its whole answer from the reply: a binary body (`RouteResponse.binary`), extra headers,
    /// or a status that depends on the reply (e.g. 201 created vs 409 already exists).
    public init(service: String, method: String,
                buildPayload: @escaping @Sendable (RouteContext) throws -> [UInt8],
                renderResponse: @escaping @Sendable ([UInt8], RouteContext) throws -> RouteResponse) {
        self.service = service
        self.method = method
        self.successStatus = 200
        self.buildPayload = buildPayload
        self.renderResponse = renderResponse
    }
}

public enum RouteAction: Sendable {
    case local(@Sendable (RouteContext) throws -> RouteResponse)
    case service(ServiceCall)
}

/// How large a route's request body may be.
public enum RouteBodyLimit: Sendable, Equatable {
    /// `GatewayConfiguration.maxBodyBytes` (`KYC_MAX_BODY_BYTES`, 1 MiB by default).
    case standard
    /// `GatewayConfiguration.maxUploadBytes` (`KYC_MAX_UPLOAD_BYTES`, 16 MiB by default): routes that take files.
    case upload
    /// A fixed number of bytes.
    case bytes(Int)
}

public struct Route: Sendable {
    public let method: String
    /// Path with `{name}` parameters, e.g. `/v1/sessions/{sessionId}`; also the route's label in metrics.
    public let pattern: String
    public let access: RouteAccess
    public let action: RouteAction
    /// Bodies above this limit are answered 413 `payload_too_large` before the route runs.
    public let bodyLimit: RouteBodyLimit
    let segments: [Segment]

    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    public init(_ method: String, _ pattern: String, access: RouteAccess, bodyLimit: RouteBodyLimit = .standard,
                action: RouteAction) {
        self.method = method
        self.pattern = pattern
        self.access = access
        self.bodyLimit = bodyLimit
        self.action = action
        self.segments = pattern.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast()))
                : .literal(String(part))
        }
    }

    /// The path parameters when `path` matches this route's pattern.
    func match(pathSegments: [Substring]) -> [String: String]? {
        guard pathSegments.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, pathSegments) {
            switch segment {
            case let .literal(text): if text != part { return nil }
            case let .parameter(name):
                if part.isEmpty { return nil }
                parameters[name] = String(part)
            }
        }
        return parameters
    }
}

/// Finds the route for a method and path: 404 when no pattern matches the path, 405 (with the allowed methods) when
/// one does but not for this method.
public struct RouteTable: Sendable {
    public let routes: [Route]

    public init(_ routes: [Route]) { self.routes = routes }

    public enum Lookup {
        case found(Route, [String: String])
        case methodNotAllowed(allowed: [String])
        case notFound
    }

    public func lookup(method: String, path: String) -> Lookup {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        var allowed: [String] = []
        for route in routes {
            guard let parameters = route.match(pathSegments: parts) else { continue }
            if route.method == method || (method == "HEAD" && route.method == "GET") {
                return .found(route, parameters)
            }
            allowed.append(route.method)
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed)
    }
}
