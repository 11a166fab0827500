import SCLMCore
import SCLMTestSupport
import Testing

@testable import SCLMCommands
@testable import SCLMSync

/// What the live display and the plain lines show for a sequence of content events.
@Suite(.tags(.small)) struct ProgressBoardTests {
    static let mib: Int64 = 1 << 20
    let start = ContinuousClock.now

    static func started(_ id: Int64, _ name: String, bytes: Int64 = 64 << 20, cached: Int64 = 0) -> ContentEvent {
        .started(
            .init(
                presentationId: id, clientId: 1, name: name, revision: 2, installedRevision: 1, bytes: bytes,
                cachedBytes: cached))
    }

    static func progress(_ id: Int64, _ phase: ContentEvent.Phase, _ bytes: Int64, of total: Int64 = 64 << 20)
        -> ContentEvent
    {
        .progress(.init(presentationId: id, phase: phase, bytes: bytes, totalBytes: total))
    }

    func board(_ events: [(Duration, ContentEvent)]) -> ProgressBoard {
        var board = ProgressBoard()
        for (offset, event) in events { board.apply(event, at: start + offset) }
        return board
    }

    @Test func liveLinesShowEachTransferAndATotalWithinTheWidth() {
        let board = board([
            (.zero, .planned(.init(presentations: 2, bytes: 128 << 20, skipped: 0, upToDate: 0))),
            (.zero, Self.started(101, "Cardiora 10 mg — Detail Aid")),
            (.zero, Self.started(102, "Respira", cached: 32 << 20)),
            (.seconds(1), Self.progress(101, .download, 16 << 20)),
            (.seconds(1), Self.progress(102, .download, 48 << 20)),
        ])
        let lines = board.liveLines(at: start + .seconds(1), width: 79)
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.count <= 79 })
        #expect(lines[0].hasPrefix("  101 Cardiora 10…"))
        #expect(lines[0].contains("download [") && lines[0].contains("25% 16.0/64.0 MiB 16.0 MiB/s ETA 0:03"))
        // Bytes resumed from the cache count as done but not towards the rate.
        #expect(lines[1].contains("75% 48.0/64.0 MiB 16.0 MiB/s ETA 0:01"))
        #expect(lines[2].hasPrefix("  Total 0/2") && lines[2].contains("50% 64.0/128.0 MiB 32.0 MiB/s ETA 0:02"))
        let narrow = board.liveLines(at: start + .seconds(1), width: 40)
        #expect(narrow.allSatisfy { $0.count <= 40 })
    }

    @Test func finishedPresentationsBecomePermanentLinesOnce() {
        var board = board([
            (.zero, Self.started(101, "Cardiora")),
            (.milliseconds(300), Self.progress(101, .unpack, 10 << 20)),
        ])
        #expect(board.liveLines(at: start + .seconds(1), width: 80).first?.contains("unpack") == true)
        board.apply(
            .installed(
                .init(
                    presentationId: 101, name: "Cardiora", revision: 2, previousRevision: 1, path: "/x", files: 13,
                    unpackedBytes: 1, downloadedBytes: 27_443, mediaFilesDownloaded: 0, seconds: 0.42)),
            at: start + .seconds(1))
        board.apply(
            .failed(
                .init(presentationId: 102, name: "Respira", category: .archive, message: "cannot install: ARCHIVE-CRC")),
            at: start + .seconds(1))
        board.apply(
            .busy(.init(presentationId: 103, name: "Gluco", reason: "another sclm process is syncing it")), at: start)
        board.apply(.skipped(.init(presentationId: 202, name: "Draft", reason: "the server marks it skip")), at: start)
        #expect(
            board.takeFinishedLines().map(\.text) == [
                "✓ Cardiora (101) revision 2 (was 1) · 13 files · 26.8 KiB in 420 ms",
                "✗ Respira (102) failed: cannot install: ARCHIVE-CRC",
                "~ Gluco (103) busy: another sclm process is syncing it",
                "- Draft (202) skipped: the server marks it skip",
            ])
        #expect(board.takeFinishedLines().isEmpty)
        #expect(board.liveLines(at: start + .seconds(2), width: 80).isEmpty)
        #expect(
            board.tally.installed == 1 && board.tally.failed == 1 && board.tally.busy == 1 && board.tally.skipped == 1)
    }

    @Test func packageSizesNearTheLargestNumberDoNotTrap() {
        var board = board([
            (.zero, .planned(.init(presentations: 2, bytes: .max, skipped: 0, upToDate: 0))),
            (.zero, Self.started(101, "Huge", bytes: .max)),
            (.zero, Self.started(102, "Huge too", bytes: .max)),
            (.seconds(1), Self.progress(101, .unpack, 10 << 20, of: .max)),
            (.seconds(1), Self.progress(102, .unpack, 10 << 20, of: .max)),
        ])
        #expect(board.liveLines(at: start + .seconds(2), width: 80).count == 3)
        board.apply(
            .failed(.init(presentationId: 101, name: "Huge", category: .archive, message: "too big")),
            at: start + .seconds(3))
        board.apply(
            .failed(.init(presentationId: 102, name: "Huge too", category: .archive, message: "too big")),
            at: start + .seconds(3))
        #expect(board.liveLines(at: start + .seconds(4), width: 80).last?.hasPrefix("  Total 2/2") == true)
    }
}
