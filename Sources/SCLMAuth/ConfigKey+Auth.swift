import Foundation
import SCLMCore

/// The settings of logging in to StoryCLM (`sclm login`, token renewal), declared beside the code that reads
/// them; `SCLMCommands`' `SettingsCatalog` registers them with every other feature's.
extension ConfigKey where Value == URL {
    /// The StoryCLM auth server base URL.
    package static let authURL = ConfigKey(
        "auth.url", help: "StoryCLM auth server base URL.", default: "https://auth.storyclm.com",
        environment: "SCLM_AUTH_URL")
}

extension ConfigKey where Value == String {
    /// The OAuth client id of this application.
    package static let clientId = ConfigKey(
        "auth.clientId", help: "OAuth client id of the application.", environment: "SCLM_CLIENT_ID")
    /// The OAuth client secret of this application.
    package static let clientSecret = ConfigKey(
        "auth.clientSecret", help: "OAuth client secret of the application.", environment: "SCLM_CLIENT_SECRET",
        secret: true)
    /// The user name for the password grant.
    package static let username = ConfigKey(
        "auth.username", help: "User name for `sclm login`.", environment: "SCLM_USERNAME")
    /// The password for the password grant: environment only, never written to disk.
    package static let password = ConfigKey(
        "auth.password", help: "Password for `sclm login` (environment only; never stored).",
        environment: "SCLM_PASSWORD", secret: true, storable: false)
}

extension ConfigKey where Value == Int {
    /// Renew the access token when it expires within this many seconds.
    package static let refreshMargin = ConfigKey(
        "auth.refreshMargin", help: "Renew the access token this many seconds before it expires.", default: 60,
        range: 0...86_400)
}
