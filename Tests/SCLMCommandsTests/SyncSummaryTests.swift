import SCLMCore
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

    @Test func aMetadataOnlyRunSaysWhatIsLeftToDownload() {
        let summary = SyncSummary(
            report: SyncReport(metadata: Self.metadata, content: nil, pendingContent: []), names: [:],
            elapsed: .milliseconds(400))
        #expect(
            summary.lines == ["Synced 2 clients, 5 presentation(s): 1 new, 0 updated, 0 removed, 4 unchanged in 400 ms."]
        )
    }
}
