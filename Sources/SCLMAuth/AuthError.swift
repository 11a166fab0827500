import SCLMCore

/// A login or token failure: not logged in, session expired, credentials or client rejected.
///
/// Messages say what to do (usually run `sclm login`) and never contain passwords, secrets or tokens.
package struct AuthError: CategorizedError, Equatable {
    /// The kind of failure. New kinds may be added; do not switch exhaustively.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case notLoggedIn, sessionExpired, invalidCredentials, invalidClient, notConfigured, badTokenResponse
            case tokensInsteadOfContent, tokenRefused, wrongServer, grantRefused, malformedToken
        }
        private let base: Base

        /// No tokens are stored.
        package static let notLoggedIn = Code(base: .notLoggedIn)
        /// The refresh token is missing, expired or was rejected.
        package static let sessionExpired = Code(base: .sessionExpired)
        /// The auth server rejected the user name or password.
        package static let invalidCredentials = Code(base: .invalidCredentials)
        /// The auth server rejected the client id or secret.
        package static let invalidClient = Code(base: .invalidClient)
        /// A required setting (client id, secret, user name, password) is missing.
        package static let notConfigured = Code(base: .notConfigured)
        /// The token response could not be understood.
        package static let badTokenResponse = Code(base: .badTokenResponse)
        /// The server kept answering with tokens where content was expected.
        package static let tokensInsteadOfContent = Code(base: .tokensInsteadOfContent)
        /// The API refused an access token that was just issued.
        package static let tokenRefused = Code(base: .tokenRefused)
        /// The stored tokens belong to another auth server than the configured one.
        package static let wrongServer = Code(base: .wrongServer)
        /// The auth server refused the grant for another reason (`unsupported_grant_type`, …).
        package static let grantRefused = Code(base: .grantRefused)
        /// A token (or its type) holds characters that cannot travel in an HTTP header, such as CR or LF.
        package static let malformedToken = Code(base: .malformedToken)

        package var description: String { base.rawValue }
    }

    /// The kind of failure.
    package let code: Code
    /// The auth or API host involved, if any.
    package let host: String?
    /// Extra context: the server's error code, the missing setting, the stored server.
    package let detail: String?

    /// Creates an error.
    package init(_ code: Code, host: String? = nil, detail: String? = nil) {
        self.code = code
        self.host = host
        self.detail = detail
    }

    package var category: ErrorCategory {
        switch code {
        case .notConfigured: .usage
        case .badTokenResponse, .tokensInsteadOfContent, .malformedToken: .network
        default: .auth
        }
    }

    package var description: String {
        let server = host ?? "the auth server"
        switch code {
        case .notLoggedIn: return "not logged in — run `sclm login`"
        case .sessionExpired: return "session expired — run `sclm login`"
        case .invalidCredentials:
            return "\(server) rejected the user name or password; check them and run `sclm login` again"
        case .invalidClient:
            return "\(server) rejected the client id or secret; check auth.clientId and auth.clientSecret"
                + " (SCLM_CLIENT_ID, SCLM_CLIENT_SECRET)"
        case .notConfigured: return detail ?? "sclm is not configured for login; see `sclm config list`"
        case .badTokenResponse:
            return "\(server) sent a token response sclm cannot use\(detail.map { " (\($0))" } ?? ""); check auth.url"
        case .malformedToken:
            return "the auth server sent a malformed token (\(server): characters an HTTP header cannot carry);"
                + " nothing was stored — check auth.url"
        case .tokensInsteadOfContent:
            return "\(server) kept answering with tokens instead of content; retry later"
        case .tokenRefused:
            return "\(server) refused a freshly issued access token — run `sclm login`"
        case .wrongServer:
            return
                "the stored login is for \(detail ?? "another server"), not the configured auth.url — run `sclm login`"
        default:
            return "\(server) refused the login\(detail.map { " (\($0))" } ?? "") — run `sclm login`"
        }
    }
}
