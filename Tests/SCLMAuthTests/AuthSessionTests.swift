import Foundation
import SCLMAuth
import SCLMCore
import SCLMHTTP
import SCLMTestSupport
import Synchronization
import Testing

/// The interceptor: bearer tokens, renewal ahead of expiry and on 401, single flight, no loops,
/// tokens instead of content.
@Suite(.tags(.small)) struct AuthSessionTests {
    private func session(_ transport: FakeTransport, store: MemoryTokenStore, clock: any WallClock = SystemClock())
        -> AuthSession
    {
        AuthSession(endpoint: endpoint(transport), store: store, transport: transport, clock: clock)
    }

    private static func tokenJSON(_ access: String, refresh: String? = nil) -> String {
        #"{"access_token":"\#(access)","expires_in":3600,"token_type":"Bearer"\#(refresh.map { #","refresh_token":"\#($0)""# } ?? "")}"#
    }

    /// A server whose API accepts only `valid` and whose token endpoint issues `valid`.
    private static func server(valid: String, tokenStatus: Int = 200) -> FakeTransport {
        FakeTransport { request in
            if isTokenRequest(request) {
                return tokenStatus == 200
                    ? .json(tokenJSON(valid), to: request)
                    : .json(#"{"error":"invalid_grant"}"#, status: tokenStatus, to: request)
            }
            return request.headers["Authorization"] == "Bearer \(valid)"
                ? .json("[]", to: request) : .json(#"{"error":"invalid_token"}"#, status: 401, to: request)
        }
    }

    @Test func sendsTheStoredTokenAsABearer() async throws {
        let transport = AuthSessionTests.server(valid: "a1")
        let response = try await session(transport, store: MemoryTokenStore(token("a1"))).send(HTTPRequest(url: apiURL))
        #expect(response.status == 200)
        #expect(transport.requests.count == 1)
    }

    @Test func renewsATokenThatIsAboutToExpireBeforeUsingIt() async throws {
        let transport = AuthSessionTests.server(valid: "a2")
        let store = MemoryTokenStore(token("a1", issued: Date().addingTimeInterval(-3590)))
        _ = try await session(transport, store: store).send(HTTPRequest(url: apiURL))
        #expect(transport.requests.map { isTokenRequest($0) } == [true, false])
        #expect(formFields(transport.requests[0])["grant_type"] == "refresh_token")
        #expect(formFields(transport.requests[0])["refresh_token"] == "refresh-1")
        #expect(store.token?.accessToken == "a2")
        #expect(store.token?.refreshToken == "refresh-1")
    }

    @Test func aRenewalThatAnswersAMalformedTokenStoresNothingAndSendsNothing() async throws {
        let transport = FakeTransport { request in
            isTokenRequest(request)
                ? .json(#"{"access_token":"a2\r\nX-Injected: 1","expires_in":3600}"#, to: request)
                : .json("[]", to: request)
        }
        let stale = token("a1", issued: Date().addingTimeInterval(-3590))
        let store = MemoryTokenStore(stale)
        let error = try await #require(throws: AuthError.self) {
            try await session(transport, store: store).send(HTTPRequest(url: apiURL))
        }
        #expect(error.code == .malformedToken)
        #expect(store.saves == 0)
        #expect(store.token == stale)
        #expect(transport.requests.allSatisfy(isTokenRequest))
    }

    @Test func malformedTokensInsteadOfContentAreNotAdopted() async throws {
        let transport = FakeTransport { request in
            .json(#"{"access_token":"a2\r\nX-Injected: 1","token_type":"Bearer","expires_in":3600}"#, to: request)
        }
        let store = MemoryTokenStore(token("a1"))
        let error = try await #require(throws: AuthError.self) {
            try await session(transport, store: store).send(HTTPRequest(url: apiURL))
        }
        #expect(error.code == .malformedToken)
        #expect(store.saves == 0)
        #expect(transport.requests.count == 1)
    }

    @Test func fiftyConcurrentUnauthorizedRequestsShareOneRenewal() async throws {
        let transport = AuthSessionTests.server(valid: "a2")
        let store = MemoryTokenStore(token("a1"))
        let session = session(transport, store: store)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 { group.addTask { try await session.send(HTTPRequest(url: apiURL)).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 50))
        #expect(transport.requests.filter(isTokenRequest).count == 1)
        #expect(store.saves == 1)
    }

    @Test func aRejectedRefreshEndsTheSessionOnceWithoutLooping() async throws {
        let transport = AuthSessionTests.server(valid: "never", tokenStatus: 400)
        let session = session(transport, store: MemoryTokenStore(token("a1")))
        let errors = await withTaskGroup(of: AuthError?.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do {
                        _ = try await session.send(HTTPRequest(url: apiURL))
                        return nil
                    } catch {
                        return error as? AuthError
                    }
                }
            }
            return await group.reduce(into: [AuthError?]()) { $0.append($1) }
        }
        #expect(errors.allSatisfy { $0?.code == .sessionExpired })
        #expect(transport.requests.filter(isTokenRequest).count == 1)
        let later = try await #require(throws: AuthError.self) { try await session.send(HTTPRequest(url: apiURL)) }
        #expect(later.description == "session expired — run `sclm login`")
        #expect(transport.requests.filter(isTokenRequest).count == 1)
    }

    @Test func aMissingRefreshTokenEndsTheSessionWithoutARequest() async throws {
        let transport = AuthSessionTests.server(valid: "a2")
        let store = MemoryTokenStore(token("a1", refresh: nil, issued: Date().addingTimeInterval(-7200)))
        let error = try await #require(throws: AuthError.self) {
            try await session(transport, store: store).send(HTTPRequest(url: apiURL))
        }
        #expect(error.code == .sessionExpired)
        #expect(transport.requests.isEmpty)
    }

    @Test func aServiceLoginRenewsByAskingAgain() async throws {
        let transport = AuthSessionTests.server(valid: "s2")
        let store = MemoryTokenStore(token("s1", grant: .clientCredentials, refresh: nil))
        _ = try await session(transport, store: store).send(HTTPRequest(url: apiURL))
        #expect(formFields(transport.requests[1])["grant_type"] == "client_credentials")
        #expect(store.token?.grant == .clientCredentials)
    }

    @Test func aTokenRefusedAfterRenewalEndsInsteadOfLooping() async throws {
        let transport = FakeTransport { request in
            isTokenRequest(request)
                ? .json(AuthSessionTests.tokenJSON("fresh"), to: request) : .json("{}", status: 401, to: request)
        }
        let error = try await #require(throws: AuthError.self) {
            try await session(transport, store: MemoryTokenStore(token("a1"))).send(HTTPRequest(url: apiURL))
        }
        #expect(error.code == .tokenRefused)
        #expect(error.category == .auth)
        #expect(transport.requests.count == 3)
    }

    @Test func tokensInsteadOfContentAreStoredAndTheRequestReplayed() async throws {
        let served = Mutex(0)
        let transport = FakeTransport { request in
            let call = served.withLock { count in
                count += 1
                return count
            }
            return call == 1
                ? .json(AuthSessionTests.tokenJSON("a2", refresh: "r2"), to: request)
                : .json(#"[{"id":1}]"#, to: request)
        }
        let store = MemoryTokenStore(token("a1"))
        let response = try await session(transport, store: store).send(HTTPRequest(url: apiURL))
        #expect(String(decoding: response.body, as: UTF8.self) == #"[{"id":1}]"#)
        #expect(transport.requests.last?.headers["Authorization"] == "Bearer a2")
        #expect(store.token?.accessToken == "a2")
        #expect(store.token?.refreshToken == "r2")
    }

    @Test func tokensInsteadOfContentAreReplayedAtMostThreeTimes() async throws {
        let transport = FakeTransport { .json(AuthSessionTests.tokenJSON("again"), to: $0) }
        let error = try await #require(throws: AuthError.self) {
            try await session(transport, store: MemoryTokenStore(token("a1"))).send(HTTPRequest(url: apiURL))
        }
        #expect(error.code == .tokensInsteadOfContent)
        #expect(transport.requests.count == 1 + AuthSession.maxTokenReplays)
    }

    @Test func withoutStoredTokensTheUserMustLogIn() async throws {
        let transport = AuthSessionTests.server(valid: "a1")
        let error = try await #require(throws: AuthError.self) {
            try await session(transport, store: MemoryTokenStore()).send(HTTPRequest(url: apiURL))
        }
        #expect(error.description == "not logged in — run `sclm login`")
        #expect(transport.requests.isEmpty)
    }

    @Test func tokensOfAnotherAuthServerAreNotUsed() async throws {
        var stored = token("a1")
        stored.authURL = "https://auth.storyclm.com"
        let error = try await #require(throws: AuthError.self) {
            try await session(AuthSessionTests.server(valid: "a1"), store: MemoryTokenStore(stored)).send(
                HTTPRequest(url: apiURL))
        }
        #expect(error.code == .wrongServer)
        #expect(error.description.contains("auth.storyclm.com"))
    }
}
