import SCLMArchive
import SCLMStore

/// The production ``PackageInstaller``: SCLMArchive's ``PackageExtractor`` (policy-checked extraction into
/// a staging folder, flushed to disk) and its crash-safe `rename(2)` swap and repair.
///
/// Every rule runs; the policy's ``Policy/contentPolicy`` decides whether content errors refuse the package
/// or come back as the staged content's findings.
package struct ArchivePackageInstaller: PackageInstaller {
    /// The extractor, with its package policy.
    package let extractor: PackageExtractor

    /// Creates an installer that applies `policy`.
    package init(policy: Policy = .standard) {
        extractor = PackageExtractor(policy: policy)
    }

    package func unpack(
        zipAt zipPath: String, stagingFor targetPath: String, removingZip: Bool,
        progress: @escaping @Sendable (Int64, Int64) -> Void
    ) async throws -> StagedContent {
        let staged = try await extractor.extract(zipAt: zipPath, stagingFor: targetPath, removingArchive: removingZip) {
            update in
            progress(update.bytesWritten, update.bytesExpected)
        }
        return StagedContent(
            stagingPath: staged.stagingPath, targetPath: staged.targetPath, fileCount: staged.fileCount,
            byteCount: staged.byteCount, findings: staged.findings.map(PackageFindingRecord.init))
    }

    package func swap(_ staged: StagedContent) throws {
        try PackageExtractor.installStaging(staged.stagingPath, as: staged.targetPath)
    }

    package func repair(target targetPath: String) throws {
        try PackageExtractor.repairInterruptedInstall(at: targetPath)
    }
}

extension PackageFindingRecord {
    /// The stored form of `finding`.
    init(_ finding: Finding) {
        self.init(
            rule: finding.rule.id, severity: finding.severity.rawValue, ruleClass: finding.ruleClass.rawValue,
            path: finding.path, line: finding.line.map(Int64.init), message: finding.message)
    }
}
