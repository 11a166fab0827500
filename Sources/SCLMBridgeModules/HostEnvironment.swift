import Foundation
import SCLMAuth
import SCLMBridge
import SCLMCore
import SCLMStore
import Synchronization

/// What the host tells content about the app, the device, the user and the location
/// (`getAppInfo`, `getUserInfo`, `getGeoLocationInfo`), read once at start-up.
package struct HostEnvironment: Sendable, Equatable {
    package var appName: String
    package var appVersion: String
    /// Two-letter language from `LANG` (`ru_RU.UTF-8` → `ru`), `en` by default.
    package var localization: String
    package var os: String
    package var osVersion: String
    package var device: String
    /// The logged-in user (`auth_tokens.subject`), or `nil` without a login.
    package var userId: String?
    package var userName: String?
    /// Whether the login is a user's password login (then content sees only that user's sessions).
    package var isPasswordLogin: Bool
    /// From `bridge.latitude` / `bridge.longitude` / `bridge.address`, as configured (strings).
    package var latitude: String
    package var longitude: String
    package var address: String

    /// Creates an environment explicitly (tests).
    package init(
        appName: String = "sclm", appVersion: String = SCLMVersion.current, localization: String = "en",
        os: String = "Linux", osVersion: String = "", device: String = "", userId: String? = nil,
        userName: String? = nil, isPasswordLogin: Bool = false, latitude: String = "", longitude: String = "",
        address: String = ""
    ) {
        self.appName = appName
        self.appVersion = appVersion
        self.localization = localization
        self.os = os
        self.osVersion = osVersion
        self.device = device
        self.userId = userId
        self.userName = userName
        self.isPasswordLogin = isPasswordLogin
        self.latitude = latitude
        self.longitude = longitude
        self.address = address
    }

    /// Reads the configuration, the login in `db` and `/etc/os-release`.
    ///
    /// - Throws: ``StoreError``.
    package static func load(
        configuration: Configuration, db: Database, processEnvironment: [String: String],
        osRelease: String = "/etc/os-release"
    ) throws -> HostEnvironment {
        let release = SystemFacts.osRelease(path: osRelease)
        let login = try db.authToken()
        let machine = SystemFacts.machine
        let kernel = SystemFacts.kernelRelease
        let language =
            processEnvironment["LC_ALL"].flatMap { $0.isEmpty ? nil : $0 } ?? processEnvironment["LANG"] ?? ""
        let code = language.prefix { $0.isLetter }.lowercased()
        return HostEnvironment(
            appName: try configuration.required(.appName),
            appVersion: try configuration.required(.appVersion),
            localization: code.count == 2 ? code : "en",
            os: "Linux", osVersion: release["VERSION_ID"] ?? kernel,
            device: [release["PRETTY_NAME"] ?? release["NAME"] ?? "Linux", machine].filter { !$0.isEmpty }
                .joined(separator: " "),
            userId: login?.subject, userName: login?.userName, isPasswordLogin: login?.grant == .password,
            latitude: try configuration.value(.bridgeLatitude) ?? "",
            longitude: try configuration.value(.bridgeLongitude) ?? "",
            address: try configuration.value(.bridgeAddress) ?? "")
    }

    /// `getAppInfo`'s data.
    var appInfo: JSONValue {
        [
            "localization": .string(localization), "osVersion": .string(osVersion), "os": .string(os),
            "device": .string(device), "appVersion": .string(appVersion), "appName": .string(appName),
        ]
    }

    /// `getUserInfo`'s data (empty strings without a login).
    var userInfo: JSONValue {
        ["id": .string(userId ?? ""), "username": .string(userName ?? "")]
    }

    /// `getGeoLocationInfo`'s data. StoryCLM spells the key `longtitude`; `longitude` is sent as well.
    var geoLocation: JSONValue {
        [
            "latitude": .string(latitude), "longtitude": .string(longitude), "longitude": .string(longitude),
            "address": .string(address),
        ]
    }

    /// What content of `clientId`'s presentations may read: that client's presentations and their sessions,
    /// only this user's under a password login.
    func scope(clientId: Int64) -> ContentScope {
        ContentScope(clientId: clientId, sessionOwners: isPasswordLogin ? .user(userId) : .everyone)
    }

    /// The configured position as numbers, for session rows.
    var coordinates: (latitude: Double?, longitude: Double?) {
        (Double(latitude.trimmingCharacters(in: .whitespaces)), Double(longitude.trimmingCharacters(in: .whitespaces)))
    }
}
