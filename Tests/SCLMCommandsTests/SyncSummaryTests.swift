import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

@testable import SCLMCommands
@testable import SCLMSync

/// The text `sclm sync` ends with.
@Suite(.tags(.small)) struct SyncSummaryTests {
    static let metadata = MetadataReport(
        clientIds: [1, 2], presentations: 5, added: [101], updated: [], removed: [], unchanged: 4, failures: [])

    @Test func aContentRunSummarisesAndListsEveryFailureByPresentation() {
        var content = ContentReport()
        content.upToDate = [103, 201]
        content.busy = [104]
        content.downloadedBytes = 27_443
        content.failures = [
            SyncFailure(
                presentationId: 102, error: SCLMError(.archive, "cannot install presentation 102: ARCHIVE-CRC …"))
        ]
        let summary = SyncSummary(
            report: SyncReport(metadata: Self.metadata, content: content, pendingContent: []), names: [102: "Respira"],
            elapsed: .milliseconds(1234))
        #expect(
            summary.lines == [
                "Synced 2 clients, 5 presentation(s): 1 new, 0 updated, 0 removed, 4 unchanged.",
                "Content: 0 installed, 1 failed, 1 busy in another sclm, 2 up to date; 26.8 KiB downloaded in 1.2 s.",
                "Failed (1):",
                "  Respira (102): cannot install presentation 102: ARCHIVE-CRC …",
            ])
    }

    @Test func presentationsInstalledWithContentFindingsAreNamedWithWhereToSeeThem() {
        func installed(_ id: Int64, _ name: String, _ findings: PackageFindingCounts) -> InstalledPresentation {
            InstalledPresentation(
                presentationId: id, name: name, revision: 2, previousRevision: nil, path: "/x", files: 3,
                unpackedBytes: 10, downloadedBytes: 10, mediaFilesDownloaded: 0, seconds: 0.1, findings: findings)
        }
        var content = ContentReport()
        content.installed = [
            installed(101, "Cardiora", PackageFindingCounts(error: 1, warning: 0)),
            installed(102, "Respira", PackageFindingCounts()),
            installed(103, "Gluco", PackageFindingCounts(error: 2, warning: 1)),
        ]
        let summary = SyncSummary(
            report: SyncReport(metadata: Self.metadata, content: content, pendingContent: []), names: [:],
            elapsed: .milliseconds(90))
        #expect(
            Array(summary.lines.dropFirst(2)) == [
                "  Cardiora (101) installed with 1 content error (sclm show 101)",
                "  Gluco (103) installed with 2 content errors, 1 content warning (sclm show 103)",
            ])
    }

    @Test func aMetadataOnlyRunSaysWhatIsLeftToDownload() {
        let summary = SyncSummary(
            report: SyncReport(metadata: Self.metadata, content: nil, pendingContent: []), names: [:],
            elapsed: .milliseconds(400))
        #expect(
            summary.lines == [
                "Synced 2 clients, 5 presentation(s): 1 new, 0 updated, 0 removed, 4 unchanged in 400 ms."
            ]
        )
    }
}
