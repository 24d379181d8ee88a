import KYCCore
import KYCMessages
import Messaging

/// WebhookService's methods (proto/webhook.proto has the grammar).
public enum WebhookHandlers {
    public static let service = "webhook"
    public static let publish = "webhook.Publish"
    public static let setEndpoint = "webhook.SetEndpoint"
    public static let getEndpoint = "webhook.GetEndpoint"
    public static let listDeliveries = "webhook.ListDeliveries"
    public static let redeliver = "webhook.Redeliver"

    /// Registers every method on `router`. `onWork` runs after a write that made a delivery due (wakes the
    /// dispatcher).
    public static func register(on router: inout ServiceRouter, store: WebhookStore,
                                clock: @escaping WebhookClock = { WallClock.nowMilliseconds() },
                                onWork: @escaping @Sendable () -> Void = {}) {
        router.register(publish) { envelope in
            // Only services (through the broker's client endpoint) publish; gateway calls always carry a principal.
            guard envelope.principal.kind == .unspecified else {
                throw ServiceError(status: .permissionDenied, code: "not_a_service",
                                   message: "events are published by services only")
            }
            let request = try decode(PublishRequest.self, envelope.payload)
            let reply = try store.publish(tenant: envelope.tenant, request, now: clock())
            if reply.created && !reply.deliveryID.isEmpty { onWork() }
            return reply.serialized()
        }
        router.register(setEndpoint) { envelope in
            try requireAPIKey(envelope)
            let request = try decode(SetEndpointRequest.self, envelope.payload)
            return try store.setEndpoint(tenant: try tenant(envelope), url: request.url, now: clock()).serialized()
        }
        router.register(getEndpoint) { envelope in
            try requireAPIKey(envelope)
            guard let endpoint = try store.endpoint(tenant: try tenant(envelope)) else {
                throw ServiceError(status: .notFound, code: "endpoint_not_found",
                                   message: "no webhook endpoint is set for this tenant")
            }
            return GetEndpointReply(url: endpoint.url, updatedAtUnixMs: endpoint.updatedAt).serialized()
        }
        router.register(listDeliveries) { envelope in
            try requireAPIKey(envelope)
            let request = try decode(ListDeliveriesRequest.self, envelope.payload)
            return try store.listDeliveries(tenant: try tenant(envelope), request).serialized()
        }
        router.register(redeliver) { envelope in
            try requireAPIKey(envelope)
            let request = try decode(RedeliverRequest.self, envelope.payload)
            let tenant = try tenant(envelope)
            guard try store.endpoint(tenant: tenant) != nil else {
                throw ServiceError.conflict(code: "endpoint_not_found",
                                            message: "set a webhook endpoint before redelivering")
            }
            let delivery = try store.redeliver(tenant: tenant, id: request.deliveryID, now: clock())
            onWork()
            return RedeliverReply(delivery: delivery).serialized()
        }
    }

    private static func decode<M: WireMessage>(_ type: M.Type, _ payload: [UInt8]) throws -> M {
        do {
            return try M(serialized: payload)
        } catch {
            throw ServiceError(status: .invalidArgument, code: "malformed_payload", message: "malformed request payload")
        }
    }

    private static func tenant(_ envelope: RequestEnvelope) throws -> String {
        guard !envelope.tenant.isEmpty else {
            throw ServiceError(status: .permissionDenied, code: "no_tenant", message: "the caller has no tenant")
        }
        return envelope.tenant
    }

    /// The customer-facing methods answer API keys only (the gateway enforces the scopes per route).
    private static func requireAPIKey(_ envelope: RequestEnvelope) throws {
        guard envelope.principal.kind == .apiKey else {
            throw ServiceError(status: .permissionDenied, code: "api_key_required",
                               message: "this operation needs an API key")
        }
    }
}
