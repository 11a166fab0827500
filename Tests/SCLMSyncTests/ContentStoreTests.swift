import Foundation
import SCLMCore
import SCLMStore
import SCLMSync
import SCLMTestSupport
import Testing

/// The content phase's records in a real database, and the presentation lock.
@Suite(.tags(.medium)) struct ContentStoreTests {
    let folder = TemporaryDirectory()

    func store(revision: Int64 = 4) throws -> ContentStore {
        let store = try ContentStore(path: folder.appending("sclm.db"))
        try store.writeNow { db in
            try db.upsert([ClientRecord(clientId: 1, name: "Demo")])
            try db.upsertPresentations([
                PresentationRecord(presentationId: 101, clientId: 1, name: "Deck", revision: revision)
            ])
            try db.upsert([MediaFileRecord(mediaFileId: 1011, presentationId: 101, revision: 2, fileName: "a.pdf")])
            try db.setSyncState(.readyToDownload, presentationId: 101)
        }
        return store
    }

    func state(_ store: ContentStore) throws -> (installed: Int64?, state: Int64?, error: String?, media: Int64?) {
        try store.readNow { db in
            let row = try db.fetchOne("SELECT installedRevision, syncState, syncError FROM presentations")
            let media = try db.fetchScalar("SELECT installedRevision FROM media_files", as: Int64.self)
            return (row?.int("installedRevision"), row?.int("syncState"), row?.string("syncError"), media)
        }
    }

    @Test func anInstallRecordsTheRevisionAndItsMediaFilesInOneGo() throws {
        let store = try store()
        try store.writeNow { db in try db.markDownloading(presentationId: 101) }
        #expect(try state(store).state == SyncState.downloading.rawValue)
        let recorded = try store.writeNow { db in
            try db.recordInstall(
                presentationId: 101, revision: 4, installedAt: "2026-01-01T00:00:00.000Z", mediaFileIds: [1011])
        }
        #expect(recorded)
        let after = try state(store)
        #expect(after.installed == 4 && after.state == SyncState.installed.rawValue && after.media == 2)
    }

    @Test func anInstallStoresItsPackageFindingsInTheSameTransactionAndForgettingDropsThem() throws {
        let store = try store()
        let finding = PackageFindingRecord(
            rule: "SWIPE-TARGET-MISSING", severity: "error", ruleClass: "content", path: "index.html", line: 4,
            message: "clm-swipe-next 'slide3.html' is not in the package")
        _ = try store.writeNow { db in
            try db.recordInstall(
                presentationId: 101, revision: 4, installedAt: "now", mediaFileIds: [], findings: [finding])
        }
        #expect(try store.readNow { db in try db.packageFindings(ofPresentation: 101) } == [finding])
        #expect(try store.writeNow { db in try db.forgetInstall(presentationId: 101) })
        #expect(try store.readNow { db in try db.packageFindings(ofPresentation: 101) } == nil)
        #expect(try store.readNow { db in try db.fetchCount("SELECT count(*) FROM package_findings") } == 0)
    }

    @Test func anInstallOvertakenByANewerRevisionLeavesAnUpdateAvailable() throws {
        let store = try store(revision: 5)
        _ = try store.writeNow { db in
            try db.recordInstall(presentationId: 101, revision: 4, installedAt: "now", mediaFileIds: [])
        }
        #expect(try state(store).state == SyncState.updateAvailable.rawValue)
        #expect(
            try !store.writeNow { db in
                try db.recordInstall(presentationId: 999, revision: 1, installedAt: "now", mediaFileIds: [])
            })
    }

    @Test func settlingAfterAFailureRestoresTheStateAndKeepsTheReason() throws {
        let store = try store()
        try store.writeNow { db in
            try db.markDownloading(presentationId: 101)
            try db.settleSyncState(presentationId: 101, error: "cannot install presentation 101: ARCHIVE-CRC")
        }
        let after = try state(store)
        #expect(after.state == SyncState.readyToDownload.rawValue && after.error?.contains("ARCHIVE-CRC") == true)
    }

    @Test func forgettingAnInstallResetsToReadyToDownload() throws {
        let store = try store()
        _ = try store.writeNow { db in
            try db.recordInstall(presentationId: 101, revision: 4, installedAt: "now", mediaFileIds: [1011])
        }
        #expect(try store.writeNow { db in try db.forgetInstall(presentationId: 101) })
        let after = try state(store)
        #expect(after.installed == nil && after.state == SyncState.readyToDownload.rawValue && after.media == nil)
        #expect(try store.readNow { db in try db.mediaFileOwners()[1011]?.presentationId } == 101)
    }

    @Test func aPresentationLockIsExclusiveUntilReleased() throws {
        let home = Home(root: folder.appending("home"))
        let first = try #require(try PresentationLock.acquire(101, in: home))
        #expect(try PresentationLock.acquire(101, in: home) == nil)
        let other = try #require(try PresentationLock.acquire(102, in: home))
        first.release()
        first.release()
        #expect(try PresentationLock.acquire(101, in: home) != nil)
        other.release()
        #expect(FileSystem.exists(home.lockDirectory + "/101.lock"))
    }
}
