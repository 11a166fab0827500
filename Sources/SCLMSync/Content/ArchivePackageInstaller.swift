import SCLMArchive

/// The production ``PackageInstaller``: SCLMArchive's ``PackageExtractor`` (policy-checked extraction into
/// a staging folder, flushed to disk) and its crash-safe `rename(2)` swap and repair.
public struct ArchivePackageInstaller: PackageInstaller {
    /// The extractor, with its package policy.
    public let extractor: PackageExtractor

    /// Creates an installer that applies `policy`.
    public init(policy: Policy = .standard) {
        extractor = PackageExtractor(policy: policy)
    }

    public func unpack(
        zipAt zipPath: String, stagingFor targetPath: String, progress: @escaping @Sendable (Int64, Int64) -> Void
    ) async throws -> StagedContent {
        let staged = try await extractor.extract(zipAt: zipPath, stagingFor: targetPath) { update in
            progress(update.bytesWritten, update.bytesExpected)
        }
        return StagedContent(
            stagingPath: staged.stagingPath, targetPath: staged.targetPath, fileCount: staged.fileCount,
            byteCount: staged.byteCount)
    }

    public func swap(_ staged: StagedContent) throws {
        try PackageExtractor.installStaging(staged.stagingPath, as: staged.targetPath)
    }

    public func repair(target targetPath: String) throws {
        try PackageExtractor.repairInterruptedInstall(at: targetPath)
    }
}
