import SCLMCore

/// A sync step that failed, naming what it was working on (the client list, presentation 17, slide 1701
/// of presentation 17) and wrapping the reason, which says what to do.
package struct SyncError: CategorizedError {
    /// The kind of failure. New kinds may be added; do not switch exhaustively.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case fetchFailed, badResponse, unknownClient, writeFailed, unknownPresentation, downloadFailed, badPackage
            case installFailed, inconsistentRecord, unpackInterrupted, noSpace
        }
        private let base: Base

        /// A request for `subject` failed (see ``SyncError/cause``).
        package static let fetchFailed = Code(base: .fetchFailed)
        /// The server's answer for `subject` could not be read.
        package static let badResponse = Code(base: .badResponse)
        /// A `--client` value matches no client on the server.
        package static let unknownClient = Code(base: .unknownClient)
        /// Storing or removing `subject` locally failed.
        package static let writeFailed = Code(base: .writeFailed)
        /// A `--presentation` value matches no presentation of the selected clients.
        package static let unknownPresentation = Code(base: .unknownPresentation)
        /// Downloading `subject` (a package or media file) failed (see ``SyncError/cause``).
        package static let downloadFailed = Code(base: .downloadFailed)
        /// What the server sent for `subject` cannot be installed: no download URL, the wrong size, an
        /// unsafe media file name.
        package static let badPackage = Code(base: .badPackage)
        /// Unpacking or swapping in `subject` failed (see ``SyncError/cause``, which names the rule broken).
        package static let installFailed = Code(base: .installFailed)
        /// The server's record of `subject` contradicts its listing (another id, an unknown client); the
        /// record is skipped and the rest of the metadata stored.
        package static let inconsistentRecord = Code(base: .inconsistentRecord)
        /// The unpack of `subject` (a revision of a presentation) was interrupted ``UnpackAttempts/limit`` times
        /// in a row (sclm was killed or crashed while unpacking it); the revision is given up until the server
        /// publishes a new one or `sclm sync --retry`.
        package static let unpackInterrupted = Code(base: .unpackInterrupted)
        /// What the content plan must download and unpack, with the disk reserve, does not fit in `subject` (the
        /// home); the detail says how much is missing. Nothing was downloaded.
        package static let noSpace = Code(base: .noSpace)

        package var description: String { base.rawValue }
    }

    /// The kind of failure.
    package let code: Code
    /// What was being synced, e.g. `presentation 17`.
    package let subject: String
    /// The underlying failure.
    package let cause: (any Error)?
    /// Extra text (the decoding problem, the known clients).
    package let detail: String?

    /// Creates an error.
    package init(_ code: Code, subject: String, cause: (any Error)? = nil, detail: String? = nil) {
        self.code = code
        self.subject = subject
        self.cause = cause
        self.detail = detail
    }

    package var category: ErrorCategory {
        switch code {
        case .unknownClient, .unknownPresentation: .notFound
        case .badResponse, .inconsistentRecord: .network
        case .badPackage, .unpackInterrupted: .archive
        case .noSpace: .storage
        default: cause?.category ?? .internal
        }
    }

    package var description: String {
        switch code {
        case .badResponse:
            return
                "cannot read \(subject) from the server (\(detail ?? "unexpected JSON")); check api.url, and report it if it persists"
        case .unknownClient:
            return "no client \(subject)\(detail.map { "; known clients: \($0)" } ?? "")"
        case .writeFailed:
            return "cannot store \(subject): \(cause?.userMessage ?? detail ?? "unknown error")"
        case .unknownPresentation:
            return "no presentation \(subject)\(detail.map { "; \($0)" } ?? "")"
        case .downloadFailed:
            let reason = cause?.userMessage ?? detail ?? "unknown error"
            return "cannot download \(subject): \(reason)\(cause != nil ? detail.map { "; \($0)" } ?? "" : "")"
        case .badPackage:
            return "cannot install \(subject): \(detail ?? cause?.userMessage ?? "unusable server data")"
        case .inconsistentRecord:
            return
                "skipped \(subject): \(detail ?? "its record contradicts the client list"); the rest was stored, and the server's administrators should fix the record"
        case .unpackInterrupted:
            return
                "sclm stopped while unpacking \(subject) three times; it will be tried again when the server publishes a new revision or with `sclm sync --retry`"
        case .noSpace:
            return "not enough disk space in \(subject): \(detail ?? "the sync does not fit")"
        case .installFailed:
            return "cannot install \(subject): \(cause?.userMessage ?? detail ?? "unknown error")"
        default:
            return "cannot fetch \(subject): \(cause?.userMessage ?? detail ?? "unknown error")"
        }
    }
}
