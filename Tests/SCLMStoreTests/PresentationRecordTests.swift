import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

@Suite(.tags(.medium)) struct PresentationRecordTests {
    private func makeDatabase() throws -> Database {
        let db = try Database(path: ":memory:")
        try Migrator.sclm.migrate(db)
        try db.execute("INSERT INTO clients(clientId, name) VALUES (1, 'Demo')")
        return db
    }

    @Test func upsertUpdatesServerFieldsAndKeepsLocalState() throws {
        let db = try makeDatabase()
        try db.write { db in
            try db.upsertPresentations([PresentationRecord(presentationId: 17, clientId: 1, name: "CLM", revision: 1)])
        }
        try db.execute("UPDATE presentations SET syncState = 5, installedRevision = 1 WHERE presentationId = 17")
        try db.write { db in
            try db.upsertPresentations([
                PresentationRecord(presentationId: 17, clientId: 1, name: "CLM v2", revision: 2)
            ])
        }
        let row = try #require(try db.fetchOne("SELECT * FROM presentations WHERE presentationId = 17"))
        #expect(row.string("name") == "CLM v2")
        #expect(row.int("revision") == 2)
        #expect(row.int("syncState") == 5)
        #expect(row.int("installedRevision") == 1)
    }

    @Test func textLongerThanTheBindingArenaAndNonASCIITextRoundTrip() throws {
        let db = try makeDatabase()
        let long = String(repeating: "Презентация 🎉 ", count: 2_000)
        let records = (1...3).map {
            PresentationRecord(
                presentationId: Int64($0), clientId: 1, name: "\($0) \(long)", revision: 0, rawData: long)
        }
        try db.write { db in try db.upsertPresentations(records) }
        for id in 1...3 {
            let row = try #require(
                try db.fetchOne("SELECT name, rawData FROM presentations WHERE presentationId = ?", [id]))
            #expect(row.string("name") == "\(id) \(long)")
            #expect(row.string("rawData") == long)
        }
    }

    @Test func anUnknownClientFailsTheWholeBatchAtCommit() throws {
        let db = try makeDatabase()
        let records = [
            PresentationRecord(presentationId: 1, clientId: 1, name: "ok", revision: 0),
            PresentationRecord(presentationId: 2, clientId: 99, name: "orphan", revision: 0),
        ]
        let error = try #require(throws: StoreError.self) { try db.write { db in try db.upsertPresentations(records) } }
        #expect(error.resultCode?.primary == .constraint)
        #expect(try db.fetchCount("SELECT count(*) FROM presentations") == 0)
    }

    @Test func boundValuesAreClearedAfterEachExecution() throws {
        let db = try makeDatabase()
        let statement = try db.makeStatement("INSERT INTO preferences(scope, key, value) VALUES (?, ?, ?)")
        try statement.execute(["s", "a", "first"])
        try statement.bind("s", at: 1)
        try statement.bind("b", at: 2)
        try statement.execute()
        #expect(try db.preference(scope: "s", key: "a") == "first")
        #expect(try db.fetchOne("SELECT value FROM preferences WHERE key = 'b'")?["value"] == .null)
    }
}
