/// How a login obtained its tokens, which decides how they are renewed.
package enum GrantType: String, Sendable, Codable, CaseIterable {
    /// A user's name and password (`sclm login`); renewed with the refresh token.
    case password
    /// The application's own client credentials (`sclm login --service`); renewed by asking again.
    case clientCredentials = "client_credentials"
}

/// One request to the token endpoint. Its description never shows the password or tokens.
package enum TokenGrant: Sendable, Equatable, CustomStringConvertible {
    /// `grant_type=password`.
    case password(username: String, password: String)
    /// `grant_type=client_credentials`.
    case clientCredentials
    /// `grant_type=refresh_token`.
    case refreshToken(String)

    /// The form fields of the grant, without the client's id and secret.
    var formFields: [(String, String)] {
        switch self {
        case .password(let username, let password):
            [("grant_type", "password"), ("username", username), ("password", password)]
        case .clientCredentials: [("grant_type", "client_credentials")]
        case .refreshToken(let token): [("grant_type", "refresh_token"), ("refresh_token", token)]
        }
    }

    package var description: String {
        switch self {
        case .password(let username, _): "password grant for \(username)"
        case .clientCredentials: "client credentials grant"
        case .refreshToken: "refresh token grant"
        }
    }
}
