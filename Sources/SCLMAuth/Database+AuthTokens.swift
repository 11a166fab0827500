import Foundation
import SCLMStore

/// The login's rows: the single `auth_tokens` row and the `users` row of the logged-in user. SCLMAuth owns
/// both tables; other modules read the login through these functions.
extension Database {
    /// The stored tokens, or `nil` when nobody is logged in.
    ///
    /// - Throws: `StoreError` (`.decoding`) naming a missing or mistyped column, e.g. an unknown `grantType`.
    package func authToken() throws -> StoredToken? {
        guard let row = try fetchOne("SELECT * FROM auth_tokens WHERE id = 1") else { return nil }
        let columns = ColumnReader(row, table: "auth_tokens")
        return StoredToken(
            grant: try columns.value("grantType"), accessToken: try columns.text("accessToken"),
            tokenType: try columns.text("tokenType"), refreshToken: try columns.optionalText("refreshToken"),
            expiresAt: Date(timeIntervalSince1970: try columns.double("expiresAt")),
            issuedAt: Date(timeIntervalSince1970: try columns.double("issuedAt")),
            subject: try columns.optionalText("subject"), userName: try columns.optionalText("userName"),
            authURL: try columns.optionalText("authURL"))
    }

    /// Replaces the stored tokens with `token`, and records the user it names (id and names from its
    /// claims). Call inside ``write(_:)``.
    ///
    /// - Throws: `StoreError`.
    package func saveAuthToken(_ token: StoredToken) throws {
        try execute(
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
                token.userName, token.authURL,
            ])
        guard let subject = token.subject else { return }
        try execute(
            """
            INSERT INTO users(userId, name, fullName) VALUES (?, ?, ?)
            ON CONFLICT(userId) DO UPDATE SET name = excluded.name, fullName = coalesce(excluded.fullName, fullName)
            """, [subject, token.userName, token.claims?.name])
    }

    /// Forgets the stored tokens (logs out).
    ///
    /// - Throws: `StoreError`.
    package func deleteAuthToken() throws {
        try execute("DELETE FROM auth_tokens")
    }
}
