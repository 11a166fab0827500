import SCLMCore

/// A failure to read, check, extract or install a content package.
///
/// ``code`` says what kind of failure it is (switch on it; new codes may be added), ``archivePath`` the
/// package, ``entryPath`` the entry involved if any, and ``findings`` the rule violations behind a
/// ``Code/refused`` package. The description is one sentence naming what failed and what to do.
package struct ArchiveError: CategorizedError {
    /// The kind of failure.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String {
            case unreadable, notFileOrFolder, refused, writeFailed, installFailed, libarchive
        }

        private let value: Value

        /// The package (or folder) cannot be opened or read: missing, permission denied. Exit 74.
        package static let unreadable = Code(value: .unreadable)
        /// The path is neither a regular file nor a folder (a FIFO, socket or device), so it is not read at
        /// all: opening a FIFO would block. Exit 66.
        package static let notFileOrFolder = Code(value: .notFileOrFolder)
        /// The package breaks the package policy; ``ArchiveError/findings`` lists why. Exit 1.
        package static let refused = Code(value: .refused)
        /// Writing the staging folder failed (disk full, permissions). Exit 74.
        package static let writeFailed = Code(value: .writeFailed)
        /// Swapping the staging folder in (or repairing an interrupted swap) failed. Exit 74.
        package static let installFailed = Code(value: .installFailed)
        /// libarchive could not be set up (out of memory, unsupported build). Exit 70.
        package static let libarchive = Code(value: .libarchive)

        package var description: String { value.rawValue }
    }

    /// The kind of failure.
    package let code: Code
    /// What failed and what to do, as one sentence.
    package let message: String
    /// The package or folder concerned.
    package let archivePath: String?
    /// The entry concerned, if any (escaped for display).
    package let entryPath: String?
    /// The findings of a refused package, in report order.
    package let findings: [Finding]
    /// The system error number behind an I/O failure.
    package let systemError: Int32?

    /// Creates an error.
    package init(
        _ code: Code, _ message: String, archivePath: String? = nil, entryPath: String? = nil,
        findings: [Finding] = [], systemError: Int32? = nil
    ) {
        self.code = code
        self.message = message
        self.archivePath = archivePath
        self.entryPath = entryPath
        self.findings = findings
        self.systemError = systemError
    }

    package var category: ErrorCategory {
        switch code {
        case .refused: .archive
        case .notFileOrFolder: .noInput
        case .libarchive: .internal
        default: .storage
        }
    }

    package var description: String { message }

    /// A ``Code/refused`` error for `findings`, naming the first of them that `policy` refuses.
    package static func refused(_ archivePath: String, findings: [Finding], policy: Policy) -> ArchiveError {
        let errors = findings.filter(policy.refuses)
        let first = errors.first ?? findings.first
        let more = errors.count > 1 ? " (and \(errors.count - 1) more)" : ""
        let detail =
            first.map { "\($0.rule.id) at \($0.location): \($0.message)\(more); \($0.fix)" } ?? "policy violation"
        return ArchiveError(
            .refused, "package \(archivePath) refused: \(detail)", archivePath: archivePath, entryPath: first?.path,
            findings: findings)
    }

    /// A ``Code/notFileOrFolder`` error for `path`, whose `stat` file type bits are `type`.
    static func notFileOrFolder(_ path: String, type: UInt32) -> ArchiveError {
        ArchiveError(
            .notFileOrFolder,
            "\(path) is not a file or folder (it is a \(EntryRules.typeName(type))); pass a package zip or folder",
            archivePath: path)
    }

    /// An I/O error for a failed system call on `path`.
    static func system(_ code: Code, _ action: String, path: String, errno number: Int32, entryPath: String? = nil)
        -> ArchiveError
    {
        let reason = FileSystem.storageError(action, errno: number).message
        return ArchiveError(code, reason, archivePath: path, entryPath: entryPath, systemError: number)
    }
}
