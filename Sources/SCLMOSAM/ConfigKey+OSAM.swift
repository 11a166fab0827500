import Foundation
import SCLMCore

/// Keys of the OSAM checks (`sclm osam …` and the bridge's `osam.*` commands).
extension ConfigKey where Value == URL {
    /// The OSAM backend base URL (its path prefix is kept).
    package static let osamEndpoint = ConfigKey(
        "osam.endpoint", help: "OSAM backend base URL, e.g. https://osam.example/ (path prefix kept).",
        environment: "SCLM_OSAM_ENDPOINT")
    /// Where topic subscriptions are POSTed, if anywhere.
    package static let osamTopicsWebhook = ConfigKey(
        "osam.topicsWebhook", help: "URL that receives each topic (un)subscription as a JSON POST (optional).")
}

extension ConfigKey where Value == String {
    /// The package (application id / bundle id) checked.
    package static let osamPackage = ConfigKey("osam.package", help: "Package (application or bundle id) OSAM checks.")
    /// The installed version name (topics, app information).
    package static let osamVersionName = ConfigKey(
        "osam.versionName", help: "Installed version name (default: app.version).")
    /// The user for HTTP Basic auth, when the backend wants it.
    package static let osamUsername = ConfigKey("osam.username", help: "User for HTTP Basic auth on the OSAM backend.")
    /// The password for HTTP Basic auth.
    package static let osamPassword = ConfigKey(
        "osam.password", help: "Password for HTTP Basic auth on the OSAM backend.", environment: "SCLM_OSAM_PASSWORD",
        secret: true)
}

extension ConfigKey where Value == Platform {
    /// `IOS` or `ANDROID`, in any case.
    package static let osamPlatform = ConfigKey(
        "osam.platform", help: "OSAM platform: IOS or ANDROID.", cases: [.ios, .android], ignoringCase: true)
}

extension ConfigKey where Value == Int {
    /// The installed build number sent to the backend.
    package static let osamVersionCode = ConfigKey(
        "osam.versionCode", help: "Installed build number (a positive integer).", atLeast: 1)
}
