import Foundation
import SCLMStore

/// Where the current login's tokens are kept.
///
/// Implementations must be safe to call concurrently and must persist ``save(_:)`` before returning, so a
/// refreshed token survives the process. A test for one saves, loads, overwrites and clears a token.
package protocol TokenStore: Sendable {
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
package struct DatabaseTokenStore: TokenStore {
    private let store: ContentStore

    /// Creates a token store over `store`.
    package init(store: ContentStore) { self.store = store }

    package func load() async throws -> StoredToken? {
        try await store.read { db in try db.authToken() }
    }

    package func save(_ token: StoredToken) async throws {
        try await store.write { db in try db.saveAuthToken(token) }
    }

    package func clear() async throws {
        try await store.write { db in try db.deleteAuthToken() }
    }
}
