import Foundation
import KYCCore
import KYCMessages
import Messaging
import Storage
import Webhooks

/// WebhookService's state in `webhooks.sqlite`: per-tenant endpoints and secrets, events (de-duplicated by id),
/// deliveries and their attempts. Every read and write names its tenant. Thread-safe (`Database` is).
public final class WebhookStore: Sendable {
    public let database: Database

    /// Opens (creating and migrating) the database at `path`.
    public convenience init(path: String, logger: Logger? = nil) throws {
        try self.init(database: Database(path: path), logger: logger)
    }

    /// Uses an open database, migrating it.
    public init(database: Database, logger: Logger? = nil) throws {
        self.database = database
        try database.migrate(WebhookSchema.migrations, logger: logger)
    }

    /// Closes the database.
    public func close() { database.close() }

    // MARK: Endpoints

    /// Sets the tenant's endpoint to `url` (validated) with a new secret, replacing any previous one; returns the
    /// secret, which is not retrievable afterwards. Pending deliveries go to the new URL, signed with the new secret.
    public func setEndpoint(tenant: String, url: String, now: Int64) throws -> SetEndpointReply {
        let url = try WebhookEndpointURL.validate(url)
        let secret = WebhookSignature.generateSecret()
        try database.execute(
            """
            INSERT INTO endpoints (tenant, url, secret, updated_at_ms) VALUES (?, ?, ?, ?)
            ON CONFLICT (tenant) DO UPDATE SET url = excluded.url, secret = excluded.secret,
                updated_at_ms = excluded.updated_at_ms
            """, [.text(tenant), .text(url), .text(secret), .integer(now)])
        return SetEndpointReply(url: url, secret: secret, updatedAtUnixMs: now)
    }

    /// The tenant's endpoint (URL and secret), or nil.
    public func endpoint(tenant: String) throws -> (url: String, secret: String, updatedAt: Int64)? {
        guard let row = try database.queryOne("SELECT url, secret, updated_at_ms FROM endpoints WHERE tenant = ?",
                                              [.text(tenant)]) else { return nil }
        return (try row.string("url"), try row.string("secret"), try row.int("updated_at_ms"))
    }

    // MARK: Events

    /// Records an event once (by event id) and, when the tenant has an endpoint, a delivery due now. Publishing the
    /// same event id again changes nothing and answers `created: false` with the original delivery id.
    public func publish(tenant: String, _ request: PublishRequest, now: Int64) throws -> PublishReply {
        try Self.validate(tenant: tenant, request)
        return try database.transaction { transaction in
            if let existing = try transaction.queryOne(
                "SELECT tenant FROM events WHERE event_id = ?", [.text(request.eventID)]) {
                guard try existing.string("tenant") == tenant else {
                    throw ServiceError.conflict(code: "event_id_conflict",
                                                message: "this event id belongs to another tenant", resourceExists: true)
                }
                let delivery = try transaction.queryOne(
                    "SELECT delivery_id FROM deliveries WHERE event_id = ? ORDER BY sequence LIMIT 1",
                    [.text(request.eventID)])
                return PublishReply(created: false, deliveryID: try delivery?.string("delivery_id") ?? "")
            }
            let body = WebhookEventBody.make(type: request.type, occurredAtUnixMs: request.occurredAtUnixMs,
                                             data: request.data)
            try transaction.execute(
                """
                INSERT INTO events (event_id, tenant, type, body, occurred_at_ms, received_at_ms, source_service)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [.text(request.eventID), .text(tenant), .text(request.type), .blob(body),
                      .integer(request.occurredAtUnixMs), .integer(now), .text(request.sourceService)])
            guard try transaction.queryOne("SELECT 1 FROM endpoints WHERE tenant = ?", [.text(tenant)]) != nil else {
                return PublishReply(created: true, deliveryID: "")
            }
            let deliveryID = WebhookIdentifier.make(prefix: "dlv")
            // The retry window runs from the event, as the issue asks ("up to 24 h"), not from its arrival here.
            try transaction.execute(
                """
                INSERT INTO deliveries (delivery_id, tenant, event_id, status, created_at_ms, next_attempt_at_ms,
                    retry_window_started_at_ms)
                VALUES (?, ?, ?, 'pending', ?, ?, ?)
                """, [.text(deliveryID), .text(tenant), .text(request.eventID), .integer(now), .integer(now),
                      .integer(min(request.occurredAtUnixMs, now))])
            return PublishReply(created: true, deliveryID: deliveryID)
        }
    }

    static func validate(tenant: String, _ request: PublishRequest) throws(ServiceError) {
        guard !tenant.isEmpty else {
            throw .invalidArgument(field: "tenant", code: "required", message: "the envelope names no tenant")
        }
        let id = request.eventID
        guard id.hasPrefix("evt_"), id.utf8.count <= 100,
              id.utf8.allSatisfy({ $0.isASCIIIdentifierByte }) else {
            throw .invalidArgument(field: "eventId", code: "invalid_event_id", message: "event id must look like evt_…")
        }
        do {
            try Outbox.validate(tenant: tenant, type: request.type, payload: request.data)
        } catch {
            throw .invalidArgument(field: error.code == .invalidType ? "type" : "data", code: error.code.rawValue,
                                   message: error.message)
        }
        guard request.occurredAtUnixMs > 0 else {
            throw .invalidArgument(field: "occurredAtUnixMs", code: "required", message: "event time is required")
        }
    }

    // MARK: Deliveries

    /// One page of the tenant's deliveries, newest first, each with its attempts.
    public func listDeliveries(tenant: String, _ request: ListDeliveriesRequest) throws -> ListDeliveriesReply {
        let limit = request.limit == 0 ? 20 : Int(request.limit)
        guard (1...100).contains(limit) else {
            throw ServiceError.invalidArgument(field: "limit", code: "out_of_range", message: "limit must be 1 to 100")
        }
        guard request.status.isEmpty || DeliveryStatus(rawValue: request.status) != nil else {
            throw ServiceError.invalidArgument(field: "status", code: "invalid_status",
                                               message: "status must be pending, delivered or dead_letter")
        }
        var before = Int64.max
        if !request.cursor.isEmpty {
            guard let value = Self.decodeCursor(request.cursor) else {
                throw ServiceError.invalidArgument(field: "cursor", code: "invalid_cursor",
                                                   message: "cursor is not one this API returned")
            }
            before = value
        }
        var sql = """
            SELECT d.sequence, d.delivery_id, d.event_id, e.type, d.status, d.attempt_count, d.created_at_ms,
                d.next_attempt_at_ms, d.delivered_at_ms, e.occurred_at_ms
            FROM deliveries d JOIN events e ON e.event_id = d.event_id
            WHERE d.tenant = ? AND d.sequence < ?
            """
        var bindings: [SQLValue] = [.text(tenant), .integer(before)]
        if !request.status.isEmpty {
            sql += " AND d.status = ?"
            bindings.append(.text(request.status))
        }
        if !request.eventType.isEmpty {
            sql += " AND e.type = ?"
            bindings.append(.text(request.eventType))
        }
        sql += " ORDER BY d.sequence DESC LIMIT ?"
        bindings.append(.integer(Int64(limit + 1)))
        let rows = try database.query(sql, bindings)
        var deliveries: [Delivery] = []
        for row in rows.prefix(limit) { deliveries.append(try delivery(from: row)) }
        let nextCursor = rows.count > limit ? Self.encodeCursor(try rows[limit - 1].int("sequence")) : ""
        return ListDeliveriesReply(deliveries: deliveries, nextCursor: nextCursor)
    }

    /// One delivery of the tenant, or nil.
    public func delivery(tenant: String, id: String) throws -> Delivery? {
        guard let row = try database.queryOne(
            """
            SELECT d.sequence, d.delivery_id, d.event_id, e.type, d.status, d.attempt_count, d.created_at_ms,
                d.next_attempt_at_ms, d.delivered_at_ms, e.occurred_at_ms
            FROM deliveries d JOIN events e ON e.event_id = d.event_id
            WHERE d.tenant = ? AND d.delivery_id = ?
            """, [.text(tenant), .text(id)]) else { return nil }
        return try delivery(from: row)
    }

    /// Queues the delivery again, due now, with a fresh retry window (whatever its status: a dead letter, or a
    /// delivered event the customer lost). Not found (also for another tenant's id) → `.notFound`.
    public func redeliver(tenant: String, id: String, now: Int64) throws -> Delivery {
        let changed = try database.execute(
            """
            UPDATE deliveries SET status = 'pending', next_attempt_at_ms = ?, retry_window_started_at_ms = ?,
                dead_lettered_at_ms = NULL
            WHERE tenant = ? AND delivery_id = ?
            """, [.integer(now), .integer(now), .text(tenant), .text(id)])
        guard changed == 1, let delivery = try delivery(tenant: tenant, id: id) else {
            throw ServiceError(status: .notFound, code: "delivery_not_found", message: "no such delivery")
        }
        return delivery
    }

    private func delivery(from row: Row) throws -> Delivery {
        let id = try row.string("delivery_id")
        let attempts = try database.query(
            """
            SELECT number, attempted_at_ms, http_status, error, duration_ms, url FROM attempts
            WHERE delivery_id = ? ORDER BY number
            """, [.text(id)]
        ).map { attempt in
            DeliveryAttempt(number: Int32(try attempt.int("number")), attemptedAtUnixMs: try attempt.int("attempted_at_ms"),
                            httpStatus: Int32(try attempt.int("http_status")), error: try attempt.string("error"),
                            durationMs: try attempt.int("duration_ms"), url: try attempt.string("url"))
        }
        let status = try row.string("status")
        return Delivery(
            deliveryID: id, eventID: try row.string("event_id"), eventType: try row.string("type"), status: status,
            attemptCount: Int32(try row.int("attempt_count")), createdAtUnixMs: try row.int("created_at_ms"),
            nextAttemptAtUnixMs: status == DeliveryStatus.pending.rawValue ? try row.optionalInt("next_attempt_at_ms") ?? 0 : 0,
            deliveredAtUnixMs: try row.optionalInt("delivered_at_ms") ?? 0, attempts: attempts,
            eventOccurredAtUnixMs: try row.int("occurred_at_ms"))
    }

    // Cursors are opaque to clients; a prefix keeps them from being mistaken for ids.
    static func encodeCursor(_ sequence: Int64) -> String { "c\(sequence)" }

    static func decodeCursor(_ cursor: String) -> Int64? {
        guard cursor.hasPrefix("c"), let value = Int64(cursor.dropFirst()), value > 0 else { return nil }
        return value
    }

    // MARK: For the dispatcher

    /// A delivery claimed for one attempt.
    struct ClaimedDelivery: Sendable {
        let deliveryID: String
        let tenant: String
        let eventID: String
        let body: [UInt8]
        let attemptCount: Int
        let windowStart: Int64
        let url: String
        let secret: String
    }

    /// Claims up to `limit` pending deliveries due at `now`: their next attempt moves to `now + lease`, so another
    /// dispatcher (thread or process) does not take them meanwhile, and a crash mid-attempt makes them due again
    /// after the lease.
    func claimDue(now: Int64, limit: Int, leaseMilliseconds: Int64) throws -> [ClaimedDelivery] {
        try database.transaction { transaction in
            let rows = try transaction.query(
                """
                SELECT d.delivery_id, d.tenant, d.event_id, d.attempt_count, d.retry_window_started_at_ms, e.body,
                    p.url, p.secret
                FROM deliveries d JOIN events e ON e.event_id = d.event_id JOIN endpoints p ON p.tenant = d.tenant
                WHERE d.status = 'pending' AND d.next_attempt_at_ms <= ?
                ORDER BY d.next_attempt_at_ms, d.sequence LIMIT ?
                """, [.integer(now), .integer(Int64(limit))])
            var claimed: [ClaimedDelivery] = []
            for row in rows {
                let id = try row.string("delivery_id")
                try transaction.execute("UPDATE deliveries SET next_attempt_at_ms = ? WHERE delivery_id = ?",
                                        [.integer(now + leaseMilliseconds), .text(id)])
                claimed.append(ClaimedDelivery(
                    deliveryID: id, tenant: try row.string("tenant"), eventID: try row.string("event_id"),
                    body: try row.blob("body"), attemptCount: Int(try row.int("attempt_count")),
                    windowStart: try row.int("retry_window_started_at_ms"), url: try row.string("url"),
                    secret: try row.string("secret")))
            }
            return claimed
        }
    }

    /// Records one attempt and its consequence, in one transaction.
    func recordAttempt(_ claimed: ClaimedDelivery, attempt: DeliveryAttempt, outcome: AttemptConsequence) throws {
        try database.transaction { transaction in
            try transaction.execute(
                """
                INSERT INTO attempts (delivery_id, number, attempted_at_ms, http_status, error, duration_ms, url)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [.text(claimed.deliveryID), .integer(Int64(attempt.number)), .integer(attempt.attemptedAtUnixMs),
                      .integer(Int64(attempt.httpStatus)), .text(attempt.error), .integer(attempt.durationMs),
                      .text(attempt.url)])
            switch outcome {
            case let .delivered(at):
                try transaction.execute(
                    """
                    UPDATE deliveries SET status = 'delivered', attempt_count = ?, delivered_at_ms = ?,
                        next_attempt_at_ms = NULL WHERE delivery_id = ?
                    """, [.integer(Int64(attempt.number)), .integer(at), .text(claimed.deliveryID)])
            case let .retry(at):
                try transaction.execute(
                    "UPDATE deliveries SET attempt_count = ?, next_attempt_at_ms = ? WHERE delivery_id = ?",
                    [.integer(Int64(attempt.number)), .integer(at), .text(claimed.deliveryID)])
            case let .deadLetter(at):
                try transaction.execute(
                    """
                    UPDATE deliveries SET status = 'dead_letter', attempt_count = ?, dead_lettered_at_ms = ?,
                        next_attempt_at_ms = NULL WHERE delivery_id = ?
                    """, [.integer(Int64(attempt.number)), .integer(at), .text(claimed.deliveryID)])
            }
        }
    }

    enum AttemptConsequence: Equatable {
        case delivered(at: Int64)
        case retry(at: Int64)
        case deadLetter(at: Int64)
    }

    /// The earliest next attempt of any pending delivery, or nil (for the dispatcher's sleep).
    func nextDueTime() throws -> Int64? {
        try database.queryOne("SELECT min(next_attempt_at_ms) AS due FROM deliveries WHERE status = 'pending'")?
            .optionalInt("due")
    }
}

/// A delivery's state.
public enum DeliveryStatus: String, Sendable {
    case pending
    case delivered
    case deadLetter = "dead_letter"
}

extension UInt8 {
    /// `A-Z a-z 0-9 _ -`.
    fileprivate var isASCIIIdentifierByte: Bool {
        (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A) || (self >= 0x30 && self <= 0x39)
            || self == 0x5F || self == 0x2D
    }
}
