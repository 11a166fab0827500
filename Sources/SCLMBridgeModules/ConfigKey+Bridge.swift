import SCLMCore
import SCLMHTTP

/// The settings of the bridge the content talks to: the app identity and place it reports, and where its HTTP
/// commands may go; `SCLMCommands`' `SettingsCatalog` registers them with every other feature's.
extension ConfigKey where Value == String {
    /// Name of the host application, reported by `getAppInfo`, OSAM and analytics.
    package static let appName = ConfigKey(
        "app.name", help: "Application name reported to content and analytics.", default: "sclm")
    /// Version of the host application.
    package static let appVersion = ConfigKey(
        "app.version", help: "Application version reported to content and analytics.", default: SCLMVersion.current)
    /// Latitude reported by the bridge's `getGeoLocationInfo` and stored with sessions.
    package static let bridgeLatitude = ConfigKey(
        "bridge.latitude",
        help: "Latitude the bridge reports to content (getGeoLocationInfo) and stores with sessions.",
        default: nil, environment: nil, format: .decimal(-90...90))
    /// Longitude reported by the bridge (StoryCLM's `longtitude` key).
    package static let bridgeLongitude = ConfigKey(
        "bridge.longitude", help: "Longitude the bridge reports to content (sent as both longtitude and longitude).",
        default: nil, environment: nil, format: .decimal(-180...180))
    /// Street address reported by the bridge.
    package static let bridgeAddress = ConfigKey(
        "bridge.address", help: "Address the bridge reports to content and stores with sessions.")

    /// The proxy of the bridge's HTTP commands; unset, they go direct whatever `http.proxy` or the proxy
    /// variables say, so that the network rule judges the real destination.
    package static let bridgeHTTPProxy = ConfigKey(
        "bridge.httpProxy",
        help:
            "Proxy for the bridge's httpget/httppost/… (unset: always direct, ignoring http.proxy and the proxy"
            + " variables); bridge.httpAllowedHosts must then admit the proxy's address.")
}

extension ConfigKey where Value == Int {
    /// Seconds without a slide change after which `sclm play` ends the session (``SessionPolicy/idle``).
    package static let sessionIdle = ConfigKey(
        "play.sessionIdle",
        help: "Seconds without a slide change after which `sclm play` ends the session, so it is published.",
        default: 300, range: 1...86_400)
}

extension ConfigKey where Value == NetworkRule {
    /// Where content may send the bridge's HTTP commands (comma-separated names, `*.domain`, IP addresses and
    /// CIDR ranges, each optionally with a port); unset or empty, public hosts only.
    package static let bridgeHTTPAllowedHosts = ConfigKey(
        "bridge.httpAllowedHosts",
        help:
            "Where content may send httpget/httppost/httpput/httpdelete: host names, *.domain, IP addresses ([::1]) and"
            + " CIDR ranges, each optionally :PORT (comma-separated; unset: public hosts only, no loopback or private addresses).",
        default: nil, environment: nil, format: .text
    ) { text in
        Result { try NetworkRule(parsing: text) }.mapError { ConfigRefusal(reason: "cannot be read: \($0)") }
    }
}
