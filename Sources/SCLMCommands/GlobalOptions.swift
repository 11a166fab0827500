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

    /// The global options, as shown in help.
    package static let specs: [OptionSpec] = [
        .option("--home", value: "dir", help: "Use this sclm home instead of $SCLM_HOME or ~/.local/share/sclm."),
        .flag("--json", help: "Print machine-readable JSON on stdout."),
        .flag("-v", "--verbose", help: "Log debug details to stderr."),
        .flag("-q", "--quiet", help: "Log only errors to stderr."),
        .flag("--version", help: "Print the version and exit."),
        .flag("-h", "--help", help: "Show help information."),
    ]
}
