import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

@Suite(.tags(.medium)) struct DatabaseTests {
    @Test func opensFilesWithWALNormalSyncAndForeignKeys() throws {
        let folder = TemporaryDirectory()
        let db = try Database(path: folder.appending("sclm.db"))
        #expect(try db.fetchScalar("PRAGMA journal_mode", as: String.self) == "wal")
        #expect(try db.fetchScalar("PRAGMA synchronous", as: Int.self) == 1)
        #expect(try db.fetchScalar("PRAGMA foreign_keys", as: Int.self) == 1)
    }

    @Test func createsTheDatabaseFileWithMode0600() throws {
        let folder = TemporaryDirectory()
        let path = folder.appending("sclm.db")
        let store = try ContentStore(path: path)
        try store.writeNow { db in try db.execute("INSERT INTO clients(clientId) VALUES (1)") }
        #expect(FileSystem.mode(of: path) == 0o600)
        #expect(FileSystem.mode(of: path + "-wal") == 0o600)
    }

    @Test func aThrowInsideWriteLeavesNoPartialRows() throws {
        struct Abort: Error {}
        let folder = TemporaryDirectory()
        let store = try ContentStore(path: folder.appending("sclm.db"))
        #expect(throws: Abort.self) {
            try store.writeNow { db in
                try db.execute("INSERT INTO clients(clientId, name) VALUES (1, 'a')")
                try db.execute("INSERT INTO clients(clientId, name) VALUES (2, 'b')")
                throw Abort()
            }
        }
        #expect(try store.readNow { db in try db.fetchCount("SELECT count(*) FROM clients") } == 0)
    }

    @Test func aFailingStatementRollsBackTheWholeWrite() async throws {
        let folder = TemporaryDirectory()
        let store = try ContentStore(path: folder.appending("sclm.db"))
        await #expect(throws: StoreError.self) {
            try await store.write { db in
                try db.execute("INSERT INTO clients(clientId) VALUES (1)")
                try db.execute("INSERT INTO presentations(presentationId, clientId) VALUES (5, 999)")
            }
        }
        #expect(try await store.read { db in try db.fetchCount("SELECT count(*) FROM clients") } == 0)
    }

    @Test func errorsCarryTheExtendedCodeAndTheSQLButNotBoundValues() throws {
        let db = try Database(path: ":memory:")
        try Migrator.sclm.migrate(db)
        try db.execute(
            "INSERT INTO auth_tokens(id, grantType, accessToken, expiresAt, issuedAt) VALUES (1, 'password', ?, 0, 0)",
            ["tok-SECRET"])
        let error = try #require(throws: StoreError.self) {
            try db.execute(
                "INSERT INTO auth_tokens(id, grantType, accessToken, expiresAt, issuedAt) VALUES (1, 'password', ?, 0, 0)",
                ["tok-SECRET"])
        }
        #expect(error.resultCode == .constraintPrimaryKey)
        #expect(error.sql?.contains("INSERT INTO auth_tokens") == true)
        #expect(!error.description.contains("tok-SECRET"))
    }

    @Test func deletingAClientCascadesToItsPresentationsAndSlides() throws {
        let db = try Database(path: ":memory:")
        try Migrator.sclm.migrate(db)
        try db.write { db in
            try db.execute("INSERT INTO clients(clientId) VALUES (1)")
            try db.execute("INSERT INTO presentations(presentationId, clientId) VALUES (10, 1)")
            try db.execute("INSERT INTO slides(slideId, presentationId, name) VALUES (100, 10, 'index.html')")
            try db.execute("DELETE FROM clients WHERE clientId = 1")
        }
        #expect(try db.fetchCount("SELECT count(*) FROM slides") == 0)
    }

    @Test func nestedTransactionsUseSavepoints() throws {
        struct Inner: Error {}
        let db = try Database(path: ":memory:")
        try Migrator.sclm.migrate(db)
        try db.write { db in
            try db.execute("INSERT INTO clients(clientId) VALUES (1)")
            try? db.write { db in
                try db.execute("INSERT INTO clients(clientId) VALUES (2)")
                throw Inner()
            }
        }
        #expect(try db.fetchAll("SELECT clientId FROM clients").compactMap { $0.int("clientId") } == [1])
    }

    @Test func cachedStatementsAreReusedAndReset() throws {
        let db = try Database(path: ":memory:")
        let first = try db.cachedStatement("SELECT ?")
        try first.bind([1])
        let second = try db.cachedStatement("SELECT ?")
        #expect(first === second)
        #expect(try db.fetchScalar("SELECT ?", [42], as: Int.self) == 42)
    }

    @Test func preferencesAreScopedAndUpserted() throws {
        let db = try Database(path: ":memory:")
        try Migrator.sclm.migrate(db)
        try db.setPreference(scope: "osam:com.example", key: "NUM_APERTURES", value: "1")
        try db.setPreference(scope: "osam:com.example", key: "NUM_APERTURES", value: "2")
        try db.setPreference(scope: "osam:other", key: "NUM_APERTURES", value: "9")
        #expect(try db.preference(scope: "osam:com.example", key: "NUM_APERTURES") == "2")
        #expect(try db.preferences(scope: "osam:other") == ["NUM_APERTURES": "9"])
        try db.setPreference(scope: "osam:other", key: "NUM_APERTURES", value: nil)
        #expect(try db.preference(scope: "osam:other", key: "NUM_APERTURES") == nil)
    }
}
