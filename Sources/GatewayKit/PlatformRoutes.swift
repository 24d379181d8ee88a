import Foundation

/// Health, readiness and metrics: open routes for orchestrators and Prometheus.
enum PlatformRoutes {
    static func routes(_ dependencies: GatewayDependencies) -> [Route] {
        [
            Route("GET", "/healthz", access: .open, action: .local { _ in .json(.object([("status", .string("ok"))])) }),
            Route("GET", "/readyz", access: .open, action: .local { _ in
                readiness(dependencies.dispatcher.snapshot(), required: dependencies.configuration.requiredServices)
            }),
            Route("GET", "/metrics", access: .open, action: .local { _ in
                .plain(dependencies.metrics.render(broker: dependencies.dispatcher.snapshot()),
                       contentType: "text/plain; version=0.0.4; charset=utf-8")
            }),
        ]
    }

    /// 200 when every required service has a live worker, 503 naming the missing ones otherwise.
    static func readiness(_ snapshot: BrokerSnapshot, required: [String]) -> RouteResponse {
        let services: [(String, JSONValue)] = required.map { service in
            (service, .integer(Int64(snapshot.liveWorkers[service] ?? 0)))
        }
        let missing = required.filter { (snapshot.liveWorkers[$0] ?? 0) == 0 }
        let body = JSONValue.object([
            ("status", .string(missing.isEmpty ? "ready" : "not_ready")),
            ("liveWorkers", .object(services)),
            ("missing", .array(missing.map(JSONValue.string))),
        ])
        return .json(body, status: missing.isEmpty ? 200 : 503)
    }
}
