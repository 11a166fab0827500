import Foundation
import SCLMCore
import SCLMHTTP

/// The one interceptor every API request goes through: it adds the access token and keeps it valid.
///
/// - Before a request, a token that expires within the safety margin is renewed first.
/// - A 401 renews the token once and replays the request; a second 401 ends with ``AuthError``
///   (`.tokenRefused`) instead of looping.
/// - Renewals are single-flight: concurrent requests that need a new token all await one stored `Task`,
///   and a request whose 401 came for a token that has already been replaced just retries with the new one.
/// - A password login renews with its refresh token; a missing, expired or rejected refresh token ends
///   with "session expired — run `sclm login`" (exit 77), remembered so no further renewal is tried. A
///   service login (client credentials) renews by asking for a new token.
/// - A successful response that carries token JSON where content was expected is stored as the new token
///   and the request replayed, at most ``maxTokenReplays`` times.
///
/// ```swift
/// let session = AuthSession(endpoint: endpoint, store: DatabaseTokenStore(store: store), transport: transport)
/// let response = try await session.send(HTTPRequest(url: apiURL.appending(path: "v1/clients")))
/// ```
package actor AuthSession {
    /// How often a request is replayed after the server answered it with tokens.
    package static let maxTokenReplays = 3

    private let endpoint: TokenEndpoint
    private let store: any TokenStore
    private let transport: any HTTPTransport
    private let clock: any WallClock
    private let refreshMargin: TimeInterval
    private let logger: Logger?
    private var current: StoredToken?
    private var renewal: Task<StoredToken, any Error>?
    private var finalFailure: AuthError?

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - endpoint: where tokens are renewed.
    ///   - store: where tokens are kept.
    ///   - transport: what sends the API requests.
    ///   - clock: the current time, for expiry.
    ///   - refreshMargin: renew a token that expires within this many seconds (or a tenth of its lifetime).
    ///   - logger: receives debug lines about renewals (never tokens).
    package init(
        endpoint: TokenEndpoint, store: any TokenStore, transport: any HTTPTransport,
        clock: any WallClock = SystemClock(),
        refreshMargin: TimeInterval = 60, logger: Logger? = nil
    ) {
        self.endpoint = endpoint
        self.store = store
        self.transport = transport
        self.clock = clock
        self.refreshMargin = refreshMargin
        self.logger = logger
    }

    /// Sends `request` with a valid access token and returns the response (any status but a handled 401).
    ///
    /// - Throws: ``AuthError`` when no valid token can be had; what the transport throws; `CancellationError`.
    package nonisolated func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var token = try await validToken()
        var renewedForUnauthorized = false
        var replays = 0
        while true {
            var authorized = request
            authorized.headers.set(name: "Authorization", value: token.authorization)
            let response = try await transport.send(authorized)
            if response.status == 401 {
                guard !renewedForUnauthorized else {
                    throw AuthError(.tokenRefused, host: request.url.hostDescription)
                }
                renewedForUnauthorized = true
                logger?.debug("\(request.summary) answered 401; renewing the access token")
                token = try await renewed(replacing: token)
                continue
            }
            if let tokens = TokenResponse.embedded(in: response) {
                replays += 1
                guard replays <= AuthSession.maxTokenReplays else {
                    throw AuthError(.tokensInsteadOfContent, host: request.url.hostDescription)
                }
                logger?.debug("\(request.summary) answered with tokens; storing them and replaying (\(replays))")
                guard tokens.isWellFormed else { throw AuthError(.malformedToken, host: request.url.hostDescription) }
                token = try await adopt(tokens, replacing: token)
                continue
            }
            return response
        }
    }

    /// The current token, renewed first if it is about to expire.
    ///
    /// - Throws: ``AuthError`` (`.notLoggedIn`, `.wrongServer`, `.sessionExpired`, …).
    package func validToken() async throws -> StoredToken {
        if let finalFailure { throw finalFailure }
        if let renewal { return try await wait(for: renewal) }
        let token = try await loadedToken()
        guard token.needsRefresh(at: clock.now, margin: refreshMargin) else { return token }
        logger?.debug("the access token expires at \(Timestamp.string(from: token.expiresAt)); renewing it")
        return try await renewed(replacing: token)
    }

    // MARK: - Renewal

    /// A token newer than `stale`: the one another request already obtained, the one being obtained, or
    /// a new one from the token endpoint.
    private func renewed(replacing stale: StoredToken) async throws -> StoredToken {
        if let finalFailure { throw finalFailure }
        if let renewal { return try await wait(for: renewal) }
        if let current, current.accessToken != stale.accessToken { return current }
        let task = Task { try await self.renew(stale) }
        renewal = task
        return try await wait(for: task)
    }

    /// Runs inside the single renewal task, on the actor.
    private func renew(_ stale: StoredToken) async throws -> StoredToken {
        defer { renewal = nil }
        do {
            let grant: TokenGrant
            switch stale.grant {
            case .password:
                guard let refreshToken = stale.refreshToken else {
                    throw AuthError(.sessionExpired, host: endpoint.authURL.hostDescription)
                }
                grant = .refreshToken(refreshToken)
            case .clientCredentials:
                grant = .clientCredentials
            }
            let response = try await endpoint.requestToken(grant)
            return try await adopt(response, replacing: stale)
        } catch let error as AuthError {
            finalFailure = error
            throw error
        }
    }

    /// Stores `response` as the current token (keeping `previous`'s refresh token if it has none).
    private func adopt(_ response: TokenResponse, replacing previous: StoredToken) async throws -> StoredToken {
        let token = StoredToken(
            response: response, grant: previous.grant, now: clock.now, userName: nil, authURL: nil, previous: previous)
        try await store.save(token)
        current = token
        return token
    }

    /// Awaits the renewal; a cancelled waiter cancels it (the whole operation is going down).
    private func wait(for task: Task<StoredToken, any Error>) async throws -> StoredToken {
        try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    private func loadedToken() async throws -> StoredToken {
        if let current { return current }
        guard let token = try await store.load() else { throw AuthError(.notLoggedIn) }
        if let issuer = token.authURL,
            AuthSession.normalized(issuer) != AuthSession.normalized(endpoint.authURL.absoluteString)
        {
            throw AuthError(.wrongServer, detail: URL(string: issuer)?.hostDescription ?? issuer)
        }
        current = token
        return token
    }

    /// A URL string without a trailing slash, for comparing servers.
    static func normalized(_ url: String) -> String {
        url.hasSuffix("/") ? String(url.dropLast()) : url
    }
}
