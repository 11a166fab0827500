import Foundation
import SCLMBridgeModules
import SCLMCore

extension SCLM {
    /// `sclm config`: read and change `config.json`.
    package struct Config: Command {
        package static let configuration = CommandConfiguration(
            commandName: "config",
            abstract: "Read and change settings in the home's config.json.",
            discussion: """
                Settings are dotted keys (api.url, auth.clientId, …). Environment variables override the
                file (SCLM_API_URL, SCLM_AUTH_URL, SCLM_CLIENT_ID, SCLM_CLIENT_SECRET, SCLM_USERNAME,
                SCLM_PASSWORD). Secrets are always shown masked.
                """,
            subcommands: [Get.self, Set.self, Unset.self, List.self]
        )

        package init(parsing arguments: ParsedArguments) throws {}
    }
}

extension SCLM.Config {
    /// `sclm config get KEY`.
    package struct Get: Command {
        package static let configuration = CommandConfiguration(
            commandName: "get", abstract: "Print the effective value of a setting.",
            arguments: [ArgumentSpec.configKey("The setting, e.g. api.url.")])

        let key: AnyConfigKey

        package init(parsing arguments: ParsedArguments) throws {
            key = try ConfigEntry.key(named: arguments.positional(0, named: "key"))
        }

        package func run(_ context: CommandContext) async throws {
            let entry = ConfigEntry(key: key, configuration: try context.configuration())
            if context.wantsJSON {
                context.printJSON(entry)
            } else {
                context.print("\(entry.value ?? "")")
            }
        }
    }

    /// `sclm config set KEY VALUE`.
    package struct Set: Command {
        package static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Store a setting in config.json.",
            discussion: """
                Give '-' as the value to read it from stdin, so secrets stay out of the process list and the
                shell history. Secret settings (auth.clientSecret, iot.secret, osam.password) accept only '-'.
                """,
            arguments: [
                ArgumentSpec.configKey("The setting, e.g. auth.clientId."),
                .configValue,
            ])

        let key: AnyConfigKey
        let value: String

        package init(parsing arguments: ParsedArguments) throws {
            key = try ConfigEntry.key(named: arguments.positional(0, named: "key"))
            value = try arguments.positional(1, named: "value")
        }

        /// Refuses a secret given on the command line, where every user of the machine can read it
        /// (`/proc/PID/cmdline`, `ps`) and the shell history keeps it; the value is not repeated in the message.
        package func validate() throws {
            guard key.isSecret, key.isStorable, value != "-" else { return }
            throw ValidationError(
                "\(key.name) is a secret and is not taken on the command line: give '-' and pipe the value on stdin, "
                    + "e.g. printf '%s\\n' \"$SECRET\" | sclm config set \(key.name) -")
        }

        package func run(_ context: CommandContext) async throws {
            let newValue = value == "-" ? (readLine(strippingNewline: true) ?? "") : value
            try ConfigEntry.update(context: context) { configuration in
                try configuration.set(key, to: newValue)
            }
            if context.wantsJSON {
                context.printJSON(ConfigEntry(key: key, configuration: try context.configuration()))
            }
        }
    }

    /// `sclm config unset KEY`.
    package struct Unset: Command {
        package static let configuration = CommandConfiguration(
            commandName: "unset", abstract: "Remove a setting from config.json (its default applies again).",
            arguments: [ArgumentSpec.configKey("The setting to remove.")])

        let key: AnyConfigKey

        package init(parsing arguments: ParsedArguments) throws {
            key = try ConfigEntry.key(named: arguments.positional(0, named: "key"))
        }

        package func run(_ context: CommandContext) async throws {
            try ConfigEntry.update(context: context) { configuration in
                try configuration.set(key, to: nil)
            }
        }
    }

    /// `sclm config list`.
    package struct List: Command {
        package static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List every setting with its effective value and source.")

        package init(parsing arguments: ParsedArguments) throws {}

        package func run(_ context: CommandContext) async throws {
            let configuration = try context.configuration()
            let entries = SettingsCatalog.all.map { ConfigEntry(key: $0, configuration: configuration) }
            if context.wantsJSON {
                context.printJSON(entries)
            } else {
                let rows = entries.map { [$0.key, $0.value.map(Self.shortened) ?? "(unset)", $0.source.rawValue] }
                context.print(TextTable.columns(header: ["KEY", "VALUE", "SOURCE"], rows: rows))
            }
        }

        /// The longest value the table shows whole; `config get KEY` and `--json` show every value whole.
        static let shownLength = 64

        /// `value` cut to ``shownLength`` characters with `…`, when longer.
        static func shortened(_ value: String) -> String {
            value.count <= shownLength ? value : value.prefix(shownLength - 1) + "…"
        }
    }
}

extension ArgumentSpec {
    /// The `value` positional of `sclm config set`, completed with the choices of the key before it.
    static var configValue: ArgumentSpec {
        var spec = ArgumentSpec("value", help: "The new value, or '-' to read one line from stdin.")
        spec.choicesAfter = Dictionary(
            uniqueKeysWithValues: SettingsCatalog.all.map { ($0.name, $0.allowedValues ?? []) })
        return spec
    }

    /// The `key` positional of `sclm config get|set|unset`, completed with every setting's name.
    static func configKey(_ help: String) -> ArgumentSpec {
        ArgumentSpec("key", help: help, choices: SettingsCatalog.all.map(\.name))
    }
}

/// One setting as shown to the user (secrets masked).
struct ConfigEntry: Encodable, Equatable {
    let key: String
    let value: String?
    let source: ConfigSource
    let secret: Bool
    let help: String

    init(key: AnyConfigKey, configuration: Configuration) {
        let resolved = configuration.resolved(key)
        self.key = key.name
        self.value = resolved.value.map { Configuration.display($0, for: key) }
        self.source = resolved.source
        self.secret = key.isSecret
        self.help = key.help
    }

    static func key(named name: String) throws -> AnyConfigKey {
        guard let key = SettingsCatalog.named(name) else {
            let names = SettingsCatalog.all.map(\.name)
            if let nearest = NearestName.suggestion(for: name, in: names) {
                throw ValidationError("unknown setting '\(name)'; did you mean `\(nearest)`?")
            }
            throw ValidationError("unknown setting '\(name)'; known settings: \(names.joined(separator: ", "))")
        }
        return key
    }

    static func update(context: CommandContext, _ change: (inout Configuration) throws -> Void) throws {
        try context.prepareHomeForWriting()
        var configuration = try context.configuration()
        try change(&configuration)
        try configuration.save(to: context.home.configPath)
    }
}
