import Storage

/// The schema of `webhooks.sqlite`, WebhookService's own database.
public enum WebhookSchema {
    /// The database file name (without `.sqlite`), for `ServiceProcessConfiguration.databasePath`.
    public static let databaseName = "webhooks"

    public static let migrations: [Migration] = [
        Migration(version: 1, name: "endpoints, events, deliveries, attempts", sql: """
            CREATE TABLE endpoints (
                tenant TEXT PRIMARY KEY,
                url TEXT NOT NULL,
                secret TEXT NOT NULL,
                updated_at_ms INTEGER NOT NULL
            );
            CREATE TABLE events (
                event_id TEXT PRIMARY KEY,
                tenant TEXT NOT NULL,
                type TEXT NOT NULL,
                body BLOB NOT NULL,
                occurred_at_ms INTEGER NOT NULL,
                received_at_ms INTEGER NOT NULL,
                source_service TEXT NOT NULL
            );
            CREATE TABLE deliveries (
                sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                delivery_id TEXT NOT NULL UNIQUE,
                tenant TEXT NOT NULL,
                event_id TEXT NOT NULL REFERENCES events (event_id),
                status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'dead_letter')),
                attempt_count INTEGER NOT NULL DEFAULT 0,
                created_at_ms INTEGER NOT NULL,
                next_attempt_at_ms INTEGER,
                delivered_at_ms INTEGER,
                dead_lettered_at_ms INTEGER,
                retry_window_started_at_ms INTEGER NOT NULL
            );
            CREATE INDEX deliveries_due ON deliveries (next_attempt_at_ms) WHERE status = 'pending';
            CREATE INDEX deliveries_by_tenant ON deliveries (tenant, sequence);
            CREATE TABLE attempts (
                delivery_id TEXT NOT NULL REFERENCES deliveries (delivery_id),
                number INTEGER NOT NULL,
                attempted_at_ms INTEGER NOT NULL,
                http_status INTEGER NOT NULL,
                error TEXT NOT NULL,
                duration_ms INTEGER NOT NULL,
                url TEXT NOT NULL,
                PRIMARY KEY (delivery_id, number)
            );
            """),
    ]
}
