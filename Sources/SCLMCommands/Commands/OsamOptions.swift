import Foundation
import SCLMBridgeModules
import SCLMCore
import SCLMOSAM
import SCLMPolicy

/// The options the `sclm osam` subcommands share, each falling back to its `osam.*` setting.
struct OsamOptions: Sendable {
    /// `--endpoint url`.
    static let endpoint: CommandOption<URL?> = .setting(
        .osamEndpoint, "--endpoint", value: "url", help: "OSAM backend base URL (default: osam.endpoint).")
    /// `--package package`.
    static let package: CommandOption<String?> = .text(
        "--package", value: "package", help: "Package (application or bundle id) (default: osam.package).")
    /// `--platform IOS|ANDROID`.
    static let platform: CommandOption<Platform?> = .setting(
        .osamPlatform, "--platform", help: "Platform of the app (default: osam.platform).",
        choices: Platform.allCases.map(\.rawValue))
    /// `--version-code n`.
    static let versionCode: CommandOption<Int?> = .setting(
        .osamVersionCode, "--version-code", value: "n", help: "Installed build number (default: osam.versionCode).")
    /// `--version-name name`.
    static let versionName: CommandOption<String?> = .text(
        "--version-name", value: "name", help: "Installed version name (default: osam.versionName, then app.version).")
    /// `--language ca|es|en`: never a usage error (hosts pass the device locale through unchanged, and OSAM
    /// falls back to English).
    static let language: CommandOption<Language?> = .option(
        "--language", value: "ca|es|en",
        help: "Language of texts and topics, any case or a locale such as ca-ES; anything else is en (default: en).",
        convert: { Language.parse($0) })
    /// `--offline`.
    static let offline: CommandOption<Bool> = .flag(
        "--offline", help: "Do not contact the backend; use what the last check cached.")
    /// `--now epoch-ms`.
    static let now: CommandOption<Int?> = .integer(
        "--now", value: "epoch-ms", help: "Device time in ms since 1970 (default: the clock).", in: 0...Int.max)

    var endpoint: URL?
    var package: String?
    var platform: Platform?
    var versionCode: Int64?
    var versionName: String?
    var language: Language
    var isOffline: Bool
    var now: Int64?

    /// Reads the options the subcommand declares (each declares only some of them).
    init(parsing arguments: ParsedArguments) throws {
        endpoint = try arguments.readIfDeclared(Self.endpoint) ?? nil
        package = try arguments.readIfDeclared(Self.package) ?? nil
        platform = try arguments.readIfDeclared(Self.platform) ?? nil
        versionCode = try (arguments.readIfDeclared(Self.versionCode) ?? nil).map { Int64($0) }
        versionName = try arguments.readIfDeclared(Self.versionName) ?? nil
        language = (try arguments.readIfDeclared(Self.language) ?? nil) ?? .default
        isOffline = try arguments.readIfDeclared(Self.offline) ?? false
        now = try (arguments.readIfDeclared(Self.now) ?? nil).map(Int64.init)
    }

    // MARK: - Resolution against the configuration

    /// The package, from `--package` or `osam.package`.
    func package(_ configuration: Configuration) throws -> String {
        guard let value = try package ?? configuration.value(.osamPackage), !value.isEmpty else {
            throw ValidationError("no package: pass --package or run 'sclm config set osam.package <package>'")
        }
        return value
    }

    /// The platform, from `--platform` or `osam.platform`.
    func platform(_ configuration: Configuration) throws -> Platform {
        guard let platform = try platform ?? configuration.value(.osamPlatform) else {
            throw ValidationError("no platform: pass --platform IOS|ANDROID or set osam.platform")
        }
        return platform
    }

    /// The installed build, from `--version-code` or `osam.versionCode`.
    func versionCode(_ configuration: Configuration) throws -> Int64 {
        if let versionCode { return versionCode }
        guard let value = try configuration.value(.osamVersionCode) else {
            throw ValidationError("no version code: pass --version-code N or set osam.versionCode")
        }
        return Int64(value)
    }

    /// The version name, from `--version-name`, `osam.versionName` or `app.version`.
    func versionName(_ configuration: Configuration) throws -> String {
        try versionName ?? configuration.value(.osamVersionName) ?? configuration.value(.appVersion) ?? ""
    }

    /// The installed app as the checks see it, with the device's OS version and model unless given.
    func installedApp(_ configuration: Configuration, osVersion: String? = nil, model: String? = nil) throws
        -> InstalledApp
    {
        let device = osVersion == nil || model == nil ? DeviceInformation.current() : nil
        return InstalledApp(
            packageName: try package(configuration), versionCode: try versionCode(configuration),
            versionName: try versionName(configuration), osVersion: osVersion ?? device?.platformVersion ?? "",
            model: model ?? device?.platformModel ?? "")
    }

    /// The device clock: `--now`, else the context's.
    func clock(_ context: CommandContext) -> any WallClock {
        now.map { FixedClock(epochMilliseconds: $0) } ?? context.clock
    }

    /// `.offline` with `--offline`, else `.probe`.
    var connectivity: OSAMService.Connectivity { isOffline ? .offline : .probe }
}
