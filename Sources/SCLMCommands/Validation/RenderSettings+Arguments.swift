import SCLMCore
import SCLMPlayer

extension RenderSettings {
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
            guard let key = SettingsCatalog.named(name) else {
                throw ValidationError("--config: unknown setting '\(name)' (see `sclm config list`)")
            }
            try configuration.set(key, to: String(argument[argument.index(after: equals)...]))
        }
        return RenderSettings(usesHomeSettings: usesHomeSettings, overrides: configuration.stored)
    }
}
