import Foundation
import SCLMBridge
import SCLMCore
import SCLMOSAM
import SCLMPolicy
import Synchronization

/// OSAM for content: the version-control and rating checks, topic and language events, device and app
/// information of the OSAM common module (`osam.*`), over ``OSAMService``.
///
/// Outcomes are answered as `Data` with status 200, ERROR included (OSAM reports it as a response value):
/// `osam.versionControl` → `{"result","alert","reason"}` and, when an alert is to be shown, an
/// `osamAlert` event with the alert; the host shows it and content reports the choice with
/// `osam.versionControlAnswer` → `{"response","openUrl"}`. A second `osam.versionControl` while an alert
/// waits for its answer is ERROR (`alert-pending`) without a fetch. The package, platform and installed
/// build come from `osam.*` settings; a missing one answers 503 naming it. Commands run in order in
/// their own lane.
package struct OSAMModule: BridgeModule {
    /// What the configuration says about the app.
    package struct Settings: Sendable, Equatable {
        /// `osam.endpoint` is set (checks contact the backend).
        package var hasEndpoint: Bool
        /// `osam.package`.
        package var package: String?
        /// `osam.platform`, as written.
        package var platform: String?
        /// `osam.versionCode`, as written.
        package var versionCode: String?
        /// `osam.versionName`, else `app.version`.
        package var versionName: String
        /// `app.name`.
        package var appName: String

        /// Reads the `osam.*` and `app.*` settings.
        package init(configuration: Configuration) {
            hasEndpoint = !(configuration.value(.osamEndpoint) ?? "").isEmpty
            package = configuration.value(.osamPackage)
            platform = configuration.value(.osamPlatform)
            versionCode = configuration.value(.osamVersionCode)
            versionName = configuration.value(.osamVersionName) ?? configuration.value(.appVersion) ?? ""
            appName = configuration.value(.appName) ?? ""
        }
    }

    package let name = "OSAM"
    package let commands: [BridgeCommand] = [
        "osam.versionControl", "osam.versionControlAnswer", "osam.rating", "osam.deviceInformation",
        "osam.appInformation", "osam.changeLanguageEvent", "osam.firstTimeOrUpdateEvent", "osam.subscribeToCustomTopic",
        "osam.unsubscribeToCustomTopic", "osam.getToken", "osam.isOnline",
    ]
    package var lane: String? { "osam" }

    let service: OSAMService
    let settings: Settings
    let device: DeviceInformation
    let deviceLanguage: String
    let alert = AlertGate()

    /// Creates the module.
    ///
    /// - Parameters:
    ///   - service: the OSAM decisions and their state.
    ///   - settings: the `osam.*` settings.
    ///   - device: the device facts reported and used by the 3.2 filter.
    ///   - deviceLanguage: the device's language (`DISPLAYED_LANGUAGE`), e.g. `CA`.
    package init(service: OSAMService, settings: Settings, device: DeviceInformation, deviceLanguage: String) {
        self.service = service
        self.settings = settings
        self.device = device
        self.deviceLanguage = deviceLanguage
    }

    /// `{language}`: any case of `ca`/`es`/`en` or a locale tag such as `ca-ES`; anything else (`fr`, empty,
    /// missing, a number) means English (`Language.parse`), never a bad request.
    struct LanguageParameter: Decodable {
        let language: LenientString?
        var value: Language { Language.parse(language?.value ?? "") }
    }

    /// `{choice, dontShowAgain}`.
    struct AnswerParameters: Decodable {
        let choice: String
        let dontShowAgain: Bool?
    }

    /// `{topic}`.
    struct TopicParameter: Decodable {
        let topic: String
    }

    package func handle(_ request: BridgeRequest, context: BridgeContext) async throws -> BridgeReply {
        switch request.command {
        case "osam.versionControl": return try await versionControl(request, context: context)
        case "osam.versionControlAnswer": return try await answer(request.decode(AnswerParameters.self))
        case "osam.rating":
            return .ok(
                try await service.rating(
                    package: try package(), platform: try platform(), connectivity: try connectivity()
                ).jsonValue)
        case "osam.deviceInformation": return .ok(device.jsonValue)
        case "osam.appInformation":
            return .ok(
                AppInformation(
                    appName: settings.appName, appVersionName: settings.versionName,
                    appVersionCode: settings.versionCode ?? ""
                ).jsonValue)
        case "osam.changeLanguageEvent":
            let language = try request.decode(LanguageParameter.self).value
            return .ok(
                try await service.changeLanguage(app: try app(), language: language, deviceLanguage: deviceLanguage)
                    .jsonValue)
        case "osam.firstTimeOrUpdateEvent":
            let language = try request.decode(LanguageParameter.self).value
            return .ok(
                try await service.firstTimeOrUpdate(app: try app(), language: language, deviceLanguage: deviceLanguage)
                    .jsonValue)
        case "osam.subscribeToCustomTopic", "osam.unsubscribeToCustomTopic":
            let topic = try request.decode(TopicParameter.self).topic
            let subscribe = request.command == "osam.subscribeToCustomTopic"
            return .ok(try await service.customTopic(topic, subscribe: subscribe, package: try package()).jsonValue)
        case "osam.getToken": return .ok(["token": .string(try await service.token())])
        case "osam.isOnline": return .ok(["online": .bool(await service.isOnline())])
        default: throw BridgeError.unknownCommand(request.command)
        }
    }

    private func versionControl(_ request: BridgeRequest, context: BridgeContext) async throws -> BridgeReply {
        let language = try request.decode(LanguageParameter.self).value
        let decision = try await service.versionControl(
            app: try app(), platform: try platform(), language: language, connectivity: try connectivity(),
            isAlertShowing: alert.isShowing)
        if let shown = decision.alert {
            alert.isShowing = true
            context.emit("osamAlert", shown.jsonValue)
        }
        return .ok(decision.jsonValue)
    }

    private func answer(_ parameters: AnswerParameters) async throws -> BridgeReply {
        guard let choice = AlertChoice(rawValue: parameters.choice.lowercased()) else {
            throw BridgeError(
                .badRequest, "bad Data for osam.versionControlAnswer: choice must be ok, cancel or dismiss")
        }
        let answer = try await service.answer(
            package: try package(), platform: try platform(), choice: choice,
            dontShowAgain: parameters.dontShowAgain ?? false)
        alert.isShowing = false
        return .ok(answer.jsonValue)
    }

    // MARK: - Settings

    private func package() throws -> String {
        guard let package = settings.package, !package.isEmpty else {
            throw Self.notConfigured("osam.package", example: "cat.bcn.app")
        }
        return package
    }

    private func platform() throws -> Platform {
        guard let platform = settings.platform.flatMap(Platform.init(name:)) else {
            throw Self.notConfigured("osam.platform", example: "IOS")
        }
        return platform
    }

    private func app() throws -> InstalledApp {
        guard let code = settings.versionCode.flatMap({ Int64($0) }), code >= 1 else {
            throw Self.notConfigured("osam.versionCode", example: "100")
        }
        return InstalledApp(
            packageName: try package(), versionCode: code, versionName: settings.versionName,
            osVersion: device.platformVersion, model: device.platformModel)
    }

    private func connectivity() throws -> OSAMService.Connectivity {
        guard settings.hasEndpoint else { throw Self.notConfigured("osam.endpoint", example: "https://osam.example/") }
        return .probe
    }

    private static func notConfigured(_ key: String, example: String) -> BridgeError {
        BridgeError(
            .unavailable, "OSAM needs \(key): set it with `sclm config set \(key) \(example)` and restart the bridge")
    }
}

/// Whether an alert shown by this host still waits for its answer (OSAM's "alert already on screen").
final class AlertGate: Sendable {
    private let showing = Mutex(false)

    var isShowing: Bool {
        get { showing.withLock { $0 } }
        set { showing.withLock { $0 = newValue } }
    }
}
