import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

/// ``ContentScope``: the scoped reads keep one client's (and under a password login one user's) sessions,
/// custom events and presentations away from another's content.
@Suite(.tags(.medium)) struct ContentScopeTests {
    /// Client 1 owns presentation 10, client 2 presentations 20 and 21; sessions by two users.
    private func makeDatabase() throws -> Database {
        let db = try Database(path: ":memory:")
        try Migrator.sclm.migrate(db)
        try db.write { db in
            try db.upsert([ClientRecord(clientId: 1, name: "One"), ClientRecord(clientId: 2, name: "Two")])
            try db.upsertPresentations([
                PresentationRecord(presentationId: 10, clientId: 1, name: "A", order: 1, revision: 1),
                PresentationRecord(presentationId: 20, clientId: 2, name: "B", order: 1, revision: 1),
                PresentationRecord(presentationId: 21, clientId: 2, name: "C", order: 2, revision: 1),
            ])
            try db.execute("UPDATE presentations SET installedRevision = 1")
            for (id, presentation, user) in [("s10", 10, "u1"), ("s20", 20, "u1"), ("s21", 21, "u2")] {
                try db.insertSession(
                    SessionRecord(
                        sessionId: id, presentationId: Int64(presentation), userId: user, created: id, timeZone: 0))
                try db.setCustomEvent(
                    CustomEventRecord(
                        id: "e-\(id)", sessionId: id, presentationId: Int64(presentation), userId: user, key: "k",
                        value: id,
                        created: id, timeZone: 0))
            }
        }
        return db
    }

    static let client2 = ContentScope(clientId: 2, sessionOwners: .everyone)
    static let client2User1 = ContentScope(clientId: 2, sessionOwners: .user("u1"))

    @Test func sessionsAreTheClientsAndUnderAUserOnlyTheirs() throws {
        let db = try makeDatabase()
        #expect(try db.sessions(in: Self.client2).map(\.sessionId) == ["s20", "s21"])
        #expect(try db.sessions(in: Self.client2User1).map(\.sessionId) == ["s20"])
        #expect(try db.session(id: "s10", in: Self.client2) == nil)
        #expect(try db.session(id: "s21", in: Self.client2User1) == nil)
        #expect(try db.session(id: "s21", in: Self.client2)?.userId == "u2")
    }

    @Test func customEventsNeedAVisibleSessionAndTheClientsPresentation() throws {
        let db = try makeDatabase()
        #expect(try db.customEvents(sessionId: "s20", presentationId: 20, in: Self.client2) == ["k": "s20"])
        #expect(try db.customEvents(sessionId: "s10", presentationId: 10, in: Self.client2) == nil)
        #expect(try db.customEvents(sessionId: "s20", presentationId: 10, in: Self.client2) == nil)
        #expect(try db.customEvents(sessionId: "s21", presentationId: 21, in: Self.client2User1) == nil)
        #expect(try db.customEvents(sessionId: "s20", presentationId: 21, in: Self.client2) == [:])
    }

    @Test func presentationsAreTheClients() throws {
        let db = try makeDatabase()
        #expect(try db.installedPresentations(in: Self.client2).map(\.presentationId) == [21, 20])
        #expect(try db.presentationRow(id: 10, in: Self.client2) == nil)
        #expect(try db.presentationRow(id: 20, in: Self.client2)?.string("name") == "B")
        #expect(try db.presentationRow(id: 10, in: nil)?.string("name") == "A")
    }
}
