import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

/// Typed upserts of clients, slides, media files and packages, and the catalog reads and bulk changes
/// sync, `list` and `show` use.
@Suite(.tags(.medium)) struct CatalogTests {
    private func makeDatabase() throws -> Database {
        let db = try Database(path: ":memory:")
        try Migrator.sclm.migrate(db)
        try db.write { db in
            try db.upsert([ClientRecord(clientId: 1, name: "Demo Pharma", email: "a@b", synchronized: "t1")])
            try db.upsertPresentations([
                PresentationRecord(presentationId: 17, clientId: 1, name: "CLM", order: 1, revision: 1),
                PresentationRecord(presentationId: 18, clientId: 1, name: "Other", order: 5, revision: 2),
            ])
            try db.upsert(
                (1...3).map {
                    SlideRecord(slideId: 1700 + $0, presentationId: 17, position: $0, revision: 0, name: "\($0).html")
                })
            try db.upsert([
                MediaFileRecord(mediaFileId: 118, presentationId: 17, revision: 0, fileName: "a.pdf", fileSize: 10)
            ])
            try db.upsert([
                ContentPackageRecord(presentationId: 17, contentPackageId: 16, revision: 1, blobId: "b", fileSize: 99)
            ])
        }
        return db
    }

    @Test func upsertsEveryRecordTypeAndKeepsLocalState() throws {
        let db = try makeDatabase()
        try db.execute("UPDATE media_files SET installedRevision = 0 WHERE mediaFileId = 118")
        try db.write { db in
            try db.upsert([ClientRecord(clientId: 1, name: "Demo Pharma AG", synchronized: "t2")])
            try db.upsert([
                SlideRecord(
                    slideId: 1701, presentationId: 17, position: 1, revision: 2, name: "one.html", swipeNext: "2.html")
            ])
            try db.upsert([
                MediaFileRecord(mediaFileId: 118, presentationId: 17, revision: 1, fileName: "b.pdf", fileSize: 20)
            ])
            try db.upsert([
                ContentPackageRecord(presentationId: 17, contentPackageId: 16, revision: 2, blobId: "c", fileSize: 100)
            ])
        }
        #expect(try db.clients() == [ClientRecord(clientId: 1, name: "Demo Pharma AG", synchronized: "t2")])
        #expect(
            try db.slides(ofPresentation: 17).first
                == SlideRecord(
                    slideId: 1701, presentationId: 17, position: 1, revision: 2, name: "one.html", swipeNext: "2.html"))
        #expect(try db.mediaFiles(ofPresentation: 17).map(\.fileName) == ["b.pdf"])
        #expect(
            try db.fetchScalar("SELECT installedRevision FROM media_files WHERE mediaFileId = 118", as: Int64.self) == 0
        )
        #expect(try db.contentPackage(ofPresentation: 17)?.revision == 2)
    }

    @Test func readsStoredRevisionsAndKeepsOnlyListedChildren() throws {
        let db = try makeDatabase()
        #expect(try db.revisions(of: SlideRecord.self) == [1701: 0, 1702: 0, 1703: 0])
        try db.write { db in
            try db.deleteRows(of: SlideRecord.self, ofPresentation: 17, keeping: [1701, 1703])
            try db.setPositions(of: SlideRecord.self, [1703: 0, 1701: 1])
        }
        #expect(try db.slides(ofPresentation: 17).map(\.slideId) == [1703, 1701])
    }

    @Test func deletingAPresentationOrClientRemovesEverythingBelowIt() throws {
        let db = try makeDatabase()
        try db.write { db in try db.deletePresentations([17]) }
        #expect(try db.fetchCount("SELECT count(*) FROM slides") == 0)
        #expect(try db.fetchCount("SELECT count(*) FROM media_files") == 0)
        #expect(try db.contentPackage(ofPresentation: 17) == nil)
        try db.write { db in try db.deleteClients([1]) }
        #expect(try db.presentationSummaries().isEmpty)
    }

    @Test func summariesCarryStateAndFollowStoryContentOrder() throws {
        let db = try makeDatabase()
        try db.write { db in
            try db.setSyncState(.updateAvailable, presentationId: 17)
            try db.execute("UPDATE presentations SET installedRevision = 0 WHERE presentationId = 17")
            try db.setListingFlags(presentationId: 18, skip: true, lockout: true, debugModeEnabled: false)
        }
        let summaries = try db.presentationSummaries()
        #expect(summaries.map(\.presentationId) == [18, 17])
        #expect(summaries[1].syncState == .updateAvailable && summaries[1].installedRevision == 0)
        #expect(summaries[0].skip && summaries[0].lockout)
        #expect(try db.presentationSummary(id: 17)?.name == "CLM")
        #expect(try db.presentation(id: 99) == nil)
    }
}
