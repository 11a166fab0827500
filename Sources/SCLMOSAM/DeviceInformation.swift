import Foundation
import SCLMCore

/// What OSAM's `deviceInformation` reports, read from Linux: OS name and version, device model.
package struct DeviceInformation: Sendable, Equatable, Codable {
    /// The OS name (`NAME` of `/etc/os-release`, e.g. `Debian GNU/Linux`).
    package var platformName: String
    /// The OS version (`VERSION_ID`, e.g. `12`), compared by the 3.2 OS-version filter.
    package var platformVersion: String
    /// The model (`/sys/class/dmi/id/product_name`, else the machine from `uname`, e.g. `x86_64`).
    package var platformModel: String

    /// Creates device information.
    package init(platformName: String, platformVersion: String, platformModel: String) {
        self.platformName = platformName
        self.platformVersion = platformVersion
        self.platformModel = platformModel
    }

    /// Reads this machine's information.
    package static func current() -> DeviceInformation {
        parse(
            osRelease: SystemFacts.osRelease(),
            productName: SystemFacts.productName,
            machine: SystemFacts.machine)
    }

    /// Builds the information from the os-release fields, the DMI product name and the `uname` machine.
    ///
    /// Missing values fall back to `Linux`, an empty version, and the machine. DMI placeholders some
    /// firmware reports (`None`, `To be filled by O.E.M.`, `System Product Name`) count as missing.
    package static func parse(osRelease fields: [String: String], productName: String?, machine: String)
        -> DeviceInformation
    {
        DeviceInformation(
            platformName: fields["NAME"].flatMap { $0.isEmpty ? nil : $0 } ?? "Linux",
            platformVersion: fields["VERSION_ID"] ?? "",
            platformModel: SystemFacts.model(productName: productName, machine: machine))
    }

    /// The language of the device as OSAM's `DISPLAYED_LANGUAGE` wants it: the ISO code of the locale in
    /// `LC_ALL`, `LC_MESSAGES` or `LANG` (`ca_ES.UTF-8` → `CA`); `C`/`POSIX`/unset mean `EN`.
    package static func language(environment: [String: String]) -> String {
        SystemFacts.language(environment: environment)?.uppercased() ?? "EN"
    }
}

/// What OSAM's `appInformation` reports: the host app's name, version name and build number.
package struct AppInformation: Sendable, Equatable, Codable {
    /// The app name (`app.name`).
    package var appName: String
    /// The version name (`osam.versionName`, else `app.version`).
    package var appVersionName: String
    /// The build number as text (`osam.versionCode`); OSAM reports it as a string.
    package var appVersionCode: String

    /// Creates app information.
    package init(appName: String, appVersionName: String, appVersionCode: String) {
        self.appName = appName
        self.appVersionName = appVersionName
        self.appVersionCode = appVersionCode
    }
}
