import SCLMCore

/// The settings a render's bridge modules read: none by default (the throwaway home starts empty), the
/// user's home's `config.json` with `--home-settings` (read, never written), then each `--config KEY=VALUE`.
package struct RenderSettings: Sendable, Equatable {
    /// Whether the home's stored settings (global `--home`/`SCLM_HOME`) are the starting point.
    package var usesHomeSettings: Bool
    /// `--config` values, by key name, in canonical form.
    package var overrides: [String: String]

    /// Creates the settings: the home's stored ones when `usesHomeSettings`, then `overrides`.
    package init(usesHomeSettings: Bool = false, overrides: [String: String] = [:]) {
        self.usesHomeSettings = usesHomeSettings
        self.overrides = overrides
    }

    /// Writes the render home's `config.json`: the user's stored settings when asked, then the overrides.
    ///
    /// - Throws: `SCLMError` reading the user's `config.json` or writing the render home's.
    package func write(from userHome: Home, to renderHome: Home) throws {
        var stored =
            usesHomeSettings ? try Configuration.load(from: userHome.configPath, environment: [:]).stored : [:]
        stored.merge(overrides) { _, override in override }
        guard !stored.isEmpty else { return }
        try Configuration(stored: stored).save(to: renderHome.configPath)
    }

    /// `message` with each `sclm config set KEY VALUE` advice (which a render never reads) turned into the
    /// `--config KEY=VALUE` that works there.
    package static func renderAdvice(_ message: String) -> String {
        message.replacing(/`sclm config set ([A-Za-z0-9.]+) ([^`]*)`( and restart the bridge)?/) { match in
            "`--config \(match.1)=\(match.2)` (or --home-settings)"
        }
    }
}
