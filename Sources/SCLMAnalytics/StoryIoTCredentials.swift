import Foundation
import SCLMCore

/// Where and how analytics are published: the StoryIoT endpoint, hub, key and secret, and how long a
/// request signature stays valid (`iot.*` settings).
///
/// The secret only signs; it never appears in a URL, a message or ``description``.
package struct StoryIoTCredentials: Sendable, CustomStringConvertible {
    /// The StoryIoT base URL (no trailing slash).
    package let endpoint: URL
    /// The hub.
    package let hub: String
    /// The publisher key.
    package let key: String
    /// The publisher secret.
    let secret: String
    /// How long a signature stays valid.
    package let expiration: Duration

    /// Creates credentials.
    package init(endpoint: URL, hub: String, key: String, secret: String, expiration: Duration = .seconds(180)) {
        self.endpoint = endpoint
        self.hub = hub
        self.key = key
        self.secret = secret
        self.expiration = expiration
    }

    /// The credentials in `configuration`, or `nil` when none of `iot.endpoint`, `iot.hub`, `iot.key`
    /// and `iot.secret` is set (publishing is off).
    ///
    /// - Throws: ``AnalyticsError`` (`.notConfigured`) when some are set but not all, or one is malformed.
    package static func load(from configuration: Configuration) throws -> StoryIoTCredentials? {
        do {
            return try credentials(in: configuration)
        } catch let error as SCLMError {
            throw AnalyticsError(.notConfigured, error.description)
        }
    }

    /// The credentials, `nil` when none is set; `SCLMError` for a malformed setting.
    private static func credentials(in configuration: Configuration) throws -> StoryIoTCredentials? {
        let endpoint = try configuration.value(.iotEndpoint)
        let texts = try [ConfigKey<String>.iotHub, .iotKey, .iotSecret].map { key in
            (key.any, try configuration.value(key)?.trimmingCharacters(in: .whitespaces) ?? "")
        }
        let missing = ([(ConfigKey.iotEndpoint.any, endpoint == nil)] + texts.map { ($0.0, $0.1.isEmpty) })
            .filter(\.1).map(\.0.name)
        if missing.count == texts.count + 1 { return nil }
        guard let endpoint, missing.isEmpty else {
            throw AnalyticsError(
                .notConfigured,
                "StoryIoT is only partly configured: \(missing.joined(separator: ", ")) \(missing.count == 1 ? "is" : "are") "
                    + "not set; set \(missing.count == 1 ? "it" : "them") with `sclm config set KEY VALUE`")
        }
        let base = endpoint.absoluteString.hasSuffix("/") ? String(endpoint.absoluteString.dropLast()) : nil
        return StoryIoTCredentials(
            endpoint: base.flatMap(URL.init(string:)) ?? endpoint, hub: texts[0].1, key: texts[1].1,
            secret: texts[2].1, expiration: .seconds(try configuration.required(.iotExpiration)))
    }

    /// The publish URL with a fresh signature: `{endpoint}/{hub}/publish/?key=&expiration=&signature=`.
    package func publishURL(now: Date) -> URL {
        let expires = StoryIoTSignature.expiration(at: now, validFor: expiration)
        let signature = StoryIoTSignature.sign(key: key, expiration: expires, secret: secret)
        let query = [("key", key), ("expiration", expires), ("signature", signature)]
            .map { "\($0.0)=\(PercentEncoding.escape($0.1))" }.joined(separator: "&")
        let base = endpoint.absoluteString + "/" + PercentEncoding.escape(hub) + "/publish/"
        // Every piece is percent-encoded, so the URL always parses.
        return URL(string: base + "?" + query) ?? endpoint
    }

    package var description: String { "StoryIoT hub \(hub) at \(endpoint.absoluteString)" }
}
