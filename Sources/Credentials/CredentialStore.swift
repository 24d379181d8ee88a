import Foundation
import KYCCore
import Storage

/// An API key as shown to operators; the secret itself is never stored.
public struct APIKeyRecord: Sendable, Equatable {
    public let keyID: String
    public let tenant: String
    public let scopes: [String]
    public let label: String
    public let createdAt: Int64
    public let revokedAt: Int64?
}

/// The caller an API key or session token stands for.
public struct AuthenticatedCaller: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case apiKey, session }
    public let kind: Kind
    public let tenant: String
    /// API key id or session id.
    public let id: String
    public let scopes: [String]
    /// Sessions only: the identity the customer backend opened the session for.
    public let identity: SessionIdentity?
    /// Sessions only: when the token stops working (ms since the epoch).
    public let expiresAtMs: Int64?
    /// Sessions only: the KYB business the session was opened for.
    public var businessUID: String? = nil
}

public struct SessionIdentity: Sendable, Equatable {
    public var identityType: String
    public var identityNo: String
    public var name: String
    public var surname: String
    /// Declared by the customer backend; appointments put priority customers first.
    public var isPriorityCustomer: Bool

    public init(identityType: String, identityNo: String, name: String, surname: String,
                isPriorityCustomer: Bool = false) {
        self.identityType = identityType
        self.identityNo = identityNo
        self.name = name
        self.surname = surname
        self.isPriorityCustomer = isPriorityCustomer
    }
}

/// A newly opened mobile session; `token` is shown only this once.
public struct IssuedSession: Sendable, Equatable {
    public let sessionID: String
    public let token: String
    public let expiresAtMs: Int64
    public let scopes: [String]
}

/// Tenants, API keys and mobile sessions, kept in the gateway's own SQLite database. Only SHA-256 hashes of secrets
/// are stored; lookups go by hash.
public final class CredentialStore: Sendable {
    /// Session lifetime bounds.
    public static let defaultSessionTTLSeconds = 15 * 60
    public static let maximumSessionTTLSeconds = 24 * 60 * 60

    static let apiKeyPrefix = "kyck_"
    static let sessionTokenPrefix = "kycs_"

    private let database: Database

    public init(database: Database) throws {
        self.database = database
        try database.migrate(Self.migrations)
    }

    /// Opens (creating if needed) the gateway's database, `gateway.sqlite`, under `dataDirectory`.
    public convenience init(dataDirectory: String) throws {
        try self.init(database: Database(path: (dataDirectory as NSString).appendingPathComponent("gateway.sqlite")))
    }

    static let migrations: [Migration] = [
        Migration(version: 1, name: "tenants, api keys, sessions", sql: """
            CREATE TABLE tenants (
                id TEXT PRIMARY KEY,
                created_at INTEGER NOT NULL
            );
            CREATE TABLE api_keys (
                key_id TEXT PRIMARY KEY,
                tenant TEXT NOT NULL REFERENCES tenants(id),
                secret_hash TEXT NOT NULL UNIQUE,
                scopes TEXT NOT NULL,
                label TEXT NOT NULL DEFAULT '',
                created_at INTEGER NOT NULL,
                revoked_at INTEGER
            );
            CREATE INDEX api_keys_by_tenant ON api_keys(tenant);
            CREATE TABLE sessions (
                session_id TEXT PRIMARY KEY,
                tenant TEXT NOT NULL REFERENCES tenants(id),
                token_hash TEXT NOT NULL UNIQUE,
                scopes TEXT NOT NULL,
                identity_type TEXT,
                identity_no TEXT,
                name TEXT,
                surname TEXT,
                created_by TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                revoked_at INTEGER
            );
            CREATE INDEX sessions_by_tenant ON sessions(tenant);
            """),
        Migration(version: 2, name: "session priority flag and KYB business binding", sql: """
            ALTER TABLE sessions ADD COLUMN is_priority_customer INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE sessions ADD COLUMN business_uid TEXT;
            """),
    ]

    // MARK: Tenants and API keys

    /// Tenant ids are short slugs: lowercase letters, digits and `-`, 2 to 63 characters, starting with a letter.
    public static func isValidTenantID(_ id: String) -> Bool {
        guard (2...63).contains(id.count), let first = id.unicodeScalars.first, ("a"..."z").contains(first) else {
            return false
        }
        return id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// Creates a key for `tenant` (creating the tenant if new) and returns the key record and the secret, which is
    /// not stored and cannot be shown again.
    public func createAPIKey(tenant: String, admin: Bool, label: String = "",
                             now: Int64 = WallClock.nowMilliseconds()) throws -> (record: APIKeyRecord, secret: String) {
        guard Self.isValidTenantID(tenant) else {
            throw CredentialError(.invalidTenant, field: "tenant",
                                  "tenant ids are 2-63 characters of a-z, 0-9 and '-', starting with a letter")
        }
        let secret = SecretToken.generate(prefix: Self.apiKeyPrefix)
        let keyID = SecretToken.identifier(prefix: "key_")
        let scopes = admin ? [Scope.backend, Scope.admin] : [Scope.backend]
        try database.transaction { tx in
            _ = try tx.execute("INSERT OR IGNORE INTO tenants(id, created_at) VALUES (?, ?)",
                               [.text(tenant), .integer(now)])
            _ = try tx.execute("""
                INSERT INTO api_keys(key_id, tenant, secret_hash, scopes, label, created_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """, [.text(keyID), .text(tenant), .text(SecretToken.hash(secret)), .text(scopes.joined(separator: " ")),
                      .text(label), .integer(now)])
        }
        let record = APIKeyRecord(keyID: keyID, tenant: tenant, scopes: scopes, label: label, createdAt: now,
                                  revokedAt: nil)
        return (record, secret)
    }

    /// Every key of `tenant` (or of all tenants), newest first.
    public func listAPIKeys(tenant: String? = nil) throws -> [APIKeyRecord] {
        let rows = if let tenant {
            try database.query("SELECT * FROM api_keys WHERE tenant = ? ORDER BY created_at DESC", [.text(tenant)])
        } else {
            try database.query("SELECT * FROM api_keys ORDER BY created_at DESC")
        }
        return try rows.map { row in
            APIKeyRecord(keyID: try row.string("key_id"), tenant: try row.string("tenant"),
                         scopes: try row.string("scopes").split(separator: " ").map(String.init),
                         label: try row.string("label"), createdAt: try row.int("created_at"),
                         revokedAt: try row.optionalInt("revoked_at"))
        }
    }

    /// Revokes a key at once; returns false when no such active key exists.
    @discardableResult
    public func revokeAPIKey(keyID: String, now: Int64 = WallClock.nowMilliseconds()) throws -> Bool {
        try database.execute("UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL",
                             [.integer(now), .text(keyID)]) > 0
    }

    // MARK: Authentication

    /// The caller behind a bearer credential, or nil when it is unknown, revoked or expired.
    public func authenticate(bearer token: String, now: Int64 = WallClock.nowMilliseconds()) throws
        -> AuthenticatedCaller? {
        if token.hasPrefix(Self.apiKeyPrefix) {
            guard let row = try database.queryOne(
                "SELECT key_id, tenant, scopes FROM api_keys WHERE secret_hash = ? AND revoked_at IS NULL",
                [.text(SecretToken.hash(token))]) else { return nil }
            return AuthenticatedCaller(kind: .apiKey, tenant: try row.string("tenant"), id: try row.string("key_id"),
                                       scopes: try row.string("scopes").split(separator: " ").map(String.init),
                                       identity: nil, expiresAtMs: nil)
        }
        if token.hasPrefix(Self.sessionTokenPrefix) {
            guard let row = try database.queryOne("""
                SELECT * FROM sessions WHERE token_hash = ? AND revoked_at IS NULL AND expires_at > ?
                """, [.text(SecretToken.hash(token)), .integer(now)]) else { return nil }
            return try sessionCaller(row)
        }
        return nil
    }

    // MARK: Sessions

    /// Opens a mobile session for `tenant`. `scopes` empty means every mobile scope.
    public func openSession(tenant: String, createdBy: String, identity: SessionIdentity?, scopes: [String],
                            ttlSeconds: Int?, businessUID: String? = nil,
                            now: Int64 = WallClock.nowMilliseconds()) throws -> IssuedSession {
        let ttl = ttlSeconds ?? Self.defaultSessionTTLSeconds
        guard (1...Self.maximumSessionTTLSeconds).contains(ttl) else {
            throw CredentialError(.invalidTTL, field: "ttlSeconds",
                                  "ttlSeconds must be between 1 and \(Self.maximumSessionTTLSeconds)")
        }
        if let unknown = scopes.first(where: { !Scope.mobile.contains($0) }) {
            throw CredentialError(.unknownScope, field: "scopes",
                                  "unknown scope '\(unknown)'; known: \(Scope.mobile.joined(separator: ", "))")
        }
        let granted = scopes.isEmpty ? Scope.mobile : Array(Set(scopes)).sorted()
        let sessionID = SecretToken.identifier(prefix: "ses_")
        let token = SecretToken.generate(prefix: Self.sessionTokenPrefix)
        let expiresAt = now + Int64(ttl) * 1000
        func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
        try database.transaction { tx in
            // The tenant exists whenever an API key of it opens a session; creating it here keeps the store
            // consistent for callers (and tests) that open sessions directly.
            _ = try tx.execute("INSERT OR IGNORE INTO tenants(id, created_at) VALUES (?, ?)",
                               [.text(tenant), .integer(now)])
            _ = try tx.execute("""
            INSERT INTO sessions(session_id, tenant, token_hash, scopes, identity_type, identity_no, name, surname,
                                 created_by, created_at, expires_at, is_priority_customer, business_uid)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(sessionID), .text(tenant), .text(SecretToken.hash(token)),
                  .text(granted.joined(separator: " ")), text(identity?.identityType), text(identity?.identityNo),
                  text(identity?.name), text(identity?.surname), .text(createdBy), .integer(now), .integer(expiresAt),
                  .integer(identity?.isPriorityCustomer == true ? 1 : 0), text(businessUID)])
        }
        return IssuedSession(sessionID: sessionID, token: token, expiresAtMs: expiresAt, scopes: granted)
    }

    /// Revokes a session of `tenant`; false when the tenant has no such active session (another tenant's session
    /// looks exactly like a missing one).
    @discardableResult
    public func revokeSession(tenant: String, sessionID: String, now: Int64 = WallClock.nowMilliseconds()) throws
        -> Bool {
        try database.execute("""
            UPDATE sessions SET revoked_at = ? WHERE session_id = ? AND tenant = ? AND revoked_at IS NULL
            """, [.integer(now), .text(sessionID), .text(tenant)]) > 0
    }

    /// The tenant's session `sessionID` while it is active (neither revoked nor expired); nil otherwise, including
    /// for another tenant's session.
    public func activeSession(tenant: String, sessionID: String, now: Int64 = WallClock.nowMilliseconds()) throws
        -> AuthenticatedCaller? {
        guard let row = try database.queryOne("""
            SELECT * FROM sessions WHERE session_id = ? AND tenant = ? AND revoked_at IS NULL AND expires_at > ?
            """, [.text(sessionID), .text(tenant), .integer(now)]) else { return nil }
        return try sessionCaller(row)
    }

    /// Deletes sessions that expired more than `retentionMs` ago; returns how many.
    @discardableResult
    public func purgeExpiredSessions(retentionMs: Int64 = 7 * 24 * 3600 * 1000,
                                     now: Int64 = WallClock.nowMilliseconds()) throws -> Int {
        try database.execute("DELETE FROM sessions WHERE expires_at < ?", [.integer(now - retentionMs)])
    }

    private func sessionCaller(_ row: Row) throws -> AuthenticatedCaller {
        var identity: SessionIdentity?
        if let number = try row.optionalString("identity_no") {
            identity = SessionIdentity(identityType: try row.optionalString("identity_type") ?? "",
                                       identityNo: number, name: try row.optionalString("name") ?? "",
                                       surname: try row.optionalString("surname") ?? "",
                                       isPriorityCustomer: try row.int("is_priority_customer") != 0)
        }
        return AuthenticatedCaller(kind: .session, tenant: try row.string("tenant"), id: try row.string("session_id"),
                                   scopes: try row.string("scopes").split(separator: " ").map(String.init),
                                   identity: identity, expiresAtMs: try row.int("expires_at"),
                                   businessUID: try row.optionalString("business_uid"))
    }
}
