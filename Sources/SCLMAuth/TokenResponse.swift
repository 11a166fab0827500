import Foundation
import SCLMHTTP

/// The token endpoint's answer: `{access_token, expires_in, token_type, refresh_token?, scope?}`.
///
/// Its description never shows the tokens.
package struct TokenResponse: Sendable, Equatable, Decodable, CustomStringConvertible {
    /// The bearer token for API requests.
    package var accessToken: String
    /// Usually `Bearer`.
    package var tokenType: String
    /// Seconds the access token is valid, if the server said.
    package var expiresIn: Int?
    /// The refresh token (password grant only).
    package var refreshToken: String?

    /// Creates a response.
    package init(accessToken: String, tokenType: String = "Bearer", expiresIn: Int? = nil, refreshToken: String? = nil)
    {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
    }

    private enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", tokenType = "token_type", expiresIn = "expires_in"
        case refreshToken = "refresh_token"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        tokenType = (try? container.decodeIfPresent(String.self, forKey: .tokenType)) ?? "Bearer"
        if let seconds = try? container.decodeIfPresent(Int.self, forKey: .expiresIn) {
            expiresIn = seconds
        } else {
            let text = try? container.decodeIfPresent(String.self, forKey: .expiresIn)
            expiresIn = text.flatMap { Int($0) }
        }
        refreshToken = (try? container.decodeIfPresent(String.self, forKey: .refreshToken)) ?? nil
        guard !accessToken.isEmpty else {
            throw DecodingError.dataCorruptedError(
                forKey: .accessToken, in: container, debugDescription: "empty access token")
        }
    }

    /// Whether the tokens can be sent in HTTP headers as they are: the access and refresh tokens are
    /// printable ASCII without spaces (RFC 6750's `b64token` and the opaque tokens servers issue), the type
    /// is a token (RFC 9110 §5.6.2). A CR or LF would otherwise add header lines to every API request.
    package var isWellFormed: Bool {
        let isPrintable = { (token: String) in
            !token.isEmpty && token.utf8.allSatisfy { (0x21...0x7E).contains($0) }
        }
        return isPrintable(accessToken) && HTTPHeaders.isToken(tokenType) && (refreshToken.map(isPrintable) ?? true)
    }

    package var description: String {
        "TokenResponse(tokenType: \(tokenType), expiresIn: \(expiresIn.map(String.init) ?? "nil"), refreshToken: \(refreshToken == nil ? "no" : "yes"))"
    }

    /// The tokens in a successful response that carries token JSON where content was expected
    /// (the StoryCLM mobile apps' token flow, "recursive handling"), or `nil`.
    package static func embedded(in response: HTTPResponse) -> TokenResponse? {
        guard response.isSuccess, response.body.first == UInt8(ascii: "{"), response.body.count < 64 << 10,
            response.body.range(of: Data("\"access_token\"".utf8)) != nil,
            let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            object["token_type"] != nil || object["expires_in"] != nil
        else { return nil }
        return try? JSONDecoder().decode(TokenResponse.self, from: response.body)
    }
}
