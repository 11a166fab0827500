import CArchive

/// A libarchive return code (`ARCHIVE_OK`, `ARCHIVE_WARN`, …) with named values.
///
/// libarchive functions return these as `Int32`; wrapping them keeps every check explicit
/// (`status == .ok`, `status.isFailure`) instead of comparing magic numbers.
package struct ArchiveStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// `ARCHIVE_OK`: the operation succeeded.
    package static let ok = ArchiveStatus(rawValue: ARCHIVE_OK)
    /// `ARCHIVE_EOF`: no more entries (or no more data in the entry).
    package static let eof = ArchiveStatus(rawValue: ARCHIVE_EOF)
    /// `ARCHIVE_RETRY`: a transient failure; the operation may be retried.
    package static let retry = ArchiveStatus(rawValue: ARCHIVE_RETRY)
    /// `ARCHIVE_WARN`: the operation succeeded with a problem worth reporting (bad CRC, name conversion).
    package static let warn = ArchiveStatus(rawValue: ARCHIVE_WARN)
    /// `ARCHIVE_FAILED`: this entry cannot be processed; the next one may be.
    package static let failed = ArchiveStatus(rawValue: ARCHIVE_FAILED)
    /// `ARCHIVE_FATAL`: the archive handle is unusable.
    package static let fatal = ArchiveStatus(rawValue: ARCHIVE_FATAL)

    /// Whether the operation did not succeed (`failed`, `fatal`, `retry`).
    package var isFailure: Bool { rawValue < ARCHIVE_WARN }

    package var description: String {
        switch self {
        case .ok: "ARCHIVE_OK"
        case .eof: "ARCHIVE_EOF"
        case .retry: "ARCHIVE_RETRY"
        case .warn: "ARCHIVE_WARN"
        case .failed: "ARCHIVE_FAILED"
        case .fatal: "ARCHIVE_FATAL"
        default: "archive status \(rawValue)"
        }
    }
}
