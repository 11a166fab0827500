import Foundation
import SCLMCore
import SCLMHTTP

/// The OAuth token endpoint of the auth server: `POST {auth.url}/connect/token`, form-encoded
/// (the StoryCLM OAuth2 token endpoint).
///
/// Requests are retried like any other (429/503 and connection failures only, since a POST is not
/// idempotent); the server's refusals become ``AuthError``s that say which setting to check.
package struct TokenEndpoint: Sendable {
    /// The auth server's base URL.
    package let authURL: URL
    /// The application's OAuth client id.
    package let clientId: String
    private let clientSecret: String
    private let transport: any HTTPTransport
    private let retrier: Retrier
    private let timeout: Duration
    private let logger: Logger?

    /// Creates an endpoint.
    package init(
        authURL: URL, clientId: String, clientSecret: String, transport: any HTTPTransport,
        retrier: Retrier = Retrier(policy: RetryPolicy()), timeout: Duration = .seconds(60), logger: Logger? = nil
    ) {
        self.authURL = authURL
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.transport = transport
        self.retrier = retrier
        self.timeout = timeout
        self.logger = logger
    }

    /// Creates an endpoint from `auth.url`, `auth.clientId` and `auth.clientSecret`.
    ///
    /// - Throws: ``AuthError`` (`.notConfigured`, exit 64) naming a missing or malformed setting.
    package init(
        configuration: Configuration, transport: any HTTPTransport, retrier: Retrier, timeout: Duration,
        logger: Logger?
    ) throws {
        let url = try configuration.required(.authURL)
        func required(_ key: ConfigKey<String>) throws -> String {
            guard let value = try configuration.value(key), !value.isEmpty else {
                throw AuthError(
                    .notConfigured,
                    detail:
                        "\(key.name) is not set; run `sclm config set \(key.name) …` or set \(key.any.environmentVariable ?? key.name)"
                )
            }
            return value
        }
        self.init(
            authURL: url, clientId: try required(.clientId), clientSecret: try required(.clientSecret),
            transport: transport,
            retrier: retrier, timeout: timeout, logger: logger)
    }

    /// The token URL.
    package var tokenURL: URL { authURL.appending(path: "connect/token") }

    /// Asks for tokens with `grant`.
    ///
    /// - Throws: ``AuthError`` when the server refuses (`.invalidCredentials`, `.invalidClient`,
    ///   `.sessionExpired` for a refused refresh token) or answers nonsense (`.badTokenResponse`, and
    ///   `.malformedToken` for tokens that are not ``TokenResponse/isWellFormed``); ``HTTPError`` when it
    ///   cannot be reached; `CancellationError`.
    package func requestToken(_ grant: TokenGrant) async throws -> TokenResponse {
        var request = HTTPRequest(
            .post, url: tokenURL,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: FormEncoding.encode(grant.formFields + [("client_id", clientId), ("client_secret", clientSecret)]),
            timeout: timeout, maxResponseBytes: 1 << 20)
        request.headers.set(name: "Cache-Control", value: "no-store")
        logger?.debug("requesting a \(grant) from \(authURL.hostDescription)")
        let response = try await retrier.run(method: .post, onRetry: retrier.logging(to: logger)) {
            let response = try await transport.send(request)
            guard response.isSuccess || [400, 401].contains(response.status) else {
                throw HTTPError(response: response, method: .post)
            }
            return response
        }
        guard response.isSuccess else { throw refusal(response, grant: grant) }
        let tokens: TokenResponse
        do {
            tokens = try JSONDecoder().decode(TokenResponse.self, from: response.body)
        } catch {
            throw AuthError(.badTokenResponse, host: authURL.hostDescription, detail: "no access token in the answer")
        }
        guard tokens.isWellFormed else { throw AuthError(.malformedToken, host: authURL.hostDescription) }
        return tokens
    }

    private func refusal(_ response: HTTPResponse, grant: TokenGrant) -> AuthError {
        let host = authURL.hostDescription
        let reason = response.serverReason
        if reason == "invalid_client" || reason == "unauthorized_client" || (reason == nil && response.status == 401) {
            return AuthError(.invalidClient, host: host)
        }
        switch (reason, grant) {
        case ("invalid_grant", .password): return AuthError(.invalidCredentials, host: host)
        case ("invalid_grant", .refreshToken): return AuthError(.sessionExpired, host: host)
        case ("invalid_grant", .clientCredentials): return AuthError(.invalidClient, host: host)
        default: return AuthError(.grantRefused, host: host, detail: reason ?? "HTTP \(response.status)")
        }
    }
}
