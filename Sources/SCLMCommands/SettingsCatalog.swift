import SCLMAnalytics
import SCLMAuth
import SCLMBridgeModules
import SCLMCore
import SCLMHTTP
import SCLMOSAM
import SCLMSync

/// Every setting sclm knows, in the order `sclm config list`, the man page and docs/cli.md show them.
///
/// Each key is declared once, with its help, default, environment variable, secrecy and limits, beside the
/// feature that reads it: `SCLMAuth` (`auth.*`), `SCLMSync` (`api.url`, `sync.*`, `metrics.textfile`),
/// `SCLMHTTP` (`http.*`), `SCLMBridgeModules` (`app.*`, `bridge.*` but its flushes), `SCLMOSAM` (`osam.*`),
/// `SCLMAnalytics` (`iot.*`, `bridge.flushInterval`). This composition root lists them and registers them
/// with ``ConfigKey/register(_:)`` before any command runs; `SettingsCatalogTests` proves every declared key
/// is listed once.
package enum SettingsCatalog {
    /// Every key, in display order.
    package static let all: [ConfigKey] = [
        .apiURL, .authURL, .clientId, .clientSecret, .username, .password, .syncJobs, .syncContentPolicy,
        .syncBlobProxy, .syncBlobProxyFallback, .syncBlobProxyFallbackDelay, .metricsTextfile, .caBundle,
        .appName, .appVersion, .bridgeLatitude, .bridgeLongitude, .bridgeAddress, .bridgeHTTPAllowedHosts,
        .bridgeHTTPProxy, .connectTimeout, .stallTimeout, .requestTimeout, .retries, .refreshMargin, .proxy,
        .proxyCredentials, .noProxy, .osamEndpoint, .osamPackage, .osamPlatform, .osamVersionCode,
        .osamVersionName, .osamUsername, .osamPassword, .osamTopicsWebhook, .iotEndpoint, .iotHub, .iotKey,
        .iotSecret, .iotExpiration, .bridgeFlushInterval,
    ]

    /// Makes ``all`` the keys the lower floors find through ``ConfigKey/all``.
    package static func register() { ConfigKey.register(all) }

    /// Looks a key up by its dotted name.
    package static func named(_ name: String) -> ConfigKey? { all.first { $0.name == name } }
}
