import SCLMCore

/// Options every command accepts, anywhere on the command line: `--home`, `--json`, `-v`, `-q`.
public struct GlobalOptions: Sendable, Equatable {
    /// `--home DIR`: the sclm home to use instead of `SCLM_HOME` / the XDG default.
    public var home: String?
    /// `--json`: machine-readable output on stdout.
    public var json = false
    /// `-v`: debug logging.
    public var verbose = false
    /// `-q`: errors only.
    public var quiet = false

    /// Creates default options.
    public init() {}

    /// The log level these options ask for.
    public var logLevel: Logger.Level { quiet ? .error : verbose ? .debug : .info }

    /// The global options, as shown in help.
    public static let specs: [OptionSpec] = [
        .option("--home", value: "dir", help: "Use this sclm home instead of $SCLM_HOME or ~/.local/share/sclm."),
        .flag("--json", help: "Print machine-readable JSON on stdout."),
        .flag("-v", "--verbose", help: "Log debug details to stderr."),
        .flag("-q", "--quiet", help: "Log only errors to stderr."),
        .flag("--version", help: "Print the version and exit."),
        .flag("-h", "--help", help: "Show help information."),
    ]
}
