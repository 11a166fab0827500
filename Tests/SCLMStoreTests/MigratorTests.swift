import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

@Suite(.tags(.medium)) struct MigratorTests {
    static let tables = [
        "auth_tokens", "clients", "content_packages", "custom_events", "installed_files", "media_files",
        "package_findings", "preferences", "presentations", "session_actions", "sessions", "slides", "users",
    ]

    @Test(arguments: [true, false]) func migratesAnEmptyDatabaseToTheLatestSchema(inMemory: Bool) throws {
        let folder = TemporaryDirectory()
        let db = try Database(path: inMemory ? ":memory:" : folder.appending("sclm.db"))
        let result = try Migrator.sclm.migrate(db)
        #expect(result.from == 0)
        #expect(result.to == Migrator.sclm.latestVersion)
        #expect(try db.userVersion == Migrator.sclm.latestVersion)
        let names = try db.fetchAll("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap {
            $0.string("name")
        }
        #expect(names == Self.tables)
    }

    @Test func migratingTwiceIsANoOpThatKeepsData() throws {
        let folder = TemporaryDirectory()
        let path = folder.appending("sclm.db")
        do {
            let db = try Database(path: path)
            try Migrator.sclm.migrate(db)
            try db.execute("INSERT INTO clients(clientId, name) VALUES (1, 'Demo')")
        }
        let db = try Database(path: path)
        let result = try Migrator.sclm.migrate(db)
        #expect(result.from == result.to)
        #expect(try db.fetchCount("SELECT count(*) FROM clients") == 1)
    }

    @Test func migratesFromVersion1ToEveryLaterVersion() throws {
        let db = try Database(path: ":memory:")
        try Migrator(migrations: [Schema.version1]).migrate(db)
        try db.execute("INSERT INTO clients(clientId, name) VALUES (7, 'Kept')")
        let result = try Migrator.sclm.migrate(db)
        #expect(result.from == 1)
        #expect(try db.fetchScalar("SELECT name FROM clients WHERE clientId = 7", as: String.self) == "Kept")
    }

    @Test func refusesADatabaseFromANewerSclm() throws {
        let folder = TemporaryDirectory()
        let path = folder.appending("sclm.db")
        do {
            let db = try Database(path: path)
            try db.execute(script: "PRAGMA user_version = 999")
        }
        let error = try #require(throws: StoreError.self) { try ContentStore(path: path) }
        #expect(error.code == .schemaTooNew)
        #expect(error.description.contains("999"))
        #expect(error.description.contains("upgrade sclm"))
        #expect(error.category == .storage)
    }

    @Test func aFailingMigrationIsRolledBackAndNamed() throws {
        let db = try Database(path: ":memory:")
        let broken = Migrator(migrations: [
            Schema.version1,
            Migration(version: 2, name: "broken", sql: "CREATE TABLE extra(x INTEGER); SELECT * FROM nowhere;"),
        ])
        let error = try #require(throws: StoreError.self) { try broken.migrate(db) }
        #expect(error.code == .migrationFailed)
        #expect(error.message.contains("broken"))
        #expect(try db.userVersion == 1)
        #expect(try db.fetchCount("SELECT count(*) FROM sqlite_master WHERE name = 'extra'") == 0)
    }
}
