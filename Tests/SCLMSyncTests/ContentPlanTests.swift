import Foundation
import SCLMCore
import SCLMStore
import SCLMSync
import SCLMTestSupport
import Testing

/// Which presentations the content phase works on, from the stored catalog alone.
@Suite(.tags(.small)) struct ContentPlanTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let clients: Set<Int64>
        let presentations: [Int64]
        let downloads: [Int64]
        let skipped: [Int64]
        let upToDate: [Int64]
        var testDescription: String { name }
    }

    /// 101 new, 102 installed and current, 103 installed with an update, 104 skip, 201 (client 2) new,
    /// 105 left "downloading" by a killed run.
    static let stored = [
        MetadataPlanTests.stored(101, client: 1, revision: 4),
        MetadataPlanTests.stored(102, client: 1, revision: 2, installed: 2),
        MetadataPlanTests.stored(103, client: 1, revision: 7, installed: 6),
        MetadataPlanTests.stored(104, client: 1, revision: 1, skip: true),
        MetadataPlanTests.stored(201, client: 2, revision: 1),
        summary(105, state: .downloading),
    ]

    static func summary(_ id: Int64, state: SyncState) -> PresentationSummary {
        PresentationSummary(presentationId: id, clientId: 1, revision: 3, syncState: state)
    }

    static let cases = [
        Case(
            name: "every presentation of the synced clients", clients: [1, 2], presentations: [],
            downloads: [101, 103, 201, 105], skipped: [104], upToDate: [102]),
        Case(
            name: "only the synced client", clients: [2], presentations: [], downloads: [201], skipped: [],
            upToDate: []),
        Case(
            name: "--presentation narrows the selection", clients: [1, 2], presentations: [103, 102],
            downloads: [103], skipped: [], upToDate: [102]),
        Case(
            name: "a chosen skip presentation is still skipped", clients: [1], presentations: [104], downloads: [],
            skipped: [104], upToDate: []),
    ]

    @Test(arguments: cases) func plans(_ test: Case) throws {
        let plan = try ContentPlan.make(
            stored: Self.stored, clientIds: test.clients, presentationIds: test.presentations)
        #expect(plan.downloads.map(\.presentationId) == test.downloads)
        #expect(plan.skipped.map(\.presentationId) == test.skipped)
        #expect(plan.upToDate == test.upToDate)
    }

    /// 301 new, 302 left mid-unpack by a killed run, 303 given up at its revision 3, 304 given up at revision 2
    /// (the server has published revision 3 since), 305 new: all of client 3.
    static let interrupted = [
        PresentationSummary(presentationId: 301, clientId: 3, revision: 3),
        PresentationSummary(presentationId: 302, clientId: 3, revision: 3, unpack: UnpackAttempts(unpacking: 3)),
        PresentationSummary(
            presentationId: 303, clientId: 3, revision: 3,
            unpack: UnpackAttempts(interruptedRevision: 3, interruptions: 3)),
        PresentationSummary(
            presentationId: 304, clientId: 3, revision: 3,
            unpack: UnpackAttempts(interruptedRevision: 2, interruptions: 3)),
        PresentationSummary(presentationId: 305, clientId: 3, revision: 3),
    ]

    @Test func presentationsLeftMidUnpackComeAfterTheOthersAndARevisionGivenUpIsNotTried() throws {
        let plan = try ContentPlan.make(stored: Self.interrupted, clientIds: [3], presentationIds: [])
        #expect(plan.downloads.map(\.presentationId) == [301, 304, 305])
        #expect(plan.interrupted.map(\.presentationId) == [302])
        #expect(plan.givenUp.map(\.presentationId) == [303])
        #expect(plan.retried.isEmpty)
    }

    @Test func retryTriesARevisionGivenUpAfterTheOthers() throws {
        let plan = try ContentPlan.make(stored: Self.interrupted, clientIds: [3], presentationIds: [], retry: true)
        #expect(plan.downloads.map(\.presentationId) == [301, 304, 305])
        #expect(plan.interrupted.map(\.presentationId) == [302, 303])
        #expect(plan.givenUp.isEmpty)
        #expect(plan.retried == [303])
    }

    @Test func aPresentationOutsideTheSyncedClientsIsAnError() throws {
        let error = try #require(throws: SyncError.self) {
            try ContentPlan.make(stored: Self.stored, clientIds: [2], presentationIds: [101])
        }
        #expect(error.code == .unknownPresentation)
        #expect(
            error.description
                == "no presentation 101 among the synced clients; `sclm list` shows the stored presentations")
        #expect(error.category.exitCode == 1)
    }
}
