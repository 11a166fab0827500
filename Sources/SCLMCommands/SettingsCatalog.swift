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
/// `SCLMAnalytics` (`iot.*`, `bridge.flushInterval`). This composition root lists them, and from the list
/// knows which environment variables carry secrets (``secretEnvironmentVariables``), which the programs sclm
/// starts never get (``CommandContext/childEnvironment``); `SettingsCatalogTests` proves every declared key is
/// listed once.
package enum SettingsCatalog {
    /// Every key, in display order.
    package static let all: [ConfigKey] = [
        .apiURL, .authURL, .clientId, .clientSecret, .username, .password, .syncJobs, .syncContentPolicy,
        .syncBlobProxy, .syncBlobProxyFallback, .syncBlobProxyFallbackDelay, .syncDiskReserve, .metricsTextfile,
        .caBundle,
        .appName, .appVersion, .bridgeLatitude, .bridgeLongitude, .bridgeAddress, .bridgeHTTPAllowedHosts,
        .bridgeHTTPProxy, .connectTimeout, .stallTimeout, .requestTimeout, .retries, .refreshMargin, .proxy,
        .proxyCredentials, .noProxy, .osamEndpoint, .osamPackage, .osamPlatform, .osamVersionCode,
        .osamVersionName, .osamUsername, .osamPassword, .osamTopicsWebhook, .iotEndpoint, .iotHub, .iotKey,
        .iotSecret, .iotExpiration, .bridgeFlushInterval,
    ]

    /// The environment variables that carry a secret setting's value (`SCLM_CLIENT_SECRET`, `SCLM_PASSWORD`,
    /// …), taken from the keys' secret flag so that a new secret key is covered too.
    package static let secretEnvironmentVariables = Set(all.filter(\.isSecret).compactMap(\.environmentVariable))

    /// Looks a key up by its dotted name.
    package static func named(_ name: String) -> ConfigKey? { all.first { $0.name == name } }
}
