import Foundation
import SCLMAuth
import SCLMHTTP
import SCLMTestSupport
import Synchronization

/// Tokens kept in memory, counting saves.
final class MemoryTokenStore: TokenStore {
    private let state: Mutex<(token: StoredToken?, saves: Int)>

    init(_ token: StoredToken? = nil) { state = Mutex((token, 0)) }

    var token: StoredToken? { state.withLock { $0.token } }
    var saves: Int { state.withLock { $0.saves } }

    func load() async throws -> StoredToken? { token }
    func save(_ token: StoredToken) async throws { state.withLock { $0 = (token, $0.saves + 1) } }
    func clear() async throws { state.withLock { $0.token = nil } }
}

/// A JWT-shaped token with `claims` as its payload (unsigned: sclm never verifies signatures).
func makeJWT(_ claims: [String: Any]) -> String {
    func encode(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
            of: "/", with: "_"
        )
        .replacingOccurrences(of: "=", with: "")
    }
    return "\(encode(["alg": "HS256", "typ": "JWT"])).\(encode(claims)).c2lnbmF0dXJl"
}

let authURL = URL(literal: "http://auth.test:8080")
let apiURL = URL(literal: "http://api.test:8080/v1/clients")

/// A token issued at `issued` that lives `lifetime` seconds.
func token(
    _ access: String, grant: GrantType = .password, refresh: String? = "refresh-1", issued: Date = Date(),
    lifetime: TimeInterval = 3600
) -> StoredToken {
    StoredToken(
        grant: grant, accessToken: access, refreshToken: refresh, expiresAt: issued.addingTimeInterval(lifetime),
        issuedAt: issued, subject: "user-1", userName: "demo", authURL: authURL.absoluteString)
}

/// The form fields of a token request.
func formFields(_ request: HTTPRequest) -> [String: String] {
    let text = String(decoding: request.body ?? Data(), as: UTF8.self)
    var fields: [String: String] = [:]
    for pair in text.split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
        let decode = { (value: String) in
            value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? value
        }
        fields[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
    }
    return fields
}

func isTokenRequest(_ request: HTTPRequest) -> Bool { request.url.path() == "/connect/token" }

func endpoint(_ transport: any HTTPTransport, retrier: Retrier = Retrier(policy: .never)) -> TokenEndpoint {
    TokenEndpoint(
        authURL: authURL, clientId: "client-1", clientSecret: "secret-1", transport: transport, retrier: retrier)
}
