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
package struct OSAMModule: DeclaredBridgeModule {
    /// What the configuration says about the app.
    package struct Settings: Sendable, Equatable {
        /// `osam.endpoint` is set (checks contact the backend).
        package var hasEndpoint: Bool
        /// `osam.package`.
        package var package: String?
        /// `osam.platform`.
        package var platform: Platform?
        /// `osam.versionCode`.
        package var versionCode: Int?
        /// `osam.versionName`, else `app.version`.
        package var versionName: String
        /// `app.name`.
        package var appName: String

        /// Reads the `osam.*` and `app.*` settings.
        ///
        /// - Throws: `SCLMError` (`.usage`) for a setting its key refuses.
        package init(configuration: Configuration) throws {
            hasEndpoint = try configuration.value(.osamEndpoint) != nil
            package = try configuration.value(.osamPackage)
            platform = try configuration.value(.osamPlatform)
            versionCode = try configuration.value(.osamVersionCode)
            versionName = try configuration.value(.osamVersionName) ?? configuration.required(.appVersion)
            appName = try configuration.required(.appName)
        }
    }

    package let name = "OSAM"
    package static let declarations: BridgeCommandDeclarations<Self> = [
        .deferred("osam.versionControl", parameters: LanguageParameter.self) { module, parameters, context in
            try await module.versionControl(parameters.value, context: context)
        },
        .deferred("osam.versionControlAnswer", parameters: AnswerParameters.self) { module, parameters, _ in
            try await module.answer(parameters)
        },
        .deferred("osam.rating") { module, _, _ in
            .ok(
                try await module.service.rating(
                    package: try module.package(), platform: try module.platform(),
                    connectivity: try module.connectivity()
                ).jsonValue)
        },
        .deferred("osam.deviceInformation") { module, _, _ in .ok(module.device.jsonValue) },
        .deferred("osam.appInformation") { module, _, _ in
            .ok(
                AppInformation(
                    appName: module.settings.appName, appVersionName: module.settings.versionName,
                    appVersionCode: module.settings.versionCode.map(String.init) ?? ""
                ).jsonValue)
        },
        .deferred("osam.changeLanguageEvent", parameters: LanguageParameter.self) { module, parameters, _ in
            .ok(
                try await module.service.changeLanguage(
                    app: try module.app(), language: parameters.value, deviceLanguage: module.deviceLanguage
                ).jsonValue)
        },
        .deferred("osam.firstTimeOrUpdateEvent", parameters: LanguageParameter.self) { module, parameters, _ in
            .ok(
                try await module.service.firstTimeOrUpdate(
                    app: try module.app(), language: parameters.value, deviceLanguage: module.deviceLanguage
                ).jsonValue)
        },
        .deferred("osam.subscribeToCustomTopic", parameters: TopicParameter.self) { module, parameters, _ in
            try await module.customTopic(parameters.topic, subscribe: true)
        },
        .deferred("osam.unsubscribeToCustomTopic", parameters: TopicParameter.self) { module, parameters, _ in
            try await module.customTopic(parameters.topic, subscribe: false)
        },
        .deferred("osam.getToken") { module, _, _ in .ok(["token": .string(try await module.service.token())]) },
        .deferred("osam.isOnline") { module, _, _ in .ok(["online": .bool(await module.service.isOnline())]) },
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

    private func versionControl(_ language: Language, context: BridgeContext) async throws -> BridgeReply {
        let decision = try await service.versionControl(
            app: try app(), platform: try platform(), language: language, connectivity: try connectivity(),
            isAlertShowing: alert.isShowing)
        if let shown = decision.alert {
            alert.isShowing = true
            context.emit(.osamAlert, shown.jsonValue)
        }
        return .ok(decision.jsonValue)
    }

    private func customTopic(_ topic: String, subscribe: Bool) async throws -> BridgeReply {
        .ok(try await service.customTopic(topic, subscribe: subscribe, package: try package()).jsonValue)
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
        guard let platform = settings.platform else {
            throw Self.notConfigured("osam.platform", example: "IOS")
        }
        return platform
    }

    private func app() throws -> InstalledApp {
        guard let code = settings.versionCode.map(Int64.init) else {
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
