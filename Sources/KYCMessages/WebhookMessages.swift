// Swift values for proto/webhook.proto (WebhookService), encoded and decoded through the protobuf-c code in CKYCProto.
// C structs never leave this file.
import CKYCProto
import CProtobufC

/// `webhook.Publish`: one event from a service's outbox; the tenant travels in the envelope.
public struct PublishRequest: WireMessage, Equatable {
    /// `evt_…`, the de-duplication key.
    public var eventID: String
    /// e.g. `signing.completed`.
    public var type: String
    /// The event's JSON `data` object, UTF-8.
    public var data: [UInt8]
    public var occurredAtUnixMs: Int64
    public var sourceService: String

    public init(eventID: String = "", type: String = "", data: [UInt8] = [], occurredAtUnixMs: Int64 = 0,
                sourceService: String = "") {
        self.eventID = eventID
        self.type = type
        self.data = data
        self.occurredAtUnixMs = occurredAtUnixMs
        self.sourceService = sourceService
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__PublishRequest.self)
        kyc__v1__publish_request__init(message)
        message.pointee.event_id = arena.string(eventID)
        message.pointee.type = arena.string(type)
        message.pointee.data = arena.bytes(data)
        message.pointee.occurred_at_unix_ms = occurredAtUnixMs
        message.pointee.source_service = arena.string(sourceService)
        return pack(message, size: { kyc__v1__publish_request__get_packed_size($0) },
                    pack: { kyc__v1__publish_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "PublishRequest",
                          unpack: { kyc__v1__publish_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__publish_request__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            return PublishRequest(eventID: CRead.string(c.event_id), type: CRead.string(c.type),
                                  data: CRead.bytes(c.data), occurredAtUnixMs: c.occurred_at_unix_ms,
                                  sourceService: CRead.string(c.source_service))
        }
    }
}

public struct PublishReply: WireMessage, Equatable {
    /// False when the event id was already known (a redelivered Publish).
    public var created: Bool
    /// Empty when the tenant has no endpoint.
    public var deliveryID: String

    public init(created: Bool = false, deliveryID: String = "") {
        self.created = created
        self.deliveryID = deliveryID
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__PublishReply.self)
        kyc__v1__publish_reply__init(message)
        message.pointee.created = created ? 1 : 0
        message.pointee.delivery_id = arena.string(deliveryID)
        return pack(message, size: { kyc__v1__publish_reply__get_packed_size($0) },
                    pack: { kyc__v1__publish_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "PublishReply",
                          unpack: { kyc__v1__publish_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__publish_reply__free_unpacked($0, nil) }) { message in
            PublishReply(created: message.pointee.created != 0, deliveryID: CRead.string(message.pointee.delivery_id))
        }
    }
}

/// `webhook.SetEndpoint`: sets the tenant's endpoint URL and issues a new secret.
public struct SetEndpointRequest: WireMessage, Equatable {
    public var url: String

    public init(url: String = "") { self.url = url }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__SetEndpointRequest.self)
        kyc__v1__set_endpoint_request__init(message)
        message.pointee.url = arena.string(url)
        return pack(message, size: { kyc__v1__set_endpoint_request__get_packed_size($0) },
                    pack: { kyc__v1__set_endpoint_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "SetEndpointRequest",
                          unpack: { kyc__v1__set_endpoint_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__set_endpoint_request__free_unpacked($0, nil) }) { message in
            SetEndpointRequest(url: CRead.string(message.pointee.url))
        }
    }
}

public struct SetEndpointReply: WireMessage, Equatable {
    public var url: String
    /// `whsec_…`; sent only in this reply.
    public var secret: String
    public var updatedAtUnixMs: Int64

    public init(url: String = "", secret: String = "", updatedAtUnixMs: Int64 = 0) {
        self.url = url
        self.secret = secret
        self.updatedAtUnixMs = updatedAtUnixMs
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__SetEndpointReply.self)
        kyc__v1__set_endpoint_reply__init(message)
        message.pointee.url = arena.string(url)
        message.pointee.secret = arena.string(secret)
        message.pointee.updated_at_unix_ms = updatedAtUnixMs
        return pack(message, size: { kyc__v1__set_endpoint_reply__get_packed_size($0) },
                    pack: { kyc__v1__set_endpoint_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "SetEndpointReply",
                          unpack: { kyc__v1__set_endpoint_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__set_endpoint_reply__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            return SetEndpointReply(url: CRead.string(c.url), secret: CRead.string(c.secret),
                                    updatedAtUnixMs: c.updated_at_unix_ms)
        }
    }
}

/// `webhook.GetEndpoint`: the tenant's endpoint without its secret.
public struct GetEndpointReply: WireMessage, Equatable {
    public var url: String
    public var updatedAtUnixMs: Int64

    public init(url: String = "", updatedAtUnixMs: Int64 = 0) {
        self.url = url
        self.updatedAtUnixMs = updatedAtUnixMs
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__GetEndpointReply.self)
        kyc__v1__get_endpoint_reply__init(message)
        message.pointee.url = arena.string(url)
        message.pointee.updated_at_unix_ms = updatedAtUnixMs
        return pack(message, size: { kyc__v1__get_endpoint_reply__get_packed_size($0) },
                    pack: { kyc__v1__get_endpoint_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "GetEndpointReply",
                          unpack: { kyc__v1__get_endpoint_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__get_endpoint_reply__free_unpacked($0, nil) }) { message in
            GetEndpointReply(url: CRead.string(message.pointee.url),
                             updatedAtUnixMs: message.pointee.updated_at_unix_ms)
        }
    }
}

/// One HTTP attempt of a delivery.
public struct DeliveryAttempt: Sendable, Equatable {
    /// 1-based.
    public var number: Int32
    public var attemptedAtUnixMs: Int64
    /// 0 when there was no HTTP answer.
    public var httpStatus: Int32
    /// Empty on success; `http_<status>`, `timeout`, `connection_failed`, ….
    public var error: String
    public var durationMs: Int64
    public var url: String

    public init(number: Int32 = 0, attemptedAtUnixMs: Int64 = 0, httpStatus: Int32 = 0, error: String = "",
                durationMs: Int64 = 0, url: String = "") {
        self.number = number
        self.attemptedAtUnixMs = attemptedAtUnixMs
        self.httpStatus = httpStatus
        self.error = error
        self.durationMs = durationMs
        self.url = url
    }
}

/// One event's delivery to a tenant's endpoint.
public struct Delivery: Sendable, Equatable {
    /// `dlv_…`.
    public var deliveryID: String
    public var eventID: String
    public var eventType: String
    /// `pending`, `delivered` or `dead_letter`.
    public var status: String
    public var attemptCount: Int32
    public var createdAtUnixMs: Int64
    /// 0 unless pending.
    public var nextAttemptAtUnixMs: Int64
    /// 0 unless delivered.
    public var deliveredAtUnixMs: Int64
    /// Oldest first.
    public var attempts: [DeliveryAttempt]
    public var eventOccurredAtUnixMs: Int64

    public init(deliveryID: String = "", eventID: String = "", eventType: String = "", status: String = "",
                attemptCount: Int32 = 0, createdAtUnixMs: Int64 = 0, nextAttemptAtUnixMs: Int64 = 0,
                deliveredAtUnixMs: Int64 = 0, attempts: [DeliveryAttempt] = [], eventOccurredAtUnixMs: Int64 = 0) {
        self.deliveryID = deliveryID
        self.eventID = eventID
        self.eventType = eventType
        self.status = status
        self.attemptCount = attemptCount
        self.createdAtUnixMs = createdAtUnixMs
        self.nextAttemptAtUnixMs = nextAttemptAtUnixMs
        self.deliveredAtUnixMs = deliveredAtUnixMs
        self.attempts = attempts
        self.eventOccurredAtUnixMs = eventOccurredAtUnixMs
    }

    func cMessage(in arena: CArena) -> UnsafeMutablePointer<Kyc__V1__Delivery> {
        let message = arena.allocate(Kyc__V1__Delivery.self)
        kyc__v1__delivery__init(message)
        message.pointee.delivery_id = arena.string(deliveryID)
        message.pointee.event_id = arena.string(eventID)
        message.pointee.event_type = arena.string(eventType)
        message.pointee.status = arena.string(status)
        message.pointee.attempt_count = attemptCount
        message.pointee.created_at_unix_ms = createdAtUnixMs
        message.pointee.next_attempt_at_unix_ms = nextAttemptAtUnixMs
        message.pointee.delivered_at_unix_ms = deliveredAtUnixMs
        message.pointee.event_occurred_at_unix_ms = eventOccurredAtUnixMs
        let array = arena.pointerArray(of: Kyc__V1__DeliveryAttempt.self, count: attempts.count)
        for (index, attempt) in attempts.enumerated() {
            let item = arena.allocate(Kyc__V1__DeliveryAttempt.self)
            kyc__v1__delivery_attempt__init(item)
            item.pointee.number = attempt.number
            item.pointee.attempted_at_unix_ms = attempt.attemptedAtUnixMs
            item.pointee.http_status = attempt.httpStatus
            item.pointee.error = arena.string(attempt.error)
            item.pointee.duration_ms = attempt.durationMs
            item.pointee.url = arena.string(attempt.url)
            array![index] = item
        }
        message.pointee.n_attempts = attempts.count
        message.pointee.attempts = array
        return message
    }

    init(_ message: UnsafeMutablePointer<Kyc__V1__Delivery>) {
        let c = message.pointee
        self.init(
            deliveryID: CRead.string(c.delivery_id), eventID: CRead.string(c.event_id),
            eventType: CRead.string(c.event_type), status: CRead.string(c.status), attemptCount: c.attempt_count,
            createdAtUnixMs: c.created_at_unix_ms, nextAttemptAtUnixMs: c.next_attempt_at_unix_ms,
            deliveredAtUnixMs: c.delivered_at_unix_ms,
            attempts: CRead.messages(c.n_attempts, c.attempts) { item in
                let a = item.pointee
                return DeliveryAttempt(number: a.number, attemptedAtUnixMs: a.attempted_at_unix_ms,
                                       httpStatus: a.http_status, error: CRead.string(a.error),
                                       durationMs: a.duration_ms, url: CRead.string(a.url))
            },
            eventOccurredAtUnixMs: c.event_occurred_at_unix_ms)
    }
}

/// `webhook.ListDeliveries`: one page of the tenant's deliveries, newest first.
public struct ListDeliveriesRequest: WireMessage, Equatable {
    /// Empty for all, else `pending`, `delivered` or `dead_letter`.
    public var status: String
    /// Empty for all.
    public var eventType: String
    /// 1...100; 0 means the default (20).
    public var limit: Int32
    /// `nextCursor` of the previous page.
    public var cursor: String

    public init(status: String = "", eventType: String = "", limit: Int32 = 0, cursor: String = "") {
        self.status = status
        self.eventType = eventType
        self.limit = limit
        self.cursor = cursor
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__ListDeliveriesRequest.self)
        kyc__v1__list_deliveries_request__init(message)
        message.pointee.status = arena.string(status)
        message.pointee.event_type = arena.string(eventType)
        message.pointee.limit = limit
        message.pointee.cursor = arena.string(cursor)
        return pack(message, size: { kyc__v1__list_deliveries_request__get_packed_size($0) },
                    pack: { kyc__v1__list_deliveries_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "ListDeliveriesRequest",
                          unpack: { kyc__v1__list_deliveries_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__list_deliveries_request__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            return ListDeliveriesRequest(status: CRead.string(c.status), eventType: CRead.string(c.event_type),
                                         limit: c.limit, cursor: CRead.string(c.cursor))
        }
    }
}

public struct ListDeliveriesReply: WireMessage, Equatable {
    public var deliveries: [Delivery]
    /// Empty on the last page.
    public var nextCursor: String

    public init(deliveries: [Delivery] = [], nextCursor: String = "") {
        self.deliveries = deliveries
        self.nextCursor = nextCursor
    }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__ListDeliveriesReply.self)
        kyc__v1__list_deliveries_reply__init(message)
        let array = arena.pointerArray(of: Kyc__V1__Delivery.self, count: deliveries.count)
        for (index, delivery) in deliveries.enumerated() { array![index] = delivery.cMessage(in: arena) }
        message.pointee.n_deliveries = deliveries.count
        message.pointee.deliveries = array
        message.pointee.next_cursor = arena.string(nextCursor)
        return pack(message, size: { kyc__v1__list_deliveries_reply__get_packed_size($0) },
                    pack: { kyc__v1__list_deliveries_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "ListDeliveriesReply",
                          unpack: { kyc__v1__list_deliveries_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__list_deliveries_reply__free_unpacked($0, nil) }) { message in
            let c = message.pointee
            return ListDeliveriesReply(deliveries: CRead.messages(c.n_deliveries, c.deliveries) { Delivery($0) },
                                       nextCursor: CRead.string(c.next_cursor))
        }
    }
}

/// `webhook.Redeliver`: queue a delivery again (a dead-lettered one, say), due now.
public struct RedeliverRequest: WireMessage, Equatable {
    public var deliveryID: String

    public init(deliveryID: String = "") { self.deliveryID = deliveryID }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__RedeliverRequest.self)
        kyc__v1__redeliver_request__init(message)
        message.pointee.delivery_id = arena.string(deliveryID)
        return pack(message, size: { kyc__v1__redeliver_request__get_packed_size($0) },
                    pack: { kyc__v1__redeliver_request__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "RedeliverRequest",
                          unpack: { kyc__v1__redeliver_request__unpack(nil, $0, $1) },
                          free: { kyc__v1__redeliver_request__free_unpacked($0, nil) }) { message in
            RedeliverRequest(deliveryID: CRead.string(message.pointee.delivery_id))
        }
    }
}

public struct RedeliverReply: WireMessage, Equatable {
    public var delivery: Delivery

    public init(delivery: Delivery = Delivery()) { self.delivery = delivery }

    public func serialized() -> [UInt8] {
        let arena = CArena()
        let message = arena.allocate(Kyc__V1__RedeliverReply.self)
        kyc__v1__redeliver_reply__init(message)
        message.pointee.delivery = delivery.cMessage(in: arena)
        return pack(message, size: { kyc__v1__redeliver_reply__get_packed_size($0) },
                    pack: { kyc__v1__redeliver_reply__pack($0, $1) })
    }

    public init(serialized bytes: [UInt8]) throws {
        self = try unpack(bytes, as: "RedeliverReply",
                          unpack: { kyc__v1__redeliver_reply__unpack(nil, $0, $1) },
                          free: { kyc__v1__redeliver_reply__free_unpacked($0, nil) }) { message in
            RedeliverReply(delivery: message.pointee.delivery.map { Delivery($0) } ?? Delivery())
        }
    }
}
