import KYCCore
import Credentials
import KYCMessages

/// Webhook endpoint and delivery routes (issue #6) → WebhookService.
///
/// - `PUT /v1/admin/webhook` (admin API key) `{url}` → `{url, secret, updatedAt}`: the secret is shown only here.
/// - `GET /v1/admin/webhook` (admin API key) → `{url, updatedAt}` (never the secret).
/// - `GET /v1/webhooks/deliveries[?status=&eventType=&limit=&cursor=]` (API key) → `{deliveries, nextCursor}`.
/// - `POST /v1/webhooks/deliveries/{deliveryId}/redeliver` (API key) → `{delivery}` (queued again, due now).
enum WebhookRoutes {
    static func routes() -> [Route] {
        [
            Route("PUT", "/v1/admin/webhook", access: .apiKey(scope: Scope.admin), action: .service(ServiceCall(
                service: "webhook", method: "webhook.SetEndpoint",
                buildPayload: { context in
                    let fields = JSONFieldReader(try context.jsonBody())
                    return SetEndpointRequest(url: try fields.requiredString("url", maxLength: 2_048)).serialized()
                },
                renderReply: { payload, _ in
                    let reply = try SetEndpointReply(serialized: payload)
                    return .object([("url", .string(reply.url)), ("secret", .string(reply.secret)),
                                    ("updatedAt", .string(UTCTimestamp.iso8601(milliseconds: reply.updatedAtUnixMs)))])
                }))),
            Route("GET", "/v1/admin/webhook", access: .apiKey(scope: Scope.admin), action: .service(ServiceCall(
                service: "webhook", method: "webhook.GetEndpoint",
                buildPayload: { _ in [] },
                renderReply: { payload, _ in
                    let reply = try GetEndpointReply(serialized: payload)
                    return .object([("url", .string(reply.url)),
                                    ("updatedAt", .string(UTCTimestamp.iso8601(milliseconds: reply.updatedAtUnixMs)))])
                }))),
            Route("GET", "/v1/webhooks/deliveries", access: .apiKey(scope: Scope.backend), action: .service(ServiceCall(
                service: "webhook", method: "webhook.ListDeliveries",
                buildPayload: { context in
                    let query = context.request.query
                    var limit: Int32 = 0
                    if let text = query["limit"], !text.isEmpty {
                        guard let value = Int32(text), (1...100).contains(value) else {
                            throw APIError.invalidField("limit", "out_of_range", "limit must be a whole number 1 to 100")
                        }
                        limit = value
                    }
                    let status = query["status"] ?? ""
                    guard ["", "pending", "delivered", "dead_letter"].contains(status) else {
                        throw APIError.invalidField("status", "invalid_status",
                                                    "status must be pending, delivered or dead_letter")
                    }
                    let eventType = query["eventType"] ?? ""
                    let cursor = query["cursor"] ?? ""
                    guard eventType.utf8.count <= 100 else {
                        throw APIError.invalidField("eventType", "too_long", "eventType is too long")
                    }
                    guard cursor.utf8.count <= 40 else {
                        throw APIError.invalidField("cursor", "invalid_cursor", "cursor is not one this API returned")
                    }
                    return ListDeliveriesRequest(status: status, eventType: eventType, limit: limit, cursor: cursor)
                        .serialized()
                },
                renderReply: { payload, _ in
                    let reply = try ListDeliveriesReply(serialized: payload)
                    return .object([("deliveries", .array(reply.deliveries.map(deliveryJSON))),
                                    ("nextCursor", reply.nextCursor.isEmpty ? .null : .string(reply.nextCursor))])
                }))),
            Route("POST", "/v1/webhooks/deliveries/{deliveryId}/redeliver", access: .apiKey(scope: Scope.backend),
                  action: .service(ServiceCall(
                    service: "webhook", method: "webhook.Redeliver",
                    buildPayload: { context in
                        let id = context.pathParameters["deliveryId"] ?? ""
                        guard id.utf8.count <= 100 else {
                            throw APIError(status: 404, code: "delivery_not_found", message: "no such delivery")
                        }
                        return RedeliverRequest(deliveryID: id).serialized()
                    },
                    renderReply: { payload, _ in
                        let reply = try RedeliverReply(serialized: payload)
                        return .object([("delivery", deliveryJSON(reply.delivery))])
                    }))),
        ]
    }

    static func deliveryJSON(_ delivery: Delivery) -> JSONValue {
        func time(_ milliseconds: Int64) -> JSONValue {
            milliseconds == 0 ? .null : .string(UTCTimestamp.iso8601(milliseconds: milliseconds))
        }
        return .object([
            ("deliveryId", .string(delivery.deliveryID)),
            ("eventId", .string(delivery.eventID)),
            ("eventType", .string(delivery.eventType)),
            ("status", .string(delivery.status)),
            ("attemptCount", .integer(Int64(delivery.attemptCount))),
            ("eventOccurredAt", time(delivery.eventOccurredAtUnixMs)),
            ("createdAt", time(delivery.createdAtUnixMs)),
            ("nextAttemptAt", time(delivery.nextAttemptAtUnixMs)),
            ("deliveredAt", time(delivery.deliveredAtUnixMs)),
            ("attempts", .array(delivery.attempts.map { attempt in
                .object([
                    ("number", .integer(Int64(attempt.number))),
                    ("attemptedAt", time(attempt.attemptedAtUnixMs)),
                    ("httpStatus", attempt.httpStatus == 0 ? .null : .integer(Int64(attempt.httpStatus))),
                    ("error", attempt.error.isEmpty ? .null : .string(attempt.error)),
                    ("durationMs", .integer(attempt.durationMs)),
                    ("url", .string(attempt.url)),
                ])
            })),
        ])
    }
}
