import Foundation

/// The claims sclm reads from a JWT access token (without verifying it: the API does that).
///
/// StoryContent takes the user id from `sub` and the display name from `fullname`; `name` is the
/// standard claim and is used when `fullname` is absent.
package struct JWTClaims: Sendable, Equatable {
    /// `sub`: the user (or client) id.
    package var subject: String?
    /// `fullname`, else `name`: the display name.
    package var name: String?
    /// `client_id`.
    package var clientId: String?
    /// `exp`.
    package var expiresAt: Date?
    /// `iat`.
    package var issuedAt: Date?

    /// Creates claims explicitly.
    package init(
        subject: String? = nil, name: String? = nil, clientId: String? = nil, expiresAt: Date? = nil,
        issuedAt: Date? = nil
    ) {
        self.subject = subject
        self.name = name
        self.clientId = clientId
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
    }

    /// Decodes the payload of `token` (`header.payload.signature`, base64url); `nil` for an opaque token.
    package init?(token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = JWTClaims.base64URLDecode(String(parts[1])),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        func text(_ key: String) -> String? {
            switch object[key] {
            case let value as String: value
            case let value as NSNumber: value.stringValue
            default: nil
            }
        }
        func date(_ key: String) -> Date? {
            (object[key] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) }
        }
        self.init(
            subject: text("sub"), name: text("fullname") ?? text("name"), clientId: text("client_id"),
            expiresAt: date("exp"), issuedAt: date("iat"))
    }

    /// Decodes base64url text with or without padding.
    static func base64URLDecode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
