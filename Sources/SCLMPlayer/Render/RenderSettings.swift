import SCLMCore

/// The settings a render's bridge modules read: none by default (the throwaway home starts empty), the
/// user's home's `config.json` with `--home-settings` (read, never written), then each `--config KEY=VALUE`.
struct RenderSettings: Sendable, Equatable {
    /// Whether the home's stored settings (global `--home`/`SCLM_HOME`) are the starting point.
    var usesHomeSettings = false
    /// `--config` values, by key name, in canonical form.
    var overrides: [String: String] = [:]

    /// Parses `--config KEY=VALUE` arguments: each key a storable setting, each value one it accepts.
    ///
    /// - Throws: `ValidationError` for a malformed argument or an unknown key; `SCLMError` (`.usage`) for a
    ///   value the key does not take.
    static func parse(_ arguments: [String], usesHomeSettings: Bool) throws -> RenderSettings {
        var configuration = Configuration()
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                throw ValidationError("--config needs KEY=VALUE such as osam.versionCode=100, got '\(argument)'")
            }
            let name = String(argument[..<equals])
            guard let key = ConfigKey.named(name) else {
                throw ValidationError("--config: unknown setting '\(name)' (see `sclm config list`)")
            }
            try configuration.set(key, to: String(argument[argument.index(after: equals)...]))
        }
        return RenderSettings(usesHomeSettings: usesHomeSettings, overrides: configuration.stored)
    }

    /// Writes the render home's `config.json`: the user's stored settings when asked, then the overrides.
    ///
    /// - Throws: `SCLMError` reading the user's `config.json` or writing the render home's.
    func write(from userHome: Home, to renderHome: Home) throws {
        var stored =
            usesHomeSettings ? try Configuration.load(from: userHome.configPath, environment: [:]).stored : [:]
        stored.merge(overrides) { _, override in override }
        guard !stored.isEmpty else { return }
        try Configuration(stored: stored).save(to: renderHome.configPath)
    }

    /// `message` with each `sclm config set KEY VALUE` advice (which a render never reads) turned into the
    /// `--config KEY=VALUE` that works there.
    static func renderAdvice(_ message: String) -> String {
        message.replacing(/`sclm config set ([A-Za-z0-9.]+) ([^`]*)`( and restart the bridge)?/) { match in
            "`--config \(match.1)=\(match.2)` (or --home-settings)"
        }
    }
}
