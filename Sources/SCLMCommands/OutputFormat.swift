/// The output format of a command with a `--format` option that has a `json` choice.
enum OutputFormat {
    /// The format to print in: `format` (`fallback` when not given), or `json` under the global `--json`, which
    /// conflicts with any other `--format`.
    ///
    /// - Throws: ``ValidationError`` when `--json` and another `--format` are both given.
    static func resolve<Format: RawRepresentable<String>>(
        _ format: Format?, json: Format, fallback: Format, wantsJSON: Bool
    ) throws -> Format {
        guard wantsJSON else { return format ?? fallback }
        if let format, format.rawValue != json.rawValue {
            throw ValidationError("--json conflicts with --format \(format.rawValue)")
        }
        return json
    }
}
