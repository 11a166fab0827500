import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

/// The fields of a session content changes (storyclm.js 1.x `sessionupdate`: `visit`, `checkIn`,
/// `confirmed`) in a real database file, and schema version 6, which added `visit` and `checkIn`, on a home
/// made by version 5.
@Suite(.tags(.medium)) struct SessionChangesTests {
    let folder = TemporaryDirectory()
    var path: String { folder.appending("sclm.db") }

    /// An open session of presentation 17 with one slide view of 4 s, recorded at 10:00:04.
    private func recordSession(in db: Database) throws {
        try db.write { db in
            try db.insertSession(
                SessionRecord(
                    sessionId: "s-1", presentationId: 17, userId: nil, created: "2026-11-30T10:00:00.000Z", timeZone: 3)
            )
            try db.recordSlideView(
                SlideActionRecord(
                    id: "a-1", sessionId: "s-1", presentationId: 17, userId: nil, slideId: 1, slideName: "index.html",
                    navigation: "in", duration: 4, created: "2026-11-30T10:00:00.000Z", timeZone: 3),
                now: "2026-11-30T10:00:04.000Z")
        }
    }

    /// Session `s-1` as a new connection to the file reads it.
    private func storedSession() throws -> SessionRecord {
        let db = try Database(path: path)
        return try #require(try db.unfinishedSession(presentationId: 17, userId: nil))
    }

    @Test func changesAreStoredAndLeaveTheHostsRecordAlone() throws {
        do {
            let db = try Database(path: path)
            try Migrator.sclm.migrate(db)
            try recordSession(in: db)
            try db.write { db in
                try db.updateSession(id: "s-1", SessionChanges(visit: 1, checkIn: 2, confirmed: true))
            }
        }
        var expected = try storedSession()
        #expect(expected.visit == 1 && expected.checkIn == 2)
        #expect(expected.complete && expected.completeSessionDuration == 4, "confirmed as setSessionComplete does")
        #expect(expected.updated == "2026-11-30T10:00:04.000Z", "the session's end stays")
        #expect(expected.duration == 4 && expected.slidesCount == 1 && expected.presentationId == 17)

        let db = try Database(path: path)
        try db.write { db in try db.updateSession(id: "s-1", SessionChanges(checkIn: 0)) }
        expected.checkIn = 0
        #expect(try storedSession() == expected, "what is not sent keeps its value")
        try db.write { db in try db.updateSession(id: "s-1", SessionChanges(confirmed: false)) }
        expected.complete = false
        expected.completeSessionDuration = 0
        #expect(try storedSession() == expected, "withdrawn")
    }

    @Test func version6GivesEverySessionOfAVersion5HomeVisitAndCheckInAtZero() async throws {
        do {
            let db = try Database(path: path)
            try Migrator(migrations: Array(Migrator.sclm.migrations.prefix(5))).migrate(db)
            try db.execute(
                """
                INSERT INTO sessions(sessionId, presentationId, state, complete, duration, slidesCount, created)
                VALUES ('s-1', 17, 0, 1, 4, 1, '2026-11-30T10:00:00.000Z')
                """)
            #expect(try db.userVersion == 5)
        }
        let store = try ContentStore(path: path)
        #expect(store.migratedFrom == 5)
        #expect(try await store.read { db in try db.userVersion } == Migrator.sclm.latestVersion)
        let old = try storedSession()
        #expect(old.visit == 0 && old.checkIn == 0)
        #expect(old.complete && old.duration == 4 && old.slidesCount == 1, "the rest is kept")
        try await store.write { db in try db.updateSession(id: "s-1", SessionChanges(visit: 1)) }
        #expect(try storedSession().visit == 1)
    }
}
