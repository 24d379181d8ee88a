@testable import GatewayKit
import Testing

@Suite("Route table")
struct RouteTableTests {
    let table = RouteTable([
        Route("GET", "/v1/call-types", access: .open, action: .local { _ in .json(.null) }),
        Route("POST", "/v1/sessions", access: .open, action: .local { _ in .json(.null) }),
        Route("DELETE", "/v1/sessions/{sessionId}", access: .open, action: .local { _ in .json(.null) }),
    ])

    @Test func findsLiteralRoutes() {
        guard case let .found(route, parameters) = table.lookup(method: "GET", path: "/v1/call-types") else {
            Issue.record("not found"); return
        }
        #expect(route.pattern == "/v1/call-types")
        #expect(parameters.isEmpty)
    }

    @Test func extractsPathParameters() {
        guard case let .found(_, parameters) = table.lookup(method: "DELETE", path: "/v1/sessions/ses_1") else {
            Issue.record("not found"); return
        }
        #expect(parameters == ["sessionId": "ses_1"])
    }

    @Test func wrongMethodListsTheAllowedOnes() {
        guard case let .methodNotAllowed(allowed) = table.lookup(method: "PUT", path: "/v1/call-types") else {
            Issue.record("expected 405"); return
        }
        #expect(allowed == ["GET"])
    }

    @Test func headIsServedByGet() {
        if case .found = table.lookup(method: "HEAD", path: "/v1/call-types") {} else { Issue.record("HEAD failed") }
    }

    @Test(arguments: ["/", "/v1", "/v1/call-types/extra", "/v1/sessions/a/b", "/v2/call-types"])
    func unknownPathsAreNotFound(path: String) {
        if case .notFound = table.lookup(method: "GET", path: path) {} else { Issue.record("\(path) matched") }
    }

    @Test func trailingSlashMatchesTheSameRoute() {
        if case .found = table.lookup(method: "GET", path: "/v1/call-types/") {} else { Issue.record("no match") }
    }
}
