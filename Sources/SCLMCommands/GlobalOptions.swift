import SCLMCore

/// Options every command accepts, anywhere on the command line: `--home`, `--json`, `-v`, `-q`.
package struct GlobalOptions: Sendable, Equatable {
    /// `--home DIR`: the sclm home to use instead of `SCLM_HOME` / the XDG default.
    package var home: String?
    /// `--json`: machine-readable output on stdout.
    package var json = false
    /// `-v`: debug logging.
    package var verbose = false
    /// `-q`: errors only.
    package var quiet = false

    /// Creates default options.
    package init() {}

    /// The log level these options ask for.
    package var logLevel: Logger.Level { quiet ? .error : verbose ? .debug : .info }

    /// `--home dir`.
    static let home: CommandOption<String?> = .text(
        "--home", value: "dir", help: "Use this sclm home instead of $SCLM_HOME or ~/.local/share/sclm.")
    /// `--json`.
    static let json: CommandOption<Bool> = .flag("--json", help: "Print machine-readable JSON on stdout.")
    /// `-v`, `--verbose`.
    static let verbose: CommandOption<Bool> = .flag("-v", "--verbose", help: "Log debug details to stderr.")
    /// `-q`, `--quiet`.
    static let quiet: CommandOption<Bool> = .flag("-q", "--quiet", help: "Log only errors to stderr.")
    /// `--version` (unless the command declares its own).
    static let version: CommandOption<Bool> = .flag("--version", help: "Print the version and exit.")
    /// `-h`, `--help`.
    static let help: CommandOption<Bool> = .flag("-h", "--help", help: "Show help information.")

    /// The global options, as shown in help; the parser recognizes them by these declarations.
    package static let specs: [OptionSpec] = ([home, json, verbose, quiet, version, help] as [any OptionDeclaration])
        .map(\.spec)
}
