import Foundation

/// The tokens of the current login, as kept in the `auth_tokens` table.
///
/// Its description never shows the tokens.
package struct StoredToken: Sendable, Equatable, CustomStringConvertible {
    /// How the login was made.
    package var grant: GrantType
    /// The bearer token.
    package var accessToken: String
    /// Usually `Bearer`.
    package var tokenType: String
    /// The refresh token (password grant).
    package var refreshToken: String?
    /// When the access token expires.
    package var expiresAt: Date
    /// When it was issued (the client's clock).
    package var issuedAt: Date
    /// The user (or client) id from the token's `sub` claim.
    package var subject: String?
    /// The login name (user name, or client id for a service login).
    package var userName: String?
    /// The auth server that issued the tokens.
    package var authURL: String?

    /// Creates a token record.
    package init(
        grant: GrantType, accessToken: String, tokenType: String = "Bearer", refreshToken: String? = nil,
        expiresAt: Date, issuedAt: Date, subject: String? = nil, userName: String? = nil, authURL: String? = nil
    ) {
        self.grant = grant
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.subject = subject
        self.userName = userName
        self.authURL = authURL
    }

    /// The record for a token response received at `now`: the lifetime comes from `expires_in`, else the
    /// JWT `exp` claim, else one hour; a response without a refresh token keeps `previous`'s.
    package init(
        response: TokenResponse, grant: GrantType, now: Date, userName: String?, authURL: String?,
        previous: StoredToken? = nil
    ) {
        let claims = JWTClaims(token: response.accessToken)
        let expiresAt: Date =
            if let seconds = response.expiresIn, seconds > 0 {
                now.addingTimeInterval(TimeInterval(seconds))
            } else {
                claims?.expiresAt ?? now.addingTimeInterval(3600)
            }
        self.init(
            grant: grant, accessToken: response.accessToken, tokenType: response.tokenType,
            refreshToken: response.refreshToken ?? previous?.refreshToken, expiresAt: expiresAt, issuedAt: now,
            subject: claims?.subject ?? previous?.subject, userName: userName ?? previous?.userName,
            authURL: authURL ?? previous?.authURL)
    }

    /// The claims of the access token, when it is a JWT.
    package var claims: JWTClaims? { JWTClaims(token: accessToken) }

    /// The `Authorization` header value.
    package var authorization: String {
        let scheme = tokenType.isEmpty || tokenType.lowercased() == "bearer" ? "Bearer" : tokenType
        return "\(scheme) \(accessToken)"
    }

    /// Whether the access token has expired at `now`.
    package func isExpired(at now: Date) -> Bool { now >= expiresAt }

    /// Whether the access token should be renewed before use at `now`: it expires within `margin`, or
    /// within a tenth of its lifetime when that is shorter (so short-lived tokens are not renewed on every
    /// request).
    package func needsRefresh(at now: Date, margin: TimeInterval) -> Bool {
        let lifetime = max(0, expiresAt.timeIntervalSince(issuedAt))
        return now >= expiresAt.addingTimeInterval(-min(margin, lifetime / 10))
    }

    package var description: String {
        "StoredToken(grant: \(grant.rawValue), subject: \(subject ?? "nil"), expiresAt: \(expiresAt), refreshToken: \(refreshToken == nil ? "no" : "yes"))"
    }
}
