import SCLMArchive
import SCLMStore

/// A package unpacked into a staging folder beside its target, not yet swapped in.
package struct StagedContent: Sendable, Equatable {
    /// The staging folder.
    package var stagingPath: String
    /// The folder it will replace (`content/<clientId>/<presentationId>/sources`).
    package var targetPath: String
    /// Regular files written.
    package var fileCount: Int
    /// Bytes of file data written.
    package var byteCount: Int64
    /// What the package policy found without refusing the package (warnings, and content errors unless
    /// `sync.contentPolicy` is `refuse`), stored with the installed revision.
    package var findings: [PackageFindingRecord]
    /// The package's regular files as its directory declares them, for the manifest recorded with the
    /// revision (empty when unknown: no manifest is recorded then).
    package var declaredFiles: [PackageManifest.DeclaredFile]

    /// Creates a description of staged content.
    package init(
        stagingPath: String, targetPath: String, fileCount: Int, byteCount: Int64,
        findings: [PackageFindingRecord] = [],
        declaredFiles: [PackageManifest.DeclaredFile] = []
    ) {
        self.stagingPath = stagingPath
        self.targetPath = targetPath
        self.fileCount = fileCount
        self.byteCount = byteCount
        self.findings = findings
        self.declaredFiles = declaredFiles
    }
}

/// Unpacks a downloaded package under the package policy and swaps it in: the one place the content
/// phase meets the archive engine.
///
/// Implementations must leave the target untouched until ``swap(_:)``, remove the staging folder
/// themselves when ``unpack(zipAt:stagingFor:removingZip:progress:)`` fails or is cancelled, and make ``swap(_:)``
/// and ``repair(target:)`` crash-safe (a `kill -9` at any instant leaves either the old or the new
/// content, plus leftovers that ``repair(target:)`` resolves). Callers hold the presentation's lock.
package protocol PackageInstaller: Sendable {
    /// Unpacks the zip at `zipPath` into a new staging folder next to `targetPath`, flushed to disk.
    ///
    /// The package is refused for any safety finding; content findings are refused or returned in
    /// ``StagedContent/findings`` as the installer's content policy says.
    ///
    /// - Parameters:
    ///   - zipPath: the downloaded package.
    ///   - targetPath: the folder the package will replace (`…/sources`); its parent exists.
    ///   - removingZip: delete the zip once it has been read and passed, before the flush (its pages are
    ///     then dropped, not written to disk); for a zip nothing will need again.
    ///   - progress: bytes written so far and the total the zip declares.
    /// - Returns: the staged content, for ``swap(_:)``.
    /// - Throws: an error naming the broken rule for a refused package (category `.archive`), a storage
    ///   error, or `CancellationError`.
    func unpack(
        zipAt zipPath: String, stagingFor targetPath: String, removingZip: Bool,
        progress: @escaping @Sendable (Int64, Int64) -> Void
    ) async throws -> StagedContent

    /// The package policy the installer applies (a delta update checks the new directory with it first).
    var policy: Policy { get }

    /// Whether ``unpackDelta(partialZipAt:plan:stagingFor:progress:)`` is implemented (else every update is a
    /// full download).
    var supportsDelta: Bool { get }

    /// Builds the new revision of a delta update in a new staging folder next to `targetPath`, exactly as
    /// ``unpack(zipAt:stagingFor:removingZip:progress:)`` of the whole new revision would: the fetched entries
    /// from the partial zip at `partialPath` (``DeltaPlan/directoryTail(at:)`` appended), the unchanged files
    /// from the installed revision in `targetPath`, the content rules over the result.
    ///
    /// - Returns: the staged content, and how many reused files were reflinked, hard-linked or copied.
    /// - Throws: as ``unpack(zipAt:stagingFor:removingZip:progress:)``.
    func unpackDelta(
        partialZipAt partialPath: String, plan: DeltaPlan, stagingFor targetPath: String,
        progress: @escaping @Sendable (Int64, Int64) -> Void
    ) async throws -> (StagedContent, [ReuseMethod: Int])

    /// Swaps the staged folder in as its target with `rename(2)`.
    ///
    /// - Throws: a storage error; the target then still holds the previous content.
    func swap(_ staged: StagedContent) throws

    /// Resolves what an interrupted unpack or swap left beside `targetPath` (stale staging folders, a
    /// moved-away previous version).
    ///
    /// - Throws: a storage error.
    func repair(target targetPath: String) throws
}

extension PackageInstaller {
    package var policy: Policy { .standard }

    package var supportsDelta: Bool { false }

    package func unpackDelta(
        partialZipAt partialPath: String, plan: DeltaPlan, stagingFor targetPath: String,
        progress: @escaping @Sendable (Int64, Int64) -> Void
    ) async throws -> (StagedContent, [ReuseMethod: Int]) {
        throw DeltaFallback("this installer has no delta path")
    }
}
