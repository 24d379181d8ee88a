import Storage
import Webhooks

/// The tables of `signing.sqlite`. Released migrations are never edited; a change is a new migration.
public enum SigningSchema {
    public static let migrations: [Migration] = [
        Migration(version: 1, name: "signing requests, documents, keys, signatures, evidence log, seal key, outbox",
                  sql: """
            CREATE TABLE signing_requests (
                tenant TEXT NOT NULL,
                reference TEXT NOT NULL,
                session_id TEXT NOT NULL,
                callback_url TEXT NOT NULL DEFAULT '',
                request_id TEXT NOT NULL,
                created_at_ms INTEGER NOT NULL,
                expires_at_ms INTEGER NOT NULL,
                sealed_at_ms INTEGER,
                signer_identity_type TEXT,
                signer_identity_no TEXT,
                signer_name TEXT,
                signer_surname TEXT,
                evidence_json BLOB,
                PRIMARY KEY (tenant, reference)
            );
            CREATE UNIQUE INDEX signing_requests_by_request_id ON signing_requests (tenant, request_id)
                WHERE request_id != '';
            CREATE TABLE signing_documents (
                tenant TEXT NOT NULL,
                reference TEXT NOT NULL,
                document_id TEXT NOT NULL,
                position INTEGER NOT NULL,
                name TEXT NOT NULL,
                content_type TEXT NOT NULL,
                sha256 TEXT NOT NULL,
                size_bytes INTEGER NOT NULL,
                content BLOB NOT NULL,
                PRIMARY KEY (tenant, document_id),
                FOREIGN KEY (tenant, reference) REFERENCES signing_requests (tenant, reference)
            );
            CREATE INDEX signing_documents_by_request ON signing_documents (tenant, reference, position);
            CREATE TABLE signing_keys (
                tenant TEXT NOT NULL,
                key_id TEXT NOT NULL,
                mode TEXT NOT NULL CHECK (mode IN ('device', 'platform')),
                algorithm TEXT NOT NULL,
                public_key BLOB,
                fingerprint TEXT NOT NULL,
                secret BLOB,
                reference TEXT,
                session_id TEXT NOT NULL,
                identity_type TEXT NOT NULL DEFAULT '',
                identity_no TEXT NOT NULL DEFAULT '',
                request_id TEXT NOT NULL DEFAULT '',
                created_at_ms INTEGER NOT NULL,
                PRIMARY KEY (tenant, key_id)
            );
            CREATE INDEX signing_keys_by_fingerprint ON signing_keys (tenant, fingerprint);
            CREATE UNIQUE INDEX signing_keys_one_platform_key ON signing_keys (tenant, reference) WHERE mode = 'platform';
            CREATE TABLE signatures (
                tenant TEXT NOT NULL,
                reference TEXT NOT NULL,
                document_id TEXT NOT NULL,
                key_id TEXT NOT NULL,
                algorithm TEXT NOT NULL,
                signature BLOB NOT NULL,
                signed_at_ms INTEGER NOT NULL,
                session_id TEXT NOT NULL,
                PRIMARY KEY (tenant, document_id)
            );
            CREATE TABLE platform_seal_key (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                public_key BLOB NOT NULL,
                secret_key BLOB NOT NULL,
                created_at_ms INTEGER NOT NULL
            );
            """ + EvidenceLog.schemaSQL + Outbox.schemaSQL),
    ]
}
