import Foundation
import SCLMAuth
import SCLMTestSupport
import Testing

@Suite(.tags(.small)) struct JWTClaimsTests {
    @Test func readsSubjectNameAndTimes() throws {
        let jwt = makeJWT([
            "sub": "6f1c2a4e-0000-4000-8000-000000000001", "name": "demo", "fullname": "Demo User",
            "client_id": "sclm-demo",
            "exp": 1_700_003_600, "iat": 1_700_000_000,
        ])
        let claims = try #require(JWTClaims(token: jwt))
        #expect(claims.subject == "6f1c2a4e-0000-4000-8000-000000000001")
        #expect(claims.name == "Demo User")
        #expect(claims.clientId == "sclm-demo")
        #expect(claims.expiresAt == Date(timeIntervalSince1970: 1_700_003_600))
        #expect(claims.issuedAt == Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test func fallsBackToTheStandardNameClaim() throws {
        #expect(JWTClaims(token: makeJWT(["sub": "x", "name": "Plain Name"]))?.name == "Plain Name")
    }

    @Test(arguments: ["opaque-token", "a.b", "a.!!!.c", "a.bm90IGpzb24.c"]) func opaqueTokensHaveNoClaims(
        _ text: String
    ) {
        #expect(JWTClaims(token: text) == nil)
    }
}

@Suite(.tags(.small)) struct StoredTokenTests {
    static let issued = Date(timeIntervalSince1970: 1_700_000_000)

    struct RefreshCase: Sendable, CustomTestStringConvertible {
        let lifetime: TimeInterval
        let elapsed: TimeInterval
        let needsRefresh: Bool
        var testDescription: String { "lifetime \(Int(lifetime)) s, after \(Int(elapsed)) s → \(needsRefresh)" }
    }

    static let refreshCases: [RefreshCase] = [
        .init(lifetime: 3600, elapsed: 0, needsRefresh: false),
        .init(lifetime: 3600, elapsed: 3539, needsRefresh: false),
        .init(lifetime: 3600, elapsed: 3540, needsRefresh: true),
        .init(lifetime: 3600, elapsed: 4000, needsRefresh: true),
        .init(lifetime: 180, elapsed: 161, needsRefresh: false), .init(lifetime: 180, elapsed: 162, needsRefresh: true),
        .init(lifetime: 0, elapsed: 0, needsRefresh: true),
    ]

    @Test(arguments: refreshCases) func renewsAheadOfExpiryWithAMarginScaledToTheLifetime(_ example: RefreshCase) {
        let stored = token("a", issued: StoredTokenTests.issued, lifetime: example.lifetime)
        #expect(
            stored.needsRefresh(at: StoredTokenTests.issued.addingTimeInterval(example.elapsed), margin: 60)
                == example.needsRefresh)
    }

    @Test func expiryComesFromExpiresInThenTheJWTThenOneHour() {
        let now = StoredTokenTests.issued
        let fromField = StoredToken(
            response: TokenResponse(accessToken: "a", expiresIn: 120), grant: .password, now: now, userName: nil,
            authURL: nil)
        #expect(fromField.expiresAt == now.addingTimeInterval(120))
        let jwt = makeJWT(["sub": "s", "exp": 1_700_000_500])
        let fromClaim = StoredToken(
            response: TokenResponse(accessToken: jwt), grant: .password, now: now, userName: nil, authURL: nil)
        #expect(fromClaim.expiresAt == Date(timeIntervalSince1970: 1_700_000_500))
        #expect(fromClaim.subject == "s")
        let fallback = StoredToken(
            response: TokenResponse(accessToken: "opaque"), grant: .password, now: now, userName: nil, authURL: nil)
        #expect(fallback.expiresAt == now.addingTimeInterval(3600))
    }

    @Test func aRenewalWithoutARefreshTokenKeepsThePreviousOne() {
        let previous = token("old", refresh: "keep-me")
        let renewed = StoredToken(
            response: TokenResponse(accessToken: "new", expiresIn: 60), grant: .password, now: Date(), userName: nil,
            authURL: nil, previous: previous)
        #expect(renewed.refreshToken == "keep-me")
        #expect(renewed.userName == "demo")
        #expect(renewed.authURL == authURL.absoluteString)
    }

    @Test func descriptionsNeverShowTokens() {
        let stored = token("ACCESS-SECRET", refresh: "REFRESH-SECRET")
        let response = TokenResponse(accessToken: "ACCESS-SECRET", refreshToken: "REFRESH-SECRET")
        let grant = TokenGrant.password(username: "demo", password: "PASSWORD-SECRET")
        for text in [
            String(describing: stored), String(describing: response), String(describing: grant),
            "\(TokenGrant.refreshToken("REFRESH-SECRET"))",
        ] {
            #expect(!text.contains("SECRET"), "\(text)")
        }
    }

    @Test func theAuthorizationHeaderNormalizesTheBearerScheme() {
        var stored = token("abc")
        stored.tokenType = "bearer"
        #expect(stored.authorization == "Bearer abc")
    }
}
