import SCLMCore

/// A usage error: the message and the command's usage are printed, exit 64 (`EX_USAGE`).
public struct ValidationError: CategorizedError, Equatable {
    /// What is wrong with the command line.
    public let message: String

    /// Creates a usage error.
    public init(_ message: String) { self.message = message }

    public var category: ErrorCategory { .usage }
    public var description: String { message }
}

/// An early, successful exit (help or version printed). Exit 0.
public enum CleanExit: Error, Equatable {
    /// Help was requested for the command at `path`.
    case helpRequested(path: [String])
    /// `--version` was given.
    case version
}

/// Ends the process with `status` without printing anything more (the command already reported).
public struct ExitCode: Error, Equatable {
    /// The process exit status.
    public let status: Int32

    /// Creates an exit with `status`.
    public init(_ status: Int32) { self.status = status }

    /// Some work failed; the command printed what.
    public static let failure = ExitCode(1)
}
