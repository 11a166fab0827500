import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Unpacks a content package into a staging folder next to its target, under the package policy.
///
/// The same checks as ``PackageValidator`` run while extracting (one implementation of the package policy),
/// and the first error the policy refuses (every safety error; content errors under
/// ``ContentPolicy/refuse``) refuses the package: the staging folder is removed and nothing else is touched.
/// Other findings come back with the staged package. Only
/// regular files and folders are written, each created relative to the staging root with
/// `O_EXCL|O_NOFOLLOW` (no libarchive disk writer, no link ever followed); CRCs are verified as the data is
/// read; budgets count the bytes actually decompressed, so a zip bomb stops early. When ``isDurable``, the
/// staging tree is flushed to disk before `extract` returns, so swapping it in with
/// ``installStaging(_:as:)`` is crash-safe. Memory stays flat in the package size. A package of 8 MiB and 64
/// entries or more is read by several workers at once (one per core, ``Policy/workerCount`` to force it),
/// with the same findings as one thread.
///
/// ```swift
/// let extractor = PackageExtractor()
/// let staged = try await extractor.extract(zipAt: "cache/17_rev3.zip", stagingFor: "content/1/17/sources")
/// try PackageExtractor.installStaging(staged.stagingPath, as: staged.targetPath)
/// ```
package struct PackageExtractor: Sendable {
    /// Bytes unpacked so far out of the total the zip declares (which may be 0 or wrong: it is a claim).
    package struct Progress: Sendable, Equatable {
        package let bytesWritten: Int64
        package let bytesExpected: Int64
    }

    /// A package unpacked into its staging folder, ready for ``installStaging(_:as:)``.
    package struct StagedPackage: Sendable, Equatable {
        /// The staging folder: `<parent of target>/.<target name>.staging-<random>`.
        package let stagingPath: String
        /// The folder the package is meant to replace.
        package let targetPath: String
        /// Regular files written.
        package let fileCount: Int
        /// Bytes of file data written.
        package let byteCount: Int64
        /// What was found without refusing the package: warnings, and content errors under
        /// ``ContentPolicy/install``, in report order.
        package let findings: [Finding]
    }

    /// The budgets and switches applied; its ``Policy/contentPolicy`` says whether content errors (missing
    /// images, dangling swipes) refuse the package; unsafe archives are always refused.
    package var policy: Policy
    /// Whether the staging tree is flushed to disk (`syncfs`) before ``extract(zipAt:stagingFor:progress:)``
    /// returns. Keep it on for anything ``installStaging(_:as:)`` will swap in.
    package var isDurable: Bool

    /// Creates an extractor.
    package init(policy: Policy = .standard, isDurable: Bool = true) {
        self.policy = policy
        self.isDurable = isDurable
    }

    /// Unpacks the zip at `archivePath` into a new staging folder next to `targetPath`.
    ///
    /// The parent folder of `targetPath` must exist; `targetPath` itself is not touched. Runs on its own
    /// thread; `progress` is called on that thread after each block. Cancelling the task stops it between
    /// blocks and removes the staging folder.
    ///
    /// With `removingArchive`, the zip is deleted as soon as every entry has been read and the package
    /// passed, before the staging tree is flushed: pages of a zip that is never needed again are then
    /// dropped instead of written to disk by the flush.
    ///
    /// - Returns: the staged package; pass its ``StagedPackage/stagingPath`` to ``installStaging(_:as:)``.
    /// - Throws: ``ArchiveError``: ``ArchiveError/Code/refused`` with the findings when the package breaks
    ///   the policy, ``ArchiveError/Code/unreadable`` when the zip cannot be read,
    ///   ``ArchiveError/Code/writeFailed`` when the staging folder cannot be written (disk full);
    ///   `CancellationError`. In every case the staging folder is gone.
    package func extract(
        zipAt archivePath: String, stagingFor targetPath: String, removingArchive: Bool = false,
        progress: @escaping @Sendable (Progress) -> Void = { _ in }
    ) async throws -> StagedPackage {
        let target = InstallPaths(target: targetPath)
        let policy = policy
        let isDurable = isDurable
        return try await BlockingWork.run("sclm.extract") { cancellation in
            var writer = StagingWriter(root: target.newStagingPath(), isDurable: isDurable, reserve: policy.diskReserve)
            do {
                var scanner = ZipScanner(path: archivePath, policy: policy, cancellation: cancellation)
                scanner.progress = { written, expected in
                    progress(Progress(bytesWritten: written, bytesExpected: expected))
                }
                var scan = try scanner.scan(into: &writer)
                let findings = scan.finish()
                if findings.contains(where: policy.refuses) {
                    throw ArchiveError.refused(archivePath, findings: findings, policy: policy)
                }
                if removingArchive { unlink(archivePath) }
                try writer.finish()
                return StagedPackage(
                    stagingPath: writer.root, targetPath: target.target, fileCount: writer.fileCount,
                    byteCount: scan.byteCount, findings: findings)
            } catch {
                writer.discard()
                throw error
            }
        }
    }
}
