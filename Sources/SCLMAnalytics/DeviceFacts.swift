import Foundation
import SCLMCore
import SCLMStore

/// What every StoryIoT message says about the device and the app (`s-m-did`, `m`, `os`, `osv`, `an`,
/// `av`, `lng`, `ns`), gathered once per flush.
package struct DeviceFacts: Sendable, Equatable {
    /// The stable device id (`s-m-did`): generated once per home, kept in preferences.
    package var deviceId: String
    /// The device model (`s-m-m`): the DMI product name, else the machine (`x86_64`).
    package var model: String
    /// The OS name (`s-m-os`): `NAME` of os-release (`Debian GNU/Linux`), else `Linux`.
    package var os: String
    /// The OS version (`s-m-osv`): `VERSION_ID` of os-release (`12`), else the kernel release.
    package var osVersion: String
    /// The app name (`s-m-an`, `app.name`).
    package var appName: String
    /// The app version (`s-m-av`, `app.version`).
    package var appVersion: String
    /// The language code (`s-m-lng`, from `LC_ALL`, `LC_MESSAGES` or `LANG`; `en` by default).
    package var language: String
    /// The network status (`s-m-ns`): `Wi-Fi`, `LAN` or `none`.
    package var network: String

    /// Creates facts.
    package init(
        deviceId: String, model: String, os: String, osVersion: String, appName: String, appVersion: String,
        language: String, network: String
    ) {
        self.deviceId = deviceId
        self.model = model
        self.os = os
        self.osVersion = osVersion
        self.appName = appName
        self.appVersion = appVersion
        self.language = language
        self.network = network
    }

    /// The facts of this machine, with the home's device id and the app it reports (the `app.name` and
    /// `app.version` settings, which the bridge reports too).
    ///
    /// - Throws: ``StoreError`` when the device id cannot be read or stored.
    package static func current(
        store: ContentStore, app: (name: String?, version: String?), environment: [String: String]
    ) async throws -> DeviceFacts {
        let release = SystemFacts.osRelease()
        return DeviceFacts(
            deviceId: try await deviceId(in: store), model: SystemFacts.model(),
            os: release["NAME"].flatMap { $0.isEmpty ? nil : $0 } ?? "Linux",
            osVersion: release["VERSION_ID"] ?? SystemFacts.kernelRelease,
            appName: app.name ?? "sclm", appVersion: app.version ?? SCLMVersion.current,
            language: SystemFacts.language(environment: environment) ?? "en", network: NetworkStatus.current())
    }

    /// The preferences scope and key of the device id.
    package static let deviceIdPreference = (scope: PreferenceKey.sclmScope, key: "deviceId")

    /// The home's device id, created (an upper-case UUID, like iOS's `identifierForVendor`) on first use.
    ///
    /// - Throws: ``StoreError``.
    package static func deviceId(in store: ContentStore) async throws -> String {
        let (scope, key) = deviceIdPreference
        return try await store.write { db in
            if let existing = try db.preference(scope: scope, key: key), !existing.isEmpty { return existing }
            let created = UUID().uuidString.uppercased()
            try db.setPreference(scope: scope, key: key, value: created)
            return created
        }
    }
}
