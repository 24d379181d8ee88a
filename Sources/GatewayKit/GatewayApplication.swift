import Credentials
import Foundation
import HTTPServer
import KYCCore
import KYCMessages

/// The gateway's HTTP handler: request id, route lookup, authentication, then either a local answer or a
/// translation to a service request over the broker and back. Every answer is JSON; every error has the shape
/// `{"error":{"code","message","field"},"requestId"}`.
public final class GatewayApplication: HTTPHandler {
    public let routes: RouteTable
    public let metrics: GatewayMetrics
    private let credentials: CredentialStore
    private let dispatcher: any ServiceDispatcher
    private let configuration: GatewayConfiguration
    private let logger: Logger

    public init(configuration: GatewayConfiguration, credentials: CredentialStore, dispatcher: any ServiceDispatcher,
                metrics: GatewayMetrics = GatewayMetrics(), logger: Logger) {
        self.configuration = configuration
        self.credentials = credentials
        self.dispatcher = dispatcher
        self.metrics = metrics
        self.logger = logger
        let dependencies = GatewayDependencies(configuration: configuration, credentials: credentials,
                                               dispatcher: dispatcher, metrics: metrics)
        self.routes = GatewayRoutes.table(dependencies)
    }

    public func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        let started = MonotonicClock.nowNanoseconds()
        let requestID = RequestID.accept(request.header("x-request-id"))
        let logger = self.logger
        let metrics = self.metrics

        var routeLabel = "unmatched"
        let finish: @Sendable (String, HTTPResponse) -> Void = { label, response in
            let seconds = Double(MonotonicClock.nowNanoseconds() - started) / 1e9
            metrics.record(route: label, method: request.method, status: response.status, seconds: seconds)
            if logger.isEnabled(.info) {
                logger.info("request", ["request.id": requestID, "http.method": request.method,
                                        "http.path": request.path, "http.status": String(response.status),
                                        "duration.ms": String(format: "%.3f", seconds * 1000)])
            }
            respond(response)
        }

        switch routes.lookup(method: request.method, path: request.path) {
        case .notFound:
            finish(routeLabel, Self.errorResponse(APIError(status: 404, code: "route_not_found",
                                                           message: "no route for \(request.path)", field: "path"),
                                                  requestID: requestID))
        case let .methodNotAllowed(allowed):
            var response = Self.errorResponse(
                APIError(status: 405, code: "method_not_allowed",
                         message: "\(request.method) is not allowed here; use \(allowed.joined(separator: ", "))",
                         field: "method"), requestID: requestID)
            response.headers.append(("Allow", allowed.joined(separator: ", ")))
            finish(routeLabel, response)
        case let .found(route, parameters):
            routeLabel = route.pattern
            let label = routeLabel
            do {
                try checkBodyLimit(request, route: route)
                let caller = try authenticate(request, access: route.access)
                let context = RouteContext(request: request, requestID: requestID, caller: caller,
                                           pathParameters: parameters)
                switch route.action {
                case let .local(body):
                    finish(label, Self.response(try body(context), requestID: requestID))
                case let .service(call):
                    try forward(call, context: context) { response in finish(label, response) }
                }
            } catch let error as APIError {
                finish(label, Self.errorResponse(error, requestID: requestID))
            } catch {
                logger.error("unexpected error in route", ["request.id": requestID, "route": label,
                                                           "error": String(describing: error)])
                finish(label, Self.errorResponse(APIError(status: 500, code: "internal", message: "internal error"),
                                                 requestID: requestID))
            }
        }
    }

    /// Builds the service request, sends it through the broker, and answers when the reply arrives (the HTTP
    /// connection stays suspended meanwhile).
    private func forward(_ call: ServiceCall, context: RouteContext,
                         respond: @escaping @Sendable (HTTPResponse) -> Void) throws {
        let payload = try call.buildPayload(context)
        let envelope = RequestEnvelope(
            requestID: context.requestID, traceID: context.request.header("traceparent") ?? context.requestID,
            tenant: context.caller?.tenant ?? "", principal: Self.principal(context.caller),
            deadlineUnixMs: WallClock.nowMilliseconds() + Int64(configuration.requestTimeoutMilliseconds),
            method: call.method, payload: payload)
        let logger = self.logger
        dispatcher.dispatch(service: call.service, envelope: envelope) { reply in
            guard reply.status == .ok else {
                respond(Self.errorResponse(APIError(reply: reply), requestID: context.requestID))
                return
            }
            do {
                respond(Self.response(try call.renderResponse(reply.payload, context), requestID: context.requestID))
            } catch let error as APIError {
                respond(Self.errorResponse(error, requestID: context.requestID))
            } catch {
                logger.error("service reply could not be rendered", ["request.id": context.requestID,
                                                                     "rpc.method": call.method,
                                                                     "error": String(describing: error)])
                respond(Self.errorResponse(APIError(status: 502, code: "bad_service_reply",
                                                    message: "the service answered something unreadable"),
                                           requestID: context.requestID))
            }
        }
    }

    /// The HTTP server admits bodies up to the largest limit of any route; each route then gets its own.
    private func checkBodyLimit(_ request: HTTPRequest, route: Route) throws {
        let limit = switch route.bodyLimit {
        case .standard: configuration.maxBodyBytes
        case .upload: configuration.maxUploadBytes
        case let .bytes(count): count
        }
        guard request.body.count <= limit else {
            throw APIError(status: 413, code: "payload_too_large",
                           message: "the request body is larger than \(limit) bytes", field: "body")
        }
    }

    private func authenticate(_ request: HTTPRequest, access: RouteAccess) throws -> AuthenticatedCaller? {
        if access == .open { return nil }
        guard let header = request.header("authorization") else { throw APIError.missingCredentials }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIError(status: 401, code: "unauthenticated", message: "use the Bearer scheme",
                           field: "Authorization")
        }
        let caller: AuthenticatedCaller?
        do {
            caller = try credentials.authenticate(bearer: parts[1].trimmingHTTPWhitespace())
        } catch {
            logger.error("credential lookup failed", ["error": String(describing: error)])
            throw APIError(status: 503, code: "credentials_unavailable", message: "credential store unavailable")
        }
        guard let caller else { throw APIError.invalidCredentials }
        switch access {
        case .open:
            break
        case let .apiKey(scope):
            guard caller.kind == .apiKey else {
                throw APIError(status: 403, code: "api_key_required",
                               message: "this route is for customer backends: use an API key", field: "Authorization")
            }
            try require(scope, of: caller)
        case let .apiKeyOrSession(sessionScope):
            if caller.kind == .apiKey {
                try require(Scope.backend, of: caller)
            } else if let sessionScope {
                try require(sessionScope, of: caller)
            }
        }
        return caller
    }

    private func require(_ scope: String, of caller: AuthenticatedCaller) throws {
        guard caller.scopes.contains(scope) else {
            let what = caller.kind == .apiKey ? "API key" : "session token"
            throw APIError(status: 403, code: "insufficient_scope", message: "this \(what) lacks the '\(scope)' scope",
                           field: "Authorization")
        }
    }

    static func principal(_ caller: AuthenticatedCaller?) -> Principal {
        guard let caller else { return Principal() }
        let identity = caller.identity.map {
            Identity(identityType: $0.identityType, identityNo: $0.identityNo, name: $0.name, surname: $0.surname,
                     isPriorityCustomer: $0.isPriorityCustomer)
        }
        return Principal(kind: caller.kind == .apiKey ? .apiKey : .session, id: caller.id, scopes: caller.scopes,
                         identity: identity, businessUID: caller.businessUID ?? "")
    }

    static func response(_ route: RouteResponse, requestID: String) -> HTTPResponse {
        if let text = route.text {
            return HTTPResponse(status: route.status, headers: [("Content-Type", text.contentType),
                                                                ("X-Request-Id", requestID)] + route.headers,
                                body: text.body)
        }
        return HTTPResponse(status: route.status,
                            headers: [("Content-Type", "application/json"), ("X-Request-Id", requestID)]
                                + route.headers,
                            body: (route.body ?? .object([])).encoded())
    }

    /// The JSON error response for `error`.
    public static func errorResponse(_ error: APIError, requestID: String) -> HTTPResponse {
        HTTPResponse(status: error.status, headers: [("Content-Type", "application/json"), ("X-Request-Id", requestID)],
                     body: error.json(requestID: requestID).encoded())
    }
}

/// What route handlers may use.
struct GatewayDependencies: Sendable {
    let configuration: GatewayConfiguration
    let credentials: CredentialStore
    let dispatcher: any ServiceDispatcher
    let metrics: GatewayMetrics
}
