import Credentials
import Foundation
import Storage
import Testing
import TestSupport

@Suite("CredentialStore")
struct CredentialStoreTests {
    let store: CredentialStore
    // Removed when the test's instance of the suite goes away.
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory("credentials")
        path = directory.file("credentials.sqlite")
        store = try CredentialStore(database: Database(path: path))
    }

    @Test func apiKeyAuthenticatesToItsTenantAndScopes() throws {
        let (record, secret) = try store.createAPIKey(tenant: "acme", admin: false)
        #expect(secret.hasPrefix("kyck_"))
        #expect(secret.count > 40)
        let caller = try #require(try store.authenticate(bearer: secret))
        #expect(caller.kind == .apiKey)
        #expect(caller.tenant == "acme")
        #expect(caller.id == record.keyID)
        #expect(caller.scopes == ["backend"])
    }

    @Test func adminKeysCarryTheAdminScope() throws {
        let (_, secret) = try store.createAPIKey(tenant: "acme", admin: true)
        #expect(try store.authenticate(bearer: secret)?.scopes == ["backend", "admin"])
    }

    @Test func onlyTheHashOfTheSecretIsStored() throws {
        let (_, secret) = try store.createAPIKey(tenant: "acme", admin: false)
        let raw = try Data(contentsOf: URL(fileURLWithPath: path))
            + ((try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))) ?? Data())
        #expect(raw.range(of: Data(secret.utf8)) == nil)
        #expect(raw.range(of: Data(SecretToken.hash(secret).utf8)) != nil)
    }

    @Test func unknownAlteredAndRevokedKeysDoNotAuthenticate() throws {
        let (record, secret) = try store.createAPIKey(tenant: "acme", admin: false)
        #expect(try store.authenticate(bearer: "kyck_nope") == nil)
        let altered = String(secret.dropLast()) + (secret.hasSuffix("A") ? "B" : "A")
        #expect(try store.authenticate(bearer: altered) == nil)
        #expect(try store.authenticate(bearer: "Bearer " + secret) == nil)
        #expect(try store.revokeAPIKey(keyID: record.keyID))
        #expect(try store.authenticate(bearer: secret) == nil)
        #expect(try !store.revokeAPIKey(keyID: record.keyID))
    }

    @Test(arguments: ["", "A", "Acme", "acme corp", "1acme", String(repeating: "a", count: 64)])
    func invalidTenantIDsAreRefused(tenant: String) {
        #expect(throws: CredentialError.self) { try store.createAPIKey(tenant: tenant, admin: false) }
    }

    @Test func sessionTokensExpire() throws {
        let session = try store.openSession(tenant: "acme", createdBy: "key_1", identity: nil, scopes: [],
                                            ttlSeconds: 60, now: 1_000_000)
        #expect(session.scopes == ["appointments", "kyb", "signing", "capture"])
        #expect(session.expiresAtMs == 1_060_000)
        #expect(try store.authenticate(bearer: session.token, now: 1_059_999)?.id == session.sessionID)
        #expect(try store.authenticate(bearer: session.token, now: 1_060_000) == nil)
    }

    @Test func sessionsCarryTheirIdentityAndScopes() throws {
        let identity = SessionIdentity(identityType: "TCKN", identityNo: "10000000146", name: "Ayşe", surname: "Yılmaz")
        let session = try store.openSession(tenant: "acme", createdBy: "key_1", identity: identity,
                                            scopes: ["capture"], ttlSeconds: nil)
        let caller = try #require(try store.authenticate(bearer: session.token))
        #expect(caller.kind == .session)
        #expect(caller.identity == identity)
        #expect(caller.scopes == ["capture"])
    }

    @Test func revokingASessionIsScopedToItsTenant() throws {
        let session = try store.openSession(tenant: "acme", createdBy: "key_1", identity: nil, scopes: [],
                                            ttlSeconds: nil)
        #expect(try !store.revokeSession(tenant: "globex", sessionID: session.sessionID))
        #expect(try store.authenticate(bearer: session.token) != nil)
        #expect(try store.revokeSession(tenant: "acme", sessionID: session.sessionID))
        #expect(try store.authenticate(bearer: session.token) == nil)
    }

    @Test(arguments: [0, -5, 24 * 3600 + 1])
    func sessionLifetimeIsBounded(ttl: Int) {
        #expect(throws: CredentialError.self) {
            try store.openSession(tenant: "acme", createdBy: "k", identity: nil, scopes: [], ttlSeconds: ttl)
        }
    }

    @Test func unknownScopesAreRefusedNamingTheField() {
        #expect(throws: CredentialError(.unknownScope, field: "scopes",
                                        "unknown scope 'root'; known: appointments, kyb, signing, capture")) {
            try store.openSession(tenant: "acme", createdBy: "k", identity: nil, scopes: ["root"], ttlSeconds: nil)
        }
    }

    @Test func keysSurviveReopeningTheDatabase() throws {
        let (_, secret) = try store.createAPIKey(tenant: "acme", admin: false)
        let reopened = try CredentialStore(database: Database(path: path))
        #expect(try reopened.authenticate(bearer: secret)?.tenant == "acme")
    }
}

@Suite("SecretToken")
struct SecretTokenTests {
    @Test func hashIsLowercaseHexSHA256() {
        // SHA-256("abc"), FIPS 180-2 test vector.
        #expect(SecretToken.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func identifiersAndTokensAreRandomAndPrefixed() {
        let ids = Set((0..<100).map { _ in SecretToken.identifier(prefix: "req_") })
        #expect(ids.count == 100)
        #expect(ids.allSatisfy { $0.hasPrefix("req_") && $0.count == 4 + 24 })
        let token = SecretToken.generate(prefix: "kyck_")
        #expect(token.count == 5 + 43)
    }

    @Test func constantTimeEqualsComparesWholeStrings() {
        #expect(SecretToken.constantTimeEquals("abc", "abc"))
        #expect(!SecretToken.constantTimeEquals("abc", "abd"))
        #expect(!SecretToken.constantTimeEquals("abc", "abcd"))
    }
}

@Suite("Active sessions")
struct ActiveSessionTests {
    @Test func onlyActiveSessionsOfTheSameTenantAreFound() throws {
        let directory = try TemporaryDirectory("active")
        defer { directory.remove() }
        let store = try CredentialStore(database: Database(path: directory.file("credentials.sqlite")))
        let session = try store.openSession(tenant: "acme", createdBy: "k", identity: nil, scopes: [], ttlSeconds: 60,
                                            now: 1_000)
        #expect(try store.activeSession(tenant: "acme", sessionID: session.sessionID, now: 2_000) != nil)
        #expect(try store.activeSession(tenant: "globex", sessionID: session.sessionID, now: 2_000) == nil)
        #expect(try store.activeSession(tenant: "acme", sessionID: session.sessionID, now: 61_000) == nil)
        try store.revokeSession(tenant: "acme", sessionID: session.sessionID, now: 3_000)
        #expect(try store.activeSession(tenant: "acme", sessionID: session.sessionID, now: 4_000) == nil)
    }
}
