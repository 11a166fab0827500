import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Synchronization
import Testing

@testable import SCLMSync

/// The durable mark of an unpack in progress, in a whole sync in the test process (``SyncHarness``): set
/// while the package is unpacked, cleared by a cancel without counting, counted by the next holder of the
/// lock when a dead process left it, and a revision given up at the third interruption in a row until
/// `retry`. (Real kills of the built binary: `InterruptedUnpackTests` in the end-to-end suite.)
@Suite(.tags(.medium), .timeLimit(.minutes(1))) struct UnpackMarkTests {
    let harness: SyncHarness

    init() throws { harness = try SyncHarness() }

    static let givenUpMessage =
        "sclm stopped while unpacking revision 4 of presentation 101 three times; it will be tried again when the server publishes a new revision or with `sclm sync --retry`"

    /// Presentation 101's unpack attempts as stored.
    func attempts() throws -> UnpackAttempts? { try harness.stored().summary?.unpack }

    /// Stores the catalog, then leaves 101 as a process that died while unpacking revision 4 would, after
    /// `earlier` interruptions of that revision already counted: the mark set and the downloaded zip cached.
    func leaveInterruptedUnpack(after earlier: Int64) async throws {
        _ = try await harness.manager().sync(SyncOptions(metadataOnly: true))
        try harness.store.writeNow { db in
            try db.markUnpacking(presentationId: 101, revision: 4)
            try db.execute(
                "UPDATE presentations SET interruptedRevision = 4, unpackInterruptions = ? WHERE presentationId = 101",
                [earlier])
        }
        try SyncHarness.package.write(to: URL(fileURLWithPath: harness.packageZip))
    }

    @Test func theUnpackRunsUnderTheMarkAndACancelClearsItWithoutCounting() async throws {
        let trap = Trap()
        harness.installer.unpackTrap.withLock { $0 = trap }
        let manager = harness.manager()
        let task = Task { try await manager.sync(SyncOptions()) }
        await trap.reached()
        #expect(try attempts() == UnpackAttempts(unpacking: 4), "set (and committed) before the unpack")
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try attempts() == UnpackAttempts(), "cleared, and nothing counted")
    }

    @Test func anUnpackThatEndsClearsTheMarkAndTheInterruptionsInARow() async throws {
        try await leaveInterruptedUnpack(after: 1)
        let report = try await harness.manager().sync(SyncOptions())
        #expect(report.isSuccess)
        #expect(try harness.stored().summary?.installedRevision == 4)
        #expect(try attempts() == UnpackAttempts())
    }

    @Test func theThirdInterruptionInARowGivesTheRevisionUpUntilRetry() async throws {
        try await leaveInterruptedUnpack(after: 2)
        let report = try await harness.manager().sync(SyncOptions())
        let failure = try #require(report.content?.failures.first)
        #expect(failure.presentationId == 101 && failure.message == Self.givenUpMessage)
        #expect(failure.category == .archive)
        #expect(harness.cacheFiles() == [], "the cached zip is dropped")
        #expect(harness.transport.downloadRequests.isEmpty)
        #expect(try harness.stored().error == Self.givenUpMessage)
        #expect(try attempts() == UnpackAttempts(interruptedRevision: 4, interruptions: 3))

        let again = try await harness.manager().sync(SyncOptions())
        #expect(again.content?.failures.map(\.message) == [Self.givenUpMessage], "still given up, not tried")
        #expect(harness.transport.downloadRequests.isEmpty)

        let retried = try await harness.manager().sync(SyncOptions(retry: true))
        #expect(retried.isSuccess)
        #expect(try harness.stored().summary?.installedRevision == 4)
        #expect(try harness.stored().error == nil)
        #expect(try attempts() == UnpackAttempts())
    }

    @Test func theMarkOfAPresentationLockedByAnotherProcessIsNotCounted() async throws {
        try await leaveInterruptedUnpack(after: 2)
        let lock = try #require(try PresentationLock.acquire(101, in: harness.home))
        let report = try await harness.manager().sync(SyncOptions())
        lock.release()
        #expect(report.content?.busy == [101])
        #expect(try attempts() == UnpackAttempts(unpacking: 4, interruptedRevision: 4, interruptions: 2))
    }
}
