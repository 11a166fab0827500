import Foundation
import SCLMStore

/// Where the current login's tokens are kept.
///
/// Implementations must be safe to call concurrently and must persist ``save(_:)`` before returning, so a
/// refreshed token survives the process. A test for one saves, loads, overwrites and clears a token.
public protocol TokenStore: Sendable {
    /// The stored tokens, or `nil` when nobody is logged in.
    ///
    /// - Throws: a storage error.
    func load() async throws -> StoredToken?
    /// Replaces the stored tokens.
    ///
    /// - Throws: a storage error, or `CancellationError`.
    func save(_ token: StoredToken) async throws
    /// Forgets the stored tokens.
    ///
    /// - Throws: a storage error.
    func clear() async throws
}

/// Tokens in the `auth_tokens` table of the home's 0600 database (one row), plus the `users` row of the
/// logged-in user (id and names from the token's claims).
public struct DatabaseTokenStore: TokenStore {
    private let store: ContentStore

    /// Creates a token store over `store`.
    public init(store: ContentStore) { self.store = store }

    public func load() async throws -> StoredToken? {
        try await store.read { db in try DatabaseTokenStore.read(db) }
    }

    public func save(_ token: StoredToken) async throws {
        try await store.write { db in try DatabaseTokenStore.write(token, to: db) }
    }

    public func clear() async throws {
        try await store.write { db in try db.execute("DELETE FROM auth_tokens") }
    }

    static func read(_ db: Database) throws -> StoredToken? {
        guard let row = try db.fetchOne("SELECT * FROM auth_tokens WHERE id = 1"),
            let grant = row.string("grantType").flatMap(GrantType.init(rawValue:)),
            let access = row.string("accessToken")
        else { return nil }
        return StoredToken(
            grant: grant, accessToken: access, tokenType: row.string("tokenType") ?? "Bearer",
            refreshToken: row.string("refreshToken"),
            expiresAt: Date(timeIntervalSince1970: row.double("expiresAt") ?? 0),
            issuedAt: Date(timeIntervalSince1970: row.double("issuedAt") ?? 0), subject: row.string("subject"),
            userName: row.string("userName"), authURL: row.string("authURL"))
    }

    static func write(_ token: StoredToken, to db: Database) throws {
        try db.execute(
            """
            INSERT INTO auth_tokens(id, grantType, accessToken, tokenType, refreshToken, expiresAt, issuedAt, subject,
                userName, authURL)
            VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET grantType = excluded.grantType, accessToken = excluded.accessToken,
                tokenType = excluded.tokenType, refreshToken = excluded.refreshToken, expiresAt = excluded.expiresAt,
                issuedAt = excluded.issuedAt, subject = excluded.subject, userName = excluded.userName,
                authURL = excluded.authURL
            """,
            [
                token.grant.rawValue, token.accessToken, token.tokenType, token.refreshToken,
                token.expiresAt.timeIntervalSince1970, token.issuedAt.timeIntervalSince1970, token.subject,
                token.userName,
                token.authURL,
            ])
        guard let subject = token.subject else { return }
        try db.execute(
            """
            INSERT INTO users(userId, name, fullName) VALUES (?, ?, ?)
            ON CONFLICT(userId) DO UPDATE SET name = excluded.name, fullName = coalesce(excluded.fullName, fullName)
            """, [subject, token.userName, token.claims?.name])
    }
}
