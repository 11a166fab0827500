import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

/// Schema version 3 on a home made by version 2: what an earlier schema could hold as `NULL` is filled, so
/// strict decoding reads every row.
@Suite(.tags(.medium)) struct SchemaTests {
    let folder = TemporaryDirectory()
    var path: String { folder.appending("sclm.db") }

    /// A database file at schema version 2 (today's schema before version 3) holding a slide view whose
    /// `navigation` is `NULL` and a preference whose value is `NULL`.
    private func makeVersion2Home() throws {
        let db = try Database(path: path)
        try Migrator(migrations: [Schema.version1, Schema.version2]).migrate(db)
        try db.write { db in
            // As an sclm of version 2 wrote it (today's insertSession writes columns of later versions).
            try db.execute(
                """
                INSERT INTO sessions(sessionId, presentationId, created, timeZone)
                VALUES ('s-1', 17, '2026-11-30T10:00:00.000Z', 3)
                """)
            try db.execute(
                """
                INSERT INTO session_actions(id, sessionId, presentationId, slideName, navigation, duration, created)
                VALUES ('a-1', 's-1', 17, 'index.html', NULL, 4, '2026-11-30T10:00:04.000Z')
                """)
            try db.execute("INSERT INTO preferences(scope, key, value) VALUES ('osam:app', 'NUM_APERTURES', NULL)")
            try db.execute("INSERT INTO preferences(scope, key, value) VALUES ('osam:app', 'LAST_CHECK', '5')")
        }
        #expect(try db.userVersion == 2)
        let error = try #require(throws: StoreError.self) { try db.slideViews(sessionId: "s-1") }
        #expect(error.code == .decoding && error.message.contains("session_actions.navigation is NULL"))
    }

    @Test func version3FillsWhatVersion2LeftNullSoStrictReadsSucceed() async throws {
        try makeVersion2Home()
        let store = try ContentStore(path: path)
        #expect(store.migratedFrom == 2)
        let (views, preferences, version) = try await store.read { db in
            (try db.slideViews(sessionId: "s-1"), try db.preferences(scope: "osam:app"), try db.userVersion)
        }
        #expect(version == Migrator.sclm.latestVersion)
        #expect(views.map(\.navigation) == [""])
        #expect(views.map(\.duration) == [4])
        #expect(preferences == ["LAST_CHECK": "5"], "a NULL value was never set")
    }
}
