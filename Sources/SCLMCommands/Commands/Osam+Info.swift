import SCLMBridgeModules
import SCLMCore
import SCLMOSAM

extension SCLM.Osam {
    /// `sclm osam device-info`.
    package struct DeviceInfo: Command {
        package static let configuration = CommandConfiguration(
            commandName: "device-info",
            abstract: "Show the device facts OSAM reports: OS name and version, model.",
            discussion: """
                Linux: NAME and VERSION_ID of /etc/os-release; the model is /sys/class/dmi/id/product_name, else
                the machine from uname. JSON: {"platformName","platformVersion","platformModel"}
                """)

        package init(parsing arguments: ParsedArguments) throws {}

        package func run(_ context: CommandContext) async throws {
            let info = DeviceInformation.current()
            if context.wantsJSON {
                context.printJSON(info.jsonValue)
            } else {
                context.print(
                    TextTable.keyValues([
                        ("platform", "\(info.platformName)"), ("version", "\(info.platformVersion)"),
                        ("model", "\(info.platformModel)"),
                    ]))
            }
        }
    }

    /// `sclm osam app-info`.
    package struct AppInfo: Command {
        package static let configuration = CommandConfiguration(
            commandName: "app-info",
            abstract: "Show the app facts OSAM reports: name, version name and build number.",
            discussion: """
                From app.name, osam.versionName (else app.version) and osam.versionCode, or the flags.
                JSON: {"appName","appVersionName","appVersionCode"} (the build number as a string, as OSAM reports it).
                """,
            options: [appNameOption, OsamOptions.versionName, OsamOptions.versionCode])

        /// `--app-name name`.
        static let appNameOption: CommandOption<String?> = .text(
            "--app-name", value: "name", help: "App name (default: app.name).")

        let options: OsamOptions
        let appName: String?

        package init(parsing arguments: ParsedArguments) throws {
            options = try OsamOptions(parsing: arguments)
            appName = try arguments.read(Self.appNameOption)
        }

        package func run(_ context: CommandContext) async throws {
            let configuration = try context.configuration()
            let storedCode = try configuration.value(.osamVersionCode).map(Int64.init)
            let info = AppInformation(
                appName: try appName ?? configuration.value(.appName) ?? "",
                appVersionName: try options.versionName(configuration),
                appVersionCode: (options.versionCode ?? storedCode).map(String.init) ?? "")
            if context.wantsJSON {
                context.printJSON(info.jsonValue)
            } else {
                context.print(
                    TextTable.keyValues([
                        ("name", "\(info.appName)"), ("version", "\(info.appVersionName)"),
                        ("build", "\(info.appVersionCode)"),
                    ]))
            }
        }
    }
}
