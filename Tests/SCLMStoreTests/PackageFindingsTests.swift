import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

/// The package findings stored with an installed revision, in a real database file: replaced by the next
/// revision, gone with the presentation, and unknown (not clean) for a revision installed before schema v2.
@Suite(.tags(.medium)) struct PackageFindingsTests {
    let folder = TemporaryDirectory()

    static let missingFont = PackageFindingRecord(
        rule: "REF-MISSING", severity: "error", ruleClass: "content", path: "css/deck.css", line: 3,
        message: "url 'fonts/Brand.woff2' is not in the package")
    static let remote = PackageFindingRecord(
        rule: "REF-REMOTE", severity: "warning", ruleClass: "content", path: "index.html", line: nil,
        message: "src 'https://cdn.example.com/a.js' is loaded from the network")

    /// A database migrated with `migrations`, holding client 1 with presentations 17 and 18.
    private func database(migrations: [Migration] = Migrator.sclm.migrations) throws -> Database {
        let db = try Database(path: folder.appending("sclm.db"))
        try Migrator(migrations: migrations).migrate(db)
        try db.write { db in
            try db.upsert([ClientRecord(clientId: 1, name: "Demo")])
            try db.upsertPresentations([
                PresentationRecord(presentationId: 17, clientId: 1, name: "Deck", revision: 3),
                PresentationRecord(presentationId: 18, clientId: 1, name: "Clean", revision: 1),
            ])
        }
        return db
    }

    private func install(_ id: Int64, revision: Int64, _ findings: [PackageFindingRecord], in db: Database) throws {
        try db.write { db in
            try db.execute("UPDATE presentations SET installedRevision = ? WHERE presentationId = ?", [revision, id])
            try db.replacePackageFindings(findings, presentationId: id, revision: revision)
        }
    }

    @Test func findingsAreStoredInOrderAndCountedBySeverity() throws {
        let db = try database()
        try install(17, revision: 3, [Self.missingFont, Self.remote], in: db)
        try install(18, revision: 1, [], in: db)
        #expect(try db.packageFindings(ofPresentation: 17) == [Self.missingFont, Self.remote])
        #expect(try db.packageFindings(ofPresentation: 18) == [])
        let counts = try db.packageFindingCounts()
        #expect(counts == [17: PackageFindingCounts(error: 1, warning: 1), 18: PackageFindingCounts()])
    }

    @Test func aLaterRevisionReplacesTheFindings() throws {
        let db = try database()
        try install(17, revision: 3, [Self.missingFont, Self.remote], in: db)
        try install(17, revision: 4, [Self.remote], in: db)
        #expect(try db.packageFindings(ofPresentation: 17) == [Self.remote])
        #expect(try db.fetchCount("SELECT count(*) FROM package_findings") == 1)
    }

    @Test func nothingInstalledMeansNoFindingsToShow() throws {
        let db = try database()
        #expect(try db.packageFindings(ofPresentation: 17) == nil)
        try install(17, revision: 3, [Self.missingFont], in: db)
        try db.write { db in try db.forgetPackageFindings(presentationId: 17) }
        #expect(try db.packageFindings(ofPresentation: 17) == nil)
        #expect(try db.fetchCount("SELECT count(*) FROM package_findings") == 0)
    }

    @Test func findingsGoWithTheirPresentation() throws {
        let db = try database()
        try install(17, revision: 3, [Self.missingFont, Self.remote], in: db)
        try db.write { db in try db.deletePresentations([17]) }
        #expect(try db.fetchCount("SELECT count(*) FROM package_findings") == 0)
    }

    @Test func aRevisionInstalledBeforeSchemaVersion2HasUnknownFindings() throws {
        do {
            let old = try database(migrations: [Schema.version1])
            try old.execute("UPDATE presentations SET installedRevision = 3 WHERE presentationId = 17")
            #expect(try old.userVersion == 1)
        }
        let db = try Database(path: folder.appending("sclm.db"))
        #expect(try Migrator.sclm.migrate(db) == (from: 1, to: Migrator.sclm.latestVersion))
        #expect(try db.packageFindings(ofPresentation: 17) == nil, "unknown, not an empty (clean) list")
        #expect(try db.packageFindingCounts()[17] == nil)
        try install(17, revision: 4, [], in: db)
        #expect(try db.packageFindings(ofPresentation: 17) == [])
    }

    @Test func theJSONFormCarriesEveryKeyAndTheClass() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let line = String(decoding: try encoder.encode(Self.remote), as: UTF8.self)
        #expect(
            line
                == #"{"class":"content","line":null,"message":"src 'https:\/\/cdn.example.com\/a.js' is loaded from the network","path":"index.html","rule":"REF-REMOTE","severity":"warning"}"#
        )
        #expect(
            PackageFindingCounts(error: 1, warning: 2).text(qualifier: "content")
                == "1 content error, 2 content warnings")
        #expect(PackageFindingCounts().text() == "no findings")
    }
}
