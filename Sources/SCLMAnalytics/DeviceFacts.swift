import Foundation
import SCLMCore
import SCLMStore

#if canImport(Glibc)
    import Glibc
#endif

/// What every StoryIoT message says about the device and the app (`s-m-did`, `m`, `os`, `osv`, `an`,
/// `av`, `lng`, `ns`), gathered once per flush.
public struct DeviceFacts: Sendable, Equatable {
    /// The stable device id (`s-m-did`): generated once per home, kept in preferences.
    public var deviceId: String
    /// The device model (`s-m-m`): the DMI product name, else the machine (`x86_64`).
    public var model: String
    /// The OS name (`s-m-os`, `Linux`).
    public var os: String
    /// The OS version (`s-m-osv`, the kernel release).
    public var osVersion: String
    /// The app name (`s-m-an`, `app.name`).
    public var appName: String
    /// The app version (`s-m-av`, `app.version`).
    public var appVersion: String
    /// The language code (`s-m-lng`, from `LC_ALL`, `LC_MESSAGES` or `LANG`; `en` by default).
    public var language: String
    /// The network status (`s-m-ns`): `Wi-Fi`, `LAN` or `none`.
    public var network: String

    /// Creates facts.
    public init(
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

    /// The facts of this machine, with the home's device id and the configured app.
    ///
    /// - Throws: ``StoreError`` when the device id cannot be read or stored.
    public static func current(store: ContentStore, configuration: Configuration, environment: [String: String])
        async throws -> DeviceFacts
    {
        let system = SystemNames.current()
        return DeviceFacts(
            deviceId: try await deviceId(in: store), model: productName() ?? system.machine, os: system.name,
            osVersion: system.release, appName: configuration.value(.appName) ?? "sclm",
            appVersion: configuration.value(.appVersion) ?? SCLMVersion.current,
            language: language(environment: environment), network: NetworkStatus.current())
    }

    /// The preferences scope and key of the device id.
    public static let deviceIdPreference = (scope: PreferenceKey.sclmScope, key: "deviceId")

    /// The home's device id, created (an upper-case UUID, like iOS's `identifierForVendor`) on first use.
    ///
    /// - Throws: ``StoreError``.
    public static func deviceId(in store: ContentStore) async throws -> String {
        let (scope, key) = deviceIdPreference
        return try await store.write { db in
            if let existing = try db.preference(scope: scope, key: key), !existing.isEmpty { return existing }
            let created = UUID().uuidString.uppercased()
            try db.setPreference(scope: scope, key: key, value: created)
            return created
        }
    }

    /// The language code of the first locale set in `LC_ALL`, `LC_MESSAGES`, `LANG` (`de_DE.UTF-8` →
    /// `de`); `en` when none is set or it is `C`/`POSIX`.
    static func language(environment: [String: String]) -> String {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let code = locale.prefix { $0.isLetter }.lowercased()
        return code.isEmpty || code == "c" || code == "posix" ? "en" : code
    }

    /// The DMI product name, unless missing or a firmware placeholder.
    private static func productName() -> String? {
        let text = (try? String(contentsOfFile: "/sys/class/dmi/id/product_name", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let placeholders: Set<String> = ["", "None", "To be filled by O.E.M.", "System Product Name", "Default string"]
        return placeholders.contains(text) ? nil : text
    }
}

/// The `uname(2)` names of this system.
private struct SystemNames {
    var name: String
    var release: String
    var machine: String

    static func current() -> SystemNames {
        var names = utsname()
        guard uname(&names) == 0 else { return SystemNames(name: "Linux", release: "", machine: "unknown") }
        return SystemNames(
            name: text(of: &names.sysname), release: text(of: &names.release), machine: text(of: &names.machine))
    }

    private static func text<T>(of field: inout T) -> String {
        withUnsafeBytes(of: &field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
