import SCLMCore

/// A usage error: the message and the command's usage are printed, exit 64 (`EX_USAGE`).
package struct ValidationError: CategorizedError, Equatable {
    /// What is wrong with the command line.
    package let message: String

    /// Creates a usage error.
    package init(_ message: String) { self.message = message }

    package var category: ErrorCategory { .usage }
    package var description: String { message }
}

/// An early, successful exit (help or version printed). Exit 0.
package enum CleanExit: Error, Equatable {
    /// Help was requested for the command at `path`.
    case helpRequested(path: [String])
    /// `--version` was given.
    case version
}

/// Ends the process with `status` without printing anything more (the command already reported).
package struct ExitCode: Error, Equatable {
    /// The process exit status.
    package let status: Int32

    /// Creates an exit with `status`.
    package init(_ status: Int32) { self.status = status }

    /// Some work failed; the command printed what.
    package static let failure = ExitCode(1)
}
