import Foundation
import KYCCore
import Storage

/// The transactional outbox of one service: events written into the service's own database in the same
/// transaction as the state change that causes them, so an event exists if and only if the change committed.
/// An `OutboxRelay` in the same process forwards them to WebhookService.
///
/// Usage: add `Outbox.schemaSQL` to ONE of the service's migrations, then inside a `Database.transaction` body call
/// `Outbox.enqueue(transaction, tenant:type:payload:)`. An invalid event throws, which rolls the whole transaction
/// back: a state change is never committed with an event that could not be delivered.
public enum Outbox {
    /// SQL that creates the outbox table; a service includes it in ONE of its own migrations.
    public static let schemaSQL: String = """
        CREATE TABLE webhook_outbox (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            event_id TEXT NOT NULL UNIQUE,
            tenant TEXT NOT NULL,
            type TEXT NOT NULL,
            payload BLOB NOT NULL,
            created_at_ms INTEGER NOT NULL,
            relayed_at_ms INTEGER,
            relay_attempts INTEGER NOT NULL DEFAULT 0,
            last_error TEXT,
            rejected_at_ms INTEGER
        );
        CREATE INDEX webhook_outbox_unrelayed ON webhook_outbox (sequence)
            WHERE relayed_at_ms IS NULL AND rejected_at_ms IS NULL;
        """

    /// Largest accepted `payload`.
    public static let maxPayloadBytes = 256 * 1024
    /// Longest accepted event type.
    public static let maxTypeLength = 100

    /// Records an event inside the caller's transaction; returns the event id ("evt_…").
    ///
    /// `type` is lowercase dotted words (`signing.completed`); `payload` is the event's JSON `data` object as UTF-8
    /// (at most `maxPayloadBytes`). Throws `OutboxError` for an invalid event and `StorageError` when the table is
    /// missing or the write fails; either way the caller's transaction rolls back.
    @discardableResult
    public static func enqueue(_ transaction: Transaction, tenant: String, type: String, payload: [UInt8],
                               now: Int64 = WallClock.nowMilliseconds()) throws -> String {
        try validate(tenant: tenant, type: type, payload: payload)
        let eventID = WebhookIdentifier.make(prefix: "evt")
        try transaction.execute(
            "INSERT INTO webhook_outbox (event_id, tenant, type, payload, created_at_ms) VALUES (?, ?, ?, ?, ?)",
            [.text(eventID), .text(tenant), .text(type), .blob(payload), .integer(now)])
        return eventID
    }

    /// The checks `enqueue` makes, for callers that want to fail before opening a transaction.
    public static func validate(tenant: String, type: String, payload: [UInt8]) throws(OutboxError) {
        guard !tenant.isEmpty, tenant.utf8.count <= 200 else {
            throw OutboxError(code: .invalidTenant, message: "an event needs a tenant")
        }
        guard isValidType(type) else {
            throw OutboxError(code: .invalidType,
                              message: "event type must be lowercase dotted words, e.g. signing.completed")
        }
        guard payload.count <= maxPayloadBytes else {
            throw OutboxError(code: .payloadTooLarge, message: "event data is larger than \(maxPayloadBytes) bytes")
        }
        guard isJSONObject(payload) else {
            throw OutboxError(code: .invalidPayload, message: "event data must be a JSON object in UTF-8")
        }
    }

    /// `[a-z0-9_]+(\.[a-z0-9_]+)+`, at most `maxTypeLength` characters.
    public static func isValidType(_ type: String) -> Bool {
        guard !type.isEmpty, type.utf8.count <= maxTypeLength else { return false }
        let words = type.split(separator: ".", omittingEmptySubsequences: false)
        guard words.count >= 2 else { return false }
        return words.allSatisfy { word in
            !word.isEmpty && word.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
        }
    }

    /// Whether `bytes` are one JSON object (UTF-8).
    public static func isJSONObject(_ bytes: [UInt8]) -> Bool {
        guard String(validating: bytes, as: UTF8.self) != nil,
              let value = try? JSONSerialization.jsonObject(with: Data(bytes)) else { return false }
        return value is [String: Any]
    }
}

/// Why an event was refused.
public struct OutboxError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable {
        case invalidTenant = "invalid_tenant"
        case invalidType = "invalid_event_type"
        case invalidPayload = "invalid_event_data"
        case payloadTooLarge = "event_data_too_large"
    }

    public let code: Code
    public let message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
