/// The broad class of a failure: what commands and the bridge map errors on.
///
/// Every module error reports one category through ``CategorizedError``. The CLI turns it into an
/// exit code (``exitCode``) and the bridge into a response code, so neither needs to know the
/// concrete error types of lower modules.
package enum ErrorCategory: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// The user asked for something malformed (bad flag, bad value). Exit 64.
    case usage
    /// Credentials are missing, expired or rejected. Exit 77.
    case auth
    /// A remote service could not be reached or answered with an error. Exit 69.
    case network
    /// A temporary condition that is worth retrying later (busy, rate limited, Retry-After). Exit 75.
    case temporary
    /// Reading or writing local files or the database failed. Exit 74.
    case storage
    /// A content package is broken or unsafe. Exit 1.
    case archive
    /// A rule or policy refused the operation (validation findings, OSAM decisions). Exit 1.
    case policy
    /// Something the user asked for does not exist. Exit 1.
    case notFound
    /// An input path is neither a file nor a folder (a FIFO, socket or device). Exit 66 (`EX_NOINPUT`).
    case noInput
    /// The operation was cancelled (Ctrl-C, SIGTERM). Exit 130.
    case cancelled
    /// A bug or an impossible state. Exit 70.
    case `internal`

    /// The process exit status for a command that fails with this category (docs/cli.md).
    package var exitCode: Int32 {
        switch self {
        case .usage: 64
        case .auth: 77
        case .network: 69
        case .temporary: 75
        case .storage: 74
        case .archive, .policy, .notFound: 1
        case .noInput: 66
        case .cancelled: 130
        case .internal: 70
        }
    }

    package var description: String { rawValue }
}
