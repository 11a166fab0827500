import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

/// The manifest stored with an installed revision (`installed_files`), in a real database file: written with
/// the install, replaced by the next one, unknown for a revision installed before schema v5, gone with the
/// presentation's content.
@Suite(.tags(.medium)) struct InstalledFilesTests {
    let folder = TemporaryDirectory()

    static let index = ManifestEntry(
        path: "index.html", size: 120, crc32: 0xDEAD_BEEF, inode: 1 << 40, modifiedNanoseconds: 1_700_000_000_123,
        changedNanoseconds: 1_700_000_000_456)
    static let image = ManifestEntry(
        path: "img/a.png", size: 9, crc32: 7, inode: 12, modifiedNanoseconds: 1, changedNanoseconds: 2)

    private func database(migrations: [Migration] = Migrator.sclm.migrations) throws -> Database {
        let db = try Database(path: folder.appending("sclm.db"))
        try Migrator(migrations: migrations).migrate(db)
        try db.write { db in
            try db.upsert([ClientRecord(clientId: 1, name: "Demo")])
            try db.upsertPresentations([PresentationRecord(presentationId: 17, clientId: 1, name: "Deck", revision: 3)])
        }
        return db
    }

    private func record(_ revision: Int64, _ manifest: [ManifestEntry]?, in db: Database) throws {
        _ = try db.write { db in
            try db.recordInstall(
                presentationId: 17, revision: revision, installedAt: "2026-12-02T06:00:00.000Z", mediaFileIds: [],
                manifest: manifest)
        }
    }

    @Test func theManifestIsStoredWithTheInstallAndReplacedByTheNext() throws {
        let db = try database()
        #expect(try db.installedFiles(ofPresentation: 17) == nil)
        try record(3, [Self.index, Self.image], in: db)
        #expect(try db.installedFiles(ofPresentation: 17) == [Self.image, Self.index])
        try record(4, [Self.image], in: db)
        #expect(try db.installedFiles(ofPresentation: 17) == [Self.image])
        // An install without a manifest leaves none, not the previous revision's.
        try record(5, nil, in: db)
        #expect(try db.installedFiles(ofPresentation: 17) == nil)
    }

    @Test func deletedContentForgetsItsManifest() throws {
        let db = try database()
        try record(3, [Self.index], in: db)
        _ = try db.write { db in try db.forgetInstall(presentationId: 17) }
        #expect(try db.installedFiles(ofPresentation: 17) == nil)
        #expect(try db.fetchCount("SELECT count(*) FROM installed_files") == 0)
    }

    @Test func aRevisionInstalledBeforeSchemaFiveHasNoManifest() throws {
        let db = try database(migrations: Array(Migrator.sclm.migrations.prefix(4)))
        try db.write { db in
            try db.execute("UPDATE presentations SET installedRevision = 3 WHERE presentationId = 17")
        }
        try Migrator.sclm.migrate(db)
        #expect(try db.userVersion == Migrator.sclm.latestVersion)
        #expect(try db.installedFiles(ofPresentation: 17) == nil)
    }
}
