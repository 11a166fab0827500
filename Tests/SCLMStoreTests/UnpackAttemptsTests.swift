import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

/// The mark of an unpack in progress and the interruptions counted in a row: the rules as a table, then the
/// store's writes on a real database file (schema version 4).
@Suite(.tags(.medium)) struct UnpackAttemptsTests {
    let folder = TemporaryDirectory()

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let before: UnpackAttempts
        let after: UnpackAttempts
        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "no mark: nothing to count", before: UnpackAttempts(), after: UnpackAttempts()),
        Case(
            name: "a first interruption", before: UnpackAttempts(unpacking: 4),
            after: UnpackAttempts(interruptedRevision: 4, interruptions: 1)),
        Case(
            name: "the same revision again",
            before: UnpackAttempts(unpacking: 4, interruptedRevision: 4, interruptions: 2),
            after: UnpackAttempts(interruptedRevision: 4, interruptions: 3)),
        Case(
            name: "another revision starts over",
            before: UnpackAttempts(unpacking: 5, interruptedRevision: 4, interruptions: 2),
            after: UnpackAttempts(interruptedRevision: 5, interruptions: 1)),
        Case(
            name: "a count without a mark stays",
            before: UnpackAttempts(interruptedRevision: 4, interruptions: 2),
            after: UnpackAttempts(interruptedRevision: 4, interruptions: 2)),
    ]

    @Test(.tags(.small), arguments: cases) func countsAMarkFoundStillSet(_ test: Case) {
        #expect(test.before.afterInterruption() == test.after)
    }

    @Test(.tags(.small)) func aRevisionIsGivenUpAfterThreeInterruptionsInARowOfItself() {
        #expect(!UnpackAttempts(interruptedRevision: 4, interruptions: 2).hasGivenUp(on: 4))
        #expect(UnpackAttempts(interruptedRevision: 4, interruptions: 3).hasGivenUp(on: 4))
        #expect(!UnpackAttempts(interruptedRevision: 4, interruptions: 3).hasGivenUp(on: 5), "a new revision")
        #expect(!UnpackAttempts().hasGivenUp(on: 4))
    }

    /// A database holding client 1 with presentation 17 at revision 4.
    private func database() throws -> Database {
        let db = try Database(path: folder.appending("sclm.db"))
        try Migrator.sclm.migrate(db)
        try db.write { db in
            try db.upsert([ClientRecord(clientId: 1, name: "Demo")])
            try db.upsertPresentations([PresentationRecord(presentationId: 17, clientId: 1, name: "Deck", revision: 4)])
        }
        return db
    }

    private func attempts(in db: Database) throws -> UnpackAttempts? {
        try db.presentationSummary(id: 17)?.unpack
    }

    @Test func theMarkIsCountedByTheNextHolderAndClearedByAnUnpackThatEnds() throws {
        let db = try database()
        #expect(try attempts(in: db) == UnpackAttempts())
        for count in Int64(1)...3 {
            try db.writeDurably { db in try db.markUnpacking(presentationId: 17, revision: 4) }
            #expect(try attempts(in: db)?.unpacking == 4)
            let counted = try db.write { db in try db.countInterruptedUnpack(presentationId: 17) }
            #expect(counted == UnpackAttempts(interruptedRevision: 4, interruptions: count))
            #expect(try attempts(in: db) == counted)
        }
        #expect(try attempts(in: db)?.hasGivenUp(on: 4) == true)
        try db.write { db in try db.markUnpacking(presentationId: 17, revision: 4) }
        try db.write { db in try db.clearUnpackMark(presentationId: 17, ended: true) }
        #expect(try attempts(in: db) == UnpackAttempts(), "an unpack that ended breaks the row")
        #expect(try db.write { db in try db.countInterruptedUnpack(presentationId: 18) } == nil, "not stored")
    }

    @Test func aCancelClearsTheMarkWithoutCountingOrForgetting() throws {
        let db = try database()
        try db.write { db in
            try db.markUnpacking(presentationId: 17, revision: 4)
            _ = try db.countInterruptedUnpack(presentationId: 17)
            try db.markUnpacking(presentationId: 17, revision: 4)
            try db.clearUnpackMark(presentationId: 17, ended: false)
        }
        #expect(try attempts(in: db) == UnpackAttempts(interruptedRevision: 4, interruptions: 1))
    }

    @Test func retryForgetsTheInterruptionsButKeepsAMarkToCount() throws {
        let db = try database()
        try db.write { db in
            try db.execute(
                "UPDATE presentations SET unpackRevision = 4, interruptedRevision = 4, unpackInterruptions = 3")
            try db.forgetUnpackInterruptions(presentationIds: [17])
        }
        #expect(try attempts(in: db) == UnpackAttempts(unpacking: 4))
    }

    @Test func aDurableWriteRestoresTheUsualSafetyLevel() throws {
        let db = try database()
        try db.writeDurably { db in
            #expect(try db.fetchScalar("PRAGMA synchronous", as: Int.self) == 2, "FULL while it commits")
            try db.markUnpacking(presentationId: 17, revision: 4)
        }
        #expect(try db.fetchScalar("PRAGMA synchronous", as: Int.self) == 1, "NORMAL again")
        #expect(throws: StoreError.self) {
            try db.writeDurably { _ in throw StoreError(code: .sqlite, message: "refused") }
        }
        #expect(try db.fetchScalar("PRAGMA synchronous", as: Int.self) == 1, "NORMAL again after a throw")
    }

    @Test func anOlderDatabaseGainsTheColumnsWithNothingCounted() throws {
        let db = try Database(path: folder.appending("old.db"))
        try Migrator(migrations: Array(Migrator.sclm.migrations.prefix(3))).migrate(db)
        try db.write { db in
            try db.execute("INSERT INTO clients(clientId, name) VALUES (1, 'Demo')")
            try db.execute("INSERT INTO presentations(presentationId, clientId, revision) VALUES (17, 1, 4)")
        }
        try Migrator.sclm.migrate(db)
        #expect(try db.userVersion == Migrator.sclm.latestVersion)
        #expect(try attempts(in: db) == UnpackAttempts())
    }
}
