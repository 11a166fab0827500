import CArchive
import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Checks a content package — a zip file or an unpacked folder — against the package policy (docs/validation.md)
/// without writing anything to disk.
///
/// A zip is read once: its central directory first, then every entry streamed through libarchive (CRC
/// verified, budgets counted on the bytes actually decompressed, HTML and CSS parsed as they pass);
/// references are resolved against the entry list at the end. Memory stays flat in the package size.
///
/// ```swift
/// let report = try await PackageValidator().validate("build/presentation.zip")
/// for finding in report.findings { print(finding.rule.id, finding.location, finding.message) }
/// ```
package struct PackageValidator: Sendable {
    /// The budgets and switches applied.
    package var policy: Policy

    /// Creates a validator with `policy`.
    package init(policy: Policy = .standard) { self.policy = policy }

    /// Validates the zip or folder at `path`.
    ///
    /// Runs on its own thread; cancelling the task stops it between blocks.
    /// - Returns: the findings; a broken or hostile package is a report with errors, not a thrown error.
    /// - Throws: ``ArchiveError``: ``ArchiveError/Code/unreadable`` when `path` is missing or unreadable,
    ///   ``ArchiveError/Code/notFileOrFolder`` (at once, without opening it) when it is a FIFO, socket or
    ///   device; `CancellationError`.
    package func validate(_ path: String) async throws -> PackageReport {
        let validator = self
        return try await BlockingWork.run("sclm.validate") { cancellation in
            try validator.validate(path, cancellation: cancellation)
        }
    }

    /// Validates the zip or folder at `path` on the calling thread (what ``validate(_:)`` runs on its own
    /// thread; the fuzz targets call it directly), stopping between blocks once `cancellation` is set.
    ///
    /// - Throws: as ``validate(_:)``.
    package func validate(_ path: String, cancellation: CancellationFlag) throws -> PackageReport {
        var sink = DiscardingSink()
        return try scan(path, into: &sink, cancellation: cancellation).report
    }

    /// Reads the zip or folder at `path` under ``policy``, handing every file that passes to `sink`.
    ///
    /// - Returns: the report, and the scan with the facts of the files read.
    /// - Throws: as ``validate(_:)``; whatever `sink` throws.
    func scan(_ path: String, into sink: inout some PackageSink, cancellation: CancellationFlag) throws
        -> (report: PackageReport, scan: PackageScan)
    {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw ArchiveError.system(.unreadable, "read \(path)", path: path, errno: errno)
        }
        let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
        guard isFolder || (info.st_mode & S_IFMT) == S_IFREG else {
            throw ArchiveError.notFileOrFolder(path, type: UInt32(info.st_mode & S_IFMT))
        }
        var scan =
            isFolder
            ? try FolderScanner(path: path, policy: policy, cancellation: cancellation).scan(into: &sink)
            : try ZipScanner(path: path, policy: policy, cancellation: cancellation).scan(into: &sink)
        let findings = scan.finish()
        let report = PackageReport(
            path: path, kind: isFolder ? .folder : .zip, findings: findings, entryCount: scan.entryCount,
            byteCount: scan.byteCount)
        return (report, scan)
    }
}
