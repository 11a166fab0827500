import Foundation
import SCLMAuth
import SCLMCore
import SCLMHTTP
import SCLMTestSupport
import Synchronization
import Testing

@Suite(.tags(.small)) struct TokenEndpointTests {
    @Test func sendsAFormWithTheGrantAndTheClient() async throws {
        let transport = FakeTransport { request in
            .json(#"{"access_token":"a","expires_in":60,"token_type":"Bearer","refresh_token":"r"}"#, to: request)
        }
        let response = try await endpoint(transport).requestToken(
            .password(username: "a user", password: "p&ss=w+rd ü"))
        #expect(response.accessToken == "a" && response.refreshToken == "r" && response.expiresIn == 60)
        let request = try #require(transport.requests.first)
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "http://auth.test:8080/connect/token")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(
            formFields(request) == [
                "grant_type": "password", "username": "a user", "password": "p&ss=w+rd ü", "client_id": "client-1",
                "client_secret": "secret-1",
            ])
    }

    struct RefusalCase: Sendable, CustomTestStringConvertible {
        let status: Int
        let body: String
        let grant: TokenGrant
        let code: AuthError.Code
        var testDescription: String { "\(status) \(body) for \(grant) → \(code)" }
    }

    static let refusals: [RefusalCase] = [
        .init(
            status: 400, body: #"{"error":"invalid_grant"}"#, grant: .password(username: "u", password: "pw"),
            code: .invalidCredentials),
        .init(status: 400, body: #"{"error":"invalid_grant"}"#, grant: .refreshToken("r"), code: .sessionExpired),
        .init(status: 401, body: #"{"error":"invalid_client"}"#, grant: .clientCredentials, code: .invalidClient),
        .init(status: 401, body: "", grant: .refreshToken("r"), code: .invalidClient),
        .init(
            status: 400, body: #"{"error":"unsupported_grant_type"}"#, grant: .clientCredentials, code: .grantRefused),
    ]

    @Test(arguments: refusals) func refusalsBecomeAuthErrorsThatSayWhatToCheck(_ example: RefusalCase) async throws {
        let transport = FakeTransport { .json(example.body, status: example.status, to: $0) }
        let error = try await #require(throws: AuthError.self) {
            try await endpoint(transport).requestToken(example.grant)
        }
        #expect(error.code == example.code)
        #expect(error.category == .auth)
        #expect(error.description.contains("auth.test:8080") || error.code == .sessionExpired)
        #expect(!error.description.contains("pw"))
    }

    @Test func theSessionExpiredMessageIsExact() {
        #expect(AuthError(.sessionExpired).description == "session expired — run `sclm login`")
        #expect(AuthError(.sessionExpired).category.exitCode == 77)
    }

    @Test func aBusyServerIsRetriedAndAFailingOneIsNot() async throws {
        let calls = Mutex(0)
        let busy = FakeTransport { request in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            return call <= 2 ? .json("{}", status: 503, to: request) : .json(#"{"access_token":"a"}"#, to: request)
        }
        let retrier = Retrier(policy: RetryPolicy(), sleep: { _ in }, jitter: { 0 })
        #expect(try await endpoint(busy, retrier: retrier).requestToken(.clientCredentials).accessToken == "a")
        #expect(busy.requests.count == 3)
        let failing = FakeTransport { .json("{}", status: 500, to: $0) }
        await #expect(throws: HTTPError.self) {
            try await endpoint(failing, retrier: retrier).requestToken(.clientCredentials)
        }
        #expect(failing.requests.count == 1)
    }

    @Test func aResponseWithoutAnAccessTokenIsRefused() async throws {
        let transport = FakeTransport { .json(#"{"token_type":"Bearer"}"#, to: $0) }
        let error = try await #require(throws: AuthError.self) {
            try await endpoint(transport).requestToken(.clientCredentials)
        }
        #expect(error.code == .badTokenResponse)
    }

    struct MalformedCase: Sendable, CustomTestStringConvertible {
        let name: String
        let json: String
        var testDescription: String { name }
    }

    static let malformed: [MalformedCase] = [
        .init(name: "CR LF in the access token", json: #"{"access_token":"a\r\nX-Injected: 1","token_type":"Bearer"}"#),
        .init(name: "LF in the access token", json: #"{"access_token":"a\nX-Injected: 1"}"#),
        .init(name: "NUL in the access token", json: #"{"access_token":"a\u0000b"}"#),
        .init(name: "a space in the access token", json: #"{"access_token":"a b"}"#),
        .init(name: "DEL in the access token", json: #"{"access_token":"a\u007fb"}"#),
        .init(name: "non-ASCII in the access token", json: #"{"access_token":"aé"}"#),
        .init(name: "CR LF in the token type", json: #"{"access_token":"a","token_type":"Bearer\r\nX-Injected: 1"}"#),
        .init(name: "a token type that is not a token", json: #"{"access_token":"a","token_type":"Bea rer"}"#),
        .init(name: "an empty token type", json: #"{"access_token":"a","token_type":""}"#),
        .init(name: "LF in the refresh token", json: #"{"access_token":"a","refresh_token":"r\nX: 1"}"#),
    ]

    @Test(arguments: malformed) func aMalformedTokenIsRefusedWithAClearError(_ example: MalformedCase) async throws {
        let transport = FakeTransport { .json(example.json, to: $0) }
        let error = try await #require(throws: AuthError.self) {
            try await endpoint(transport).requestToken(.password(username: "u", password: "pw"))
        }
        #expect(error.code == .malformedToken)
        #expect(error.category == .network)
        #expect(error.description.contains("the auth server sent a malformed token"))
        #expect(error.description.contains("auth.test:8080"))
        #expect(!error.description.contains("X-Injected"))
    }

    @Test func wellFormedTokensOfEveryUsualShapePass() async throws {
        let shapes = [
            #"{"access_token":"\#(makeJWT(["sub": "u"]))","token_type":"bearer"}"#,
            #"{"access_token":"abc+/=~._-","token_type":"Bearer","refresh_token":"CfDJ8=="}"#,
            #"{"access_token":"opaque!#$%&'()*,;<>?@[]^`{|}","token_type":"DPoP"}"#,
        ]
        for shape in shapes {
            let transport = FakeTransport { .json(shape, to: $0) }
            #expect(try await endpoint(transport).requestToken(.clientCredentials).isWellFormed, "\(shape)")
        }
    }

    @Test func theConfigurationMustNameTheClient() throws {
        let configuration = Configuration(stored: ["auth.url": "http://auth.test"])
        let error = try #require(throws: AuthError.self) {
            try TokenEndpoint(
                configuration: configuration, transport: FakeTransport { .json("{}", to: $0) },
                retrier: Retrier(policy: .never), timeout: .seconds(5), logger: nil)
        }
        #expect(error.category == .usage)
        #expect(error.description.contains("auth.clientId is not set"))
        #expect(error.description.contains("SCLM_CLIENT_ID"))
    }
}
