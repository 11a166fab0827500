import Foundation
import SCLMCore
import SCLMHTTP
import SCLMStore
import SCLMTestSupport
import Synchronization
import Testing

@testable import SCLMSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A whole sync in the test process (``SyncHarness``): the success path and every failure path of the
/// content phase, each checked in the database and on disk afterwards.
@Suite(.tags(.medium), .timeLimit(.minutes(1))) struct SyncManagerTests {
    let harness: SyncHarness

    init() throws { harness = try SyncHarness() }

    func sync() async throws -> SyncReport {
        try await harness.manager().sync(SyncOptions())
    }

    /// Leaves `count` bytes of the package in its part, recorded as resumable (or under another ETag).
    func leavePart(_ count: Int, entityTag: String = SyncHarness.packageTag, bytes: Data = SyncHarness.package) throws {
        _ = FileManager.default.createFile(atPath: harness.packagePart, contents: bytes.prefix(count))
        try ResumeRecord(blobId: "pkg", fileSize: Int64(SyncHarness.package.count), entityTag: entityTag).save(
            forPart: harness.packagePart)
    }

    /// Checks that presentation 101 is installed at revision 4 with the package and the media file.
    func expectInstalled(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (summary, error) = try harness.stored()
        #expect(summary?.installedRevision == 4, sourceLocation: sourceLocation)
        #expect(summary?.syncState == .installed, sourceLocation: sourceLocation)
        #expect(error == nil, sourceLocation: sourceLocation)
        #expect(
            FileManager.default.contents(atPath: harness.sources + "/index.html") == SyncHarness.package,
            sourceLocation: sourceLocation)
        #expect(
            FileManager.default.contents(atPath: harness.sources + "/mediafiles/a.pdf") == SyncHarness.media,
            sourceLocation: sourceLocation)
        #expect(harness.cacheFiles() == [], sourceLocation: sourceLocation)
        #expect(harness.presentationFolderEntries() == ["sources"], sourceLocation: sourceLocation)
    }

    /// Checks that presentation 101 is not installed, its state is settled with `error` (or none), and no
    /// staging folder is left.
    func expectNotInstalled(error expected: String?, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (summary, error) = try harness.stored()
        #expect(summary?.installedRevision == nil, sourceLocation: sourceLocation)
        #expect(summary?.syncState == .readyToDownload, sourceLocation: sourceLocation)
        if let expected {
            #expect(error?.contains(expected) == true, "\(error ?? "no error")", sourceLocation: sourceLocation)
        } else {
            #expect(error == nil, sourceLocation: sourceLocation)
        }
        #expect(!harness.presentationFolderEntries().contains { $0 != "sources" }, sourceLocation: sourceLocation)
        #expect(!FileSystem.exists(harness.sources), sourceLocation: sourceLocation)
    }

    // MARK: - Transfers

    @Test func aSyncInstallsThePackageAndItsMediaFile() async throws {
        let report = try await sync()
        #expect(report.isSuccess)
        #expect(report.content?.installed.map(\.presentationId) == [101])
        #expect(report.content?.downloadedBytes == Int64(SyncHarness.package.count + SyncHarness.media.count))
        try expectInstalled()
        #expect(try harness.lastSyncResult() == "ok")
    }

    @Test func aPartLeftByAnEarlierRunIsResumed() async throws {
        try leavePart(700)
        let report = try await sync()
        try expectInstalled()
        let first = try #require(harness.transport.downloadRequests.first)
        #expect(first.resumeOffset == 700 && first.ifRange == SyncHarness.packageTag)
        #expect(
            report.content?.installed.first?.downloadedBytes
                == Int64(SyncHarness.package.count - 700 + SyncHarness.media.count))
    }

    @Test func aServerAnswering200InsteadOf206RewritesThePart() async throws {
        try leavePart(700, bytes: Data(repeating: 0xEE, count: 700))
        harness.script("pkg", .ignoreRange)
        _ = try await sync()
        try expectInstalled()
        #expect(harness.transport.downloadRequests.first?.resumeOffset == 700)
    }

    @Test func aChangedBlobIsRewrittenFromTheStartInTheSameRequest() async throws {
        try leavePart(700, entityTag: "\"old\"", bytes: Data(repeating: 0xEE, count: 700))
        _ = try await sync()
        try expectInstalled()
        let packageRequests = harness.transport.downloadRequests.filter { $0.request.url.path() == "/pkg" }
        #expect(packageRequests.map(\.ifRange) == ["\"old\""], "the If-Range mismatch answers 200 at once")
    }

    @Test func aCompletePartAnswered416IsInstalledWithoutATransfer() async throws {
        try leavePart(SyncHarness.package.count)
        let report = try await sync()
        try expectInstalled()
        #expect(report.content?.installed.first?.downloadedBytes == Int64(SyncHarness.media.count))
    }

    @Test func anExpiredLinkIsRenewedAndTheDownloadContinues() async throws {
        harness.script("pkg", .drop(after: 500), .expire)
        _ = try await sync()
        try expectInstalled()
        #expect(harness.linkCount("pkg") == 2)
        let urls = harness.transport.downloadRequests.filter { $0.request.url.path() == "/pkg" }
        #expect(urls.map(\.resumeOffset) == [0, 500, 500])
        #expect(urls.last?.request.url.query() == "sig=2")
    }

    @Test func aDroppedConnectionIsResumedFromTheBytesOnDisk() async throws {
        harness.script("pkg", .drop(after: 500), .drop(after: 500), .drop(after: 500))
        _ = try await sync()
        try expectInstalled()
        #expect(harness.transport.downloadRequests.prefix(4).map(\.resumeOffset) == [0, 500, 1000, 1500])
    }

    @Test(arguments: [ENOSPC, EFBIG])
    func aFullDiskFailsThePresentationAndDropsThePart(_ code: Int32) async throws {
        harness.script("pkg", .failWrite(after: 800, errno: code))
        let report = try await sync()
        #expect(!report.isSuccess)
        #expect(report.content?.failures.map(\.presentationId) == [101])
        try expectNotInstalled(error: "cannot download the package of presentation 101")
        #expect(harness.cacheFiles() == [])
        #expect(try harness.lastSyncResult() == "failed")
    }

    @Test func aPackageWithoutAValidSizeIsNotDownloaded() async throws {
        harness.announced.withLock { $0.package = 0 }
        let report = try await sync()
        #expect(report.content?.failures.map(\.presentationId) == [101])
        try expectNotInstalled(error: "no valid size")
        #expect(harness.transport.downloadRequests.isEmpty)
    }

    @Test func aMediaFileWithoutAValidSizeFailsThePresentationAndKeepsThePackage() async throws {
        harness.announced.withLock { $0.media = 0 }
        let report = try await sync()
        #expect(report.content?.failures.map(\.presentationId) == [101])
        try expectNotInstalled(error: "media file 118 of presentation 101")
        #expect(harness.transport.downloadRequests.map { $0.request.url.path() } == ["/pkg"])
        #expect(harness.cacheFiles() == ["101_rev4.zip"], "the package waits for the next run")
    }

    @Test func aBodyLongerThanAnnouncedIsStoppedAndDiscarded() async throws {
        harness.announced.withLock { $0.package = 1500 }
        let report = try await sync()
        #expect(report.content?.failures.map(\.presentationId) == [101])
        try expectNotInstalled(error: "more than the 1500 bytes it announced")
        #expect(harness.cacheFiles() == [])
        #expect(harness.transport.downloadRequests.first?.maxFileBytes == 1500)
    }

    @Test func aMediaFileThePackageBringsIsKept() async throws {
        harness.installer.bundled.withLock { $0 = ["mediafiles/a.pdf": SyncHarness.media] }
        let report = try await sync()
        try expectInstalled()
        #expect(report.content?.installed.first?.mediaFilesDownloaded == 0)
        #expect(harness.transport.downloadRequests.map { $0.request.url.path() } == ["/pkg"])
    }

    /// A refused package, and one there is no room to unpack (issue 38: such zips stayed in cache/ for good).
    @Test(arguments: [
        SCLMError(.archive, "a refused entry"), SCLMError(.storage, "not enough disk space to unpack"),
    ])
    func aPackageThatCannotBeUnpackedLeavesNothingAndIsFetchedAgainNextTime(_ failure: SCLMError) async throws {
        harness.installer.refusal.withLock { $0 = failure }
        let report = try await sync()
        #expect(report.content?.failures.map(\.presentationId) == [101])
        try expectNotInstalled(error: failure.message)
        #expect(harness.cacheFiles() == [], "the zip that could not be unpacked is dropped")
    }

    // MARK: - Cancellation

    /// Where a sync is cancelled.
    enum Phase: String, CaseIterable, Sendable {
        case metadata, download, unpack, media, swap
    }

    /// Arms a trap at `phase`; swap cancels `task` itself, right after the swap.
    func arm(_ phase: Phase, cancelling task: @escaping @Sendable () -> Void) -> Trap {
        let trap = Trap()
        switch phase {
        case .metadata: harness.metadataTrap.withLock { $0 = trap }
        case .download: harness.script("pkg", .block(after: 900, trap))
        case .unpack: harness.installer.unpackTrap.withLock { $0 = trap }
        case .media: harness.script("media", .block(after: 100, trap))
        case .swap: harness.installer.afterSwap.withLock { $0 = task }
        }
        return trap
    }

    @Test(arguments: Phase.allCases)
    func aCancelledSyncLeavesAConsistentHome(_ phase: Phase) async throws {
        let manager = harness.manager()
        let handle = TaskHandle()
        let trap = arm(phase) { handle.cancel() }
        let task = Task { try await manager.sync(SyncOptions()) }
        handle.set(task)
        if phase != .swap {
            await trap.reached()
            task.cancel()
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try harness.lastSyncResult() == "cancelled")
        switch phase {
        case .metadata:
            #expect(try harness.stored().summary == nil, "nothing of the metadata is written")
        case .download:
            try expectNotInstalled(error: nil)
            #expect(FileSystem.size(of: harness.packagePart) == 900, "the part stays for the next run")
            #expect(ResumeRecord.load(forPart: harness.packagePart)?.entityTag == SyncHarness.packageTag)
        case .unpack:
            try expectNotInstalled(error: nil)
            #expect(FileSystem.size(of: harness.packageZip) == Int64(SyncHarness.package.count))
        case .media:
            try expectNotInstalled(error: nil)
            #expect(FileSystem.size(of: harness.packageZip) == Int64(SyncHarness.package.count))
            #expect(FileSystem.size(of: harness.mediaPart) == 100)
        case .swap:
            try expectInstalled()
        }
    }
}

extension SyncManagerTests {
    @Test func theSyncAfterACancelledDownloadResumesIt() async throws {
        let trap = arm(.download) {}
        let manager = harness.manager()
        let task = Task { try await manager.sync(SyncOptions()) }
        await trap.reached()
        task.cancel()
        _ = try? await task.value
        let report = try await sync()
        try expectInstalled()
        #expect(
            harness.transport.downloadRequests.filter { $0.request.url.path() == "/pkg" }.map(\.resumeOffset) == [
                0, 900,
            ])
        #expect(
            report.content?.installed.first?.downloadedBytes
                == Int64(SyncHarness.package.count - 900 + SyncHarness.media.count))
    }

    @Test func aPresentationLockedByAnotherSyncIsReportedBusyAndLeftAlone() async throws {
        let lock = try #require(try PresentationLock.acquire(101, in: harness.home))
        defer { lock.release() }
        let report = try await sync()
        #expect(report.content?.busy == [101])
        #expect(report.isSuccess)
        #expect(harness.transport.downloadRequests.isEmpty)
        try expectNotInstalled(error: nil)
    }
}

/// The sync task, for a fake to cancel from inside it (a cancel that comes before the task is set waits
/// for it).
final class TaskHandle: Sendable {
    private let state = Mutex<(task: Task<SyncReport, any Error>?, cancelled: Bool)>((nil, false))

    func set(_ task: Task<SyncReport, any Error>) {
        if state.withLock({ state in
            state.task = task
            return state.cancelled
        }) {
            task.cancel()
        }
    }

    func cancel() {
        state.withLock { state in
            state.cancelled = true
            return state.task
        }?.cancel()
    }
}
