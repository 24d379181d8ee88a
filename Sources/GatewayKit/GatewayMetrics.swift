import Foundation
import Synchronization

/// Request counters and latency histograms by route, rendered in the Prometheus text format together with the
/// broker's gauges.
public final class GatewayMetrics: Sendable {
    /// Upper bounds of the latency buckets, in seconds.
    public static let latencyBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
                                                  2.5, 5, 10]

    struct RequestKey: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    struct Histogram {
        var bucketCounts = [UInt64](repeating: 0, count: GatewayMetrics.latencyBuckets.count)
        var count: UInt64 = 0
        var sum: Double = 0
    }

    struct State {
        var requests: [RequestKey: UInt64] = [:]
        var latency: [String: Histogram] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// Records one answered request. `route` is the route pattern (or `unmatched`), never the raw path, so label
    /// cardinality stays bounded.
    public func record(route: String, method: String, status: Int, seconds: Double) {
        state.withLock { state in
            state.requests[RequestKey(route: route, method: method, status: status), default: 0] += 1
            var histogram = state.latency[route] ?? Histogram()
            histogram.count += 1
            histogram.sum += seconds
            if let index = Self.latencyBuckets.firstIndex(where: { seconds <= $0 }) {
                histogram.bucketCounts[index] += 1
            }
            state.latency[route] = histogram
        }
    }

    /// Total requests recorded for a route and status; for tests and readiness checks.
    public func count(route: String, status: Int) -> UInt64 {
        state.withLock { state in
            state.requests.filter { $0.key.route == route && $0.key.status == status }.values.reduce(0, +)
        }
    }

    /// The Prometheus exposition text.
    public func render(broker: BrokerSnapshot) -> String {
        let snapshot = state.withLock { $0 }
        var out = ""
        out += "# HELP kyc_http_requests_total HTTP requests answered, by route pattern, method and status.\n"
        out += "# TYPE kyc_http_requests_total counter\n"
        for (key, value) in snapshot.requests.sorted(by: { ($0.key.route, $0.key.method, $0.key.status)
            < ($1.key.route, $1.key.method, $1.key.status) }) {
            out += "kyc_http_requests_total{route=\"\(escape(key.route))\",method=\"\(key.method)\","
                + "status=\"\(key.status)\"} \(value)\n"
        }
        out += "# HELP kyc_http_request_duration_seconds Time from a complete request to its response.\n"
        out += "# TYPE kyc_http_request_duration_seconds histogram\n"
        for (route, histogram) in snapshot.latency.sorted(by: { $0.key < $1.key }) {
            var cumulative: UInt64 = 0
            for (index, bound) in Self.latencyBuckets.enumerated() {
                cumulative += histogram.bucketCounts[index]
                out += "kyc_http_request_duration_seconds_bucket{route=\"\(escape(route))\",le=\"\(bound)\"} "
                    + "\(cumulative)\n"
            }
            out += "kyc_http_request_duration_seconds_bucket{route=\"\(escape(route))\",le=\"+Inf\"} "
                + "\(histogram.count)\n"
            out += "kyc_http_request_duration_seconds_sum{route=\"\(escape(route))\"} \(histogram.sum)\n"
            out += "kyc_http_request_duration_seconds_count{route=\"\(escape(route))\"} \(histogram.count)\n"
        }
        out += "# HELP kyc_broker_live_workers Workers that announced themselves and are heartbeating, by service.\n"
        out += "# TYPE kyc_broker_live_workers gauge\n"
        for (service, count) in broker.liveWorkers.sorted(by: { $0.key < $1.key }) {
            out += "kyc_broker_live_workers{service=\"\(escape(service))\"} \(count)\n"
        }
        out += "# HELP kyc_broker_queue_depth Requests waiting for a free worker, by service.\n"
        out += "# TYPE kyc_broker_queue_depth gauge\n"
        for (service, depth) in broker.queueDepth.sorted(by: { $0.key < $1.key }) {
            out += "kyc_broker_queue_depth{service=\"\(escape(service))\"} \(depth)\n"
        }
        out += "# HELP kyc_broker_requests_in_flight Requests handed to a worker and not yet answered.\n"
        out += "# TYPE kyc_broker_requests_in_flight gauge\n"
        out += "kyc_broker_requests_in_flight \(broker.inFlight)\n"
        return out
    }

    private func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
