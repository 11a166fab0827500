import SCLMAnalytics
import SCLMAuth
import SCLMBridgeModules
import SCLMCore
import SCLMHTTP
import SCLMOSAM
import SCLMPlayer
import SCLMSync

/// Every setting sclm knows, in the order `sclm config list`, the man page and docs/cli.md show them.
///
/// Each key is declared once, with its help, default, environment variable, secrecy and limits, beside the
/// feature that reads it: `SCLMAuth` (`auth.*`), `SCLMSync` (`api.url`, `sync.*`, `metrics.textfile`),
/// `SCLMHTTP` (`http.*`), `SCLMBridgeModules` (`app.*`, `bridge.*` but its flushes, `play.sessionIdle`),
/// `SCLMOSAM` (`osam.*`), `SCLMAnalytics` (`iot.*`, `bridge.flushInterval`, `events.retention`). This composition root lists them, and from the list
/// knows which environment variables carry secrets (``secretEnvironmentVariables``), which the programs sclm
/// starts never get (``CommandContext/childEnvironment``); `SettingsCatalogTests` proves every declared key is
/// listed once.
package enum SettingsCatalog {
    /// Every key, in display order.
    package static let all: [AnyConfigKey] = [
        ConfigKey.apiURL.any, ConfigKey.authURL.any, ConfigKey.clientId.any, ConfigKey.clientSecret.any,
        ConfigKey.username.any, ConfigKey.password.any, ConfigKey.syncJobs.any, ConfigKey.syncContentPolicy.any,
        ConfigKey.syncBlobProxy.any, ConfigKey.syncBlobProxyFallback.any, ConfigKey.syncBlobProxyFallbackDelay.any,
        ConfigKey.syncDiskReserve.any,
        ConfigKey.metricsTextfile.any, ConfigKey.caBundle.any, ConfigKey.appName.any, ConfigKey.appVersion.any,
        ConfigKey.bridgeLatitude.any, ConfigKey.bridgeLongitude.any, ConfigKey.bridgeAddress.any,
        ConfigKey.bridgeHTTPAllowedHosts.any, ConfigKey.bridgeHTTPProxy.any, ConfigKey.connectTimeout.any,
        ConfigKey.stallTimeout.any, ConfigKey.requestTimeout.any, ConfigKey.retries.any,
        ConfigKey.refreshMargin.any, ConfigKey.proxy.any, ConfigKey.proxyCredentials.any, ConfigKey.noProxy.any,
        ConfigKey.osamEndpoint.any, ConfigKey.osamPackage.any, ConfigKey.osamPlatform.any,
        ConfigKey.osamVersionCode.any, ConfigKey.osamVersionName.any, ConfigKey.osamUsername.any,
        ConfigKey.osamPassword.any, ConfigKey.osamTopicsWebhook.any, ConfigKey.iotEndpoint.any,
        ConfigKey.iotHub.any, ConfigKey.iotKey.any, ConfigKey.iotSecret.any, ConfigKey.iotExpiration.any,
        ConfigKey.bridgeFlushInterval.any, ConfigKey.eventsRetention.any, ConfigKey.sessionIdle.any,
        ConfigKey.playMetricsInterval.any,
    ]

    /// The environment variables that carry a secret setting's value (`SCLM_CLIENT_SECRET`, `SCLM_PASSWORD`,
    /// …), taken from the keys' secret flag so that a new secret key is covered too.
    package static let secretEnvironmentVariables = Set(all.filter(\.isSecret).compactMap(\.environmentVariable))

    /// Looks a key up by its dotted name.
    package static func named(_ name: String) -> AnyConfigKey? { all.first { $0.name == name } }
}
