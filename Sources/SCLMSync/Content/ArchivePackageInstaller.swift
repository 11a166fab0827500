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

    package var policy: Policy { extractor.policy }

    package var supportsDelta: Bool { true }

    package func unpack(
        zipAt zipPath: String, stagingFor targetPath: String, removingZip: Bool,
        progress: @escaping @Sendable (Int64, Int64) -> Void
    ) async throws -> StagedContent {
        // The directory is read again (no data) for the manifest before the zip may be removed.
        let declared = (try? PackageManifest.declaredFiles(ofZipAt: zipPath)) ?? []
        let staged = try await extractor.extract(zipAt: zipPath, stagingFor: targetPath, removingArchive: removingZip) {
            update in
            progress(update.bytesWritten, update.bytesExpected)
        }
        return StagedContent(staged, declaredFiles: declared)
    }

    package func unpackDelta(
        partialZipAt partialPath: String, plan: DeltaPlan, stagingFor targetPath: String,
        progress: @escaping @Sendable (Int64, Int64) -> Void
    ) async throws -> (StagedContent, [ReuseMethod: Int]) {
        let staged = try await extractor.extractDelta(
            partialZipAt: partialPath, plan: plan, installedPath: targetPath, stagingFor: targetPath,
            removingArchive: true
        ) { update in
            progress(update.bytesWritten, update.bytesExpected)
        }
        return (StagedContent(staged.package, declaredFiles: plan.declaredFiles), staged.reuse)
    }

    package func swap(_ staged: StagedContent) throws {
        try PackageExtractor.installStaging(staged.stagingPath, as: staged.targetPath)
    }

    package func repair(target targetPath: String) throws {
        try PackageExtractor.repairInterruptedInstall(at: targetPath)
    }
}

extension StagedContent {
    /// The content SCLMArchive staged, with the package's declared files.
    init(_ staged: PackageExtractor.StagedPackage, declaredFiles: [PackageManifest.DeclaredFile]) {
        self.init(
            stagingPath: staged.stagingPath, targetPath: staged.targetPath, fileCount: staged.fileCount,
            byteCount: staged.byteCount, findings: staged.findings.map(PackageFindingRecord.init),
            declaredFiles: declaredFiles)
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
