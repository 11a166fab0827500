import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension PackageExtractor {
    /// A delta update unpacked into its staging folder, with how the reused files got there.
    package struct StagedDelta: Sendable, Equatable {
        /// The staged package, as ``extract(zipAt:stagingFor:removingArchive:progress:)`` returns it.
        package let package: StagedPackage
        /// Reused files by how they were put in place (reflink, hard link, copy).
        package let reuse: [ReuseMethod: Int]
    }

    /// Builds the new revision of a delta update in a staging folder next to `targetPath`, exactly as a full
    /// unpack of the new revision would: the fetched entries (the partial zip at `partialPath`, made of the
    /// fetched bytes and ``DeltaPlan/directoryTail(at:)``) are unpacked by the normal scanner, with every
    /// safety rule, budget and CRC check; the folder entries are created; the unchanged files are taken from
    /// the installed revision in `installedPath` (``StagingWriter/reuse(_:from:)``: reflink, hard link or
    /// copy); then the content rules run on the whole staged tree. The findings are those of the directory,
    /// the fetched entries and the staged tree together.
    ///
    /// - Throws: as ``extract(zipAt:stagingFor:removingArchive:progress:)``; the staging folder is then gone.
    package func extractDelta(
        partialZipAt partialPath: String, plan: DeltaPlan, installedPath: String, stagingFor targetPath: String,
        removingArchive: Bool = false, progress: @escaping @Sendable (Progress) -> Void = { _ in }
    ) async throws -> StagedDelta {
        let target = InstallPaths(target: targetPath)
        let (policy, isDurable) = (policy, isDurable)
        return try await BlockingWork.run("sclm.extract-delta") { cancellation in
            var writer = StagingWriter(root: target.newStagingPath(), isDurable: isDurable, reserve: policy.diskReserve)
            do {
                var findings = plan.findings
                findings += try Self.unpackFetched(
                    partialPath, plan: plan, policy: policy, cancellation: cancellation, into: &writer
                ) { written, expected in
                    progress(Progress(bytesWritten: written, bytesExpected: expected))
                }
                for folder in plan.folders where !folder.isEmpty { try writer.directory(folder) }
                var reuse: [ReuseMethod: Int] = [:]
                for path in plan.reused {
                    try cancellation.check()
                    reuse[try writer.reuse(path, from: installedPath + "/" + path), default: 0] += 1
                }
                var scan = try FolderScanner(path: writer.root, policy: policy, cancellation: cancellation).scan()
                findings = Array(Set(findings + scan.finish())).sorted(by: Finding.reportOrder)
                if findings.contains(where: policy.refuses) {
                    throw ArchiveError.refused(partialPath, findings: findings, policy: policy)
                }
                if removingArchive { unlink(partialPath) }
                try writer.finish()
                let staged = StagedPackage(
                    stagingPath: writer.root, targetPath: target.target, fileCount: writer.fileCount,
                    byteCount: scan.byteCount, findings: findings)
                return StagedDelta(package: staged, reuse: reuse)
            } catch {
                writer.discard()
                throw error
            }
        }
    }

    /// Unpacks the fetched entries (content rules off: they see only part of the package) into `writer`.
    ///
    /// - Returns: the findings; throws the refusal when one refuses the package.
    private static func unpackFetched(
        _ partialPath: String, plan: DeltaPlan, policy: Policy, cancellation: CancellationFlag,
        into writer: inout StagingWriter, progress: @escaping @Sendable (Int64, Int64) -> Void
    ) throws -> [Finding] {
        guard plan.fetchedFiles > 0 else {
            try writer.begin(expectedBytes: 0)
            return []
        }
        var partial = policy
        partial.checksContent = false
        var scanner = ZipScanner(path: partialPath, policy: partial, cancellation: cancellation)
        scanner.progress = progress
        var scan = try scanner.scan(into: &writer)
        let findings = scan.finish()
        if findings.contains(where: policy.refuses) {
            throw ArchiveError.refused(partialPath, findings: findings, policy: policy)
        }
        guard writer.fileCount == plan.fetchedFiles else {
            throw ArchiveError(
                .unreadable, "the fetched entries unpacked to \(writer.fileCount) files, not \(plan.fetchedFiles)",
                archivePath: partialPath)
        }
        return findings
    }
}
