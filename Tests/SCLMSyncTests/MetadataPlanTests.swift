import Foundation
import SCLMStore
import SCLMSync
import SCLMTestSupport
import Testing

/// The pure diff between the server's client list and the stored catalog.
@Suite(.tags(.small)) struct MetadataPlanTests {
    static func client(_ id: Int64, _ name: String, _ stubs: [PresentationStubDTO]) throws -> ClientDTO {
        let presentations = stubs.map {
            #"{"id":\#($0.id),"revision":\#($0.revision),"debug":\#($0.debug),"skip":\#($0.skip),"lockout":\#($0.lockout)}"#
        }
        let json = #"{"id":\#(id),"name":"\#(name)","presentations":[\#(presentations.joined(separator: ","))]}"#
        return try JSONDecoder().decode(ClientDTO.self, from: Data(json.utf8))
    }

    static func stored(_ id: Int64, client: Int64, revision: Int64, skip: Bool = false, installed: Int64? = nil)
        -> PresentationSummary
    {
        PresentationSummary(
            presentationId: id, clientId: client, revision: revision, installedRevision: installed,
            syncState: installed == nil ? .readyToDownload : .installed, skip: skip)
    }

    @Test func fetchesNewAndChangedPresentationsOnly() throws {
        let listing = [
            try Self.client(
                1, "Demo", [.init(id: 101, revision: 4), .init(id: 102, revision: 2), .init(id: 103, revision: 7)])
        ]
        let plan = try MetadataPlan.make(
            listing: listing, selection: ClientSelection(),
            stored: [Self.stored(101, client: 1, revision: 4), Self.stored(102, client: 1, revision: 1)],
            storedClientIds: [1])
        #expect(plan.fetches.map(\.stub.id) == [102, 103])
        #expect(plan.fetches.map(\.isNew) == [false, true])
        #expect(plan.unchangedCount == 1 && plan.listedCount == 3)
        #expect(plan.removals.isEmpty && plan.removedClientIds.isEmpty)
    }

    @Test func aNoOpPlanDoesNothing() throws {
        let listing = [try Self.client(1, "Demo", [.init(id: 101, revision: 4)])]
        let plan = try MetadataPlan.make(
            listing: listing, selection: ClientSelection(), stored: [Self.stored(101, client: 1, revision: 4)],
            storedClientIds: [1])
        #expect(plan.fetches.isEmpty && plan.flagUpdates.isEmpty && plan.removals.isEmpty && plan.unchangedCount == 1)
    }

    @Test func flagChangesAloneNeedNoFetch() throws {
        let listing = [try Self.client(1, "Demo", [.init(id: 101, revision: 4, skip: true)])]
        let plan = try MetadataPlan.make(
            listing: listing, selection: ClientSelection(), stored: [Self.stored(101, client: 1, revision: 4)],
            storedClientIds: [1])
        #expect(plan.fetches.isEmpty)
        #expect(plan.flagUpdates.map(\.stub.id) == [101])
    }

    @Test func removesWhatTheServerNoLongerListsIncludingGoneClients() throws {
        let listing = [try Self.client(1, "Demo", [.init(id: 101, revision: 4)])]
        let stored = [
            Self.stored(101, client: 1, revision: 4), Self.stored(103, client: 1, revision: 7),
            Self.stored(301, client: 3, revision: 1),
        ]
        let plan = try MetadataPlan.make(
            listing: listing, selection: ClientSelection(), stored: stored, storedClientIds: [1, 3])
        #expect(plan.removals.map(\.presentationId) == [103, 301])
        #expect(plan.removals.map(\.clientId) == [1, 3])
        #expect(plan.removedClientIds == [3])
    }

    @Test func aClientSelectionLeavesOtherClientsAlone() throws {
        let listing = [
            try Self.client(1, "Demo Pharma", [.init(id: 101, revision: 5)]),
            try Self.client(2, "Northwind", [.init(id: 201, revision: 2)]),
        ]
        let stored = [
            Self.stored(101, client: 1, revision: 4), Self.stored(201, client: 2, revision: 1),
            Self.stored(901, client: 9, revision: 1),
        ]
        let plan = try MetadataPlan.make(
            listing: listing, selection: ClientSelection(["demo pharma"]), stored: stored, storedClientIds: [1, 2, 9])
        #expect(plan.clients.map(\.id) == [1])
        #expect(plan.fetches.map(\.stub.id) == [101])
        #expect(plan.removals.isEmpty && plan.removedClientIds.isEmpty)
        #expect(
            try MetadataPlan.make(listing: listing, selection: ClientSelection(["2"]), stored: [], storedClientIds: [])
                .clients.map(\.id) == [2])
    }

    @Test func anUnknownClientNamesTheKnownOnes() throws {
        let listing = [try Self.client(1, "Demo Pharma", [])]
        let error = try #require(throws: SyncError.self) {
            try MetadataPlan.make(
                listing: listing, selection: ClientSelection(["Acme"]), stored: [], storedClientIds: [])
        }
        #expect(error.code == .unknownClient)
        #expect(error.description == "no client 'Acme' on the server; known clients: Demo Pharma (1)")
    }

    @Test func aPresentationThatMovedClientIsFetchedAgain() throws {
        let listing = [try Self.client(2, "B", [.init(id: 101, revision: 4)])]
        let plan = try MetadataPlan.make(
            listing: listing, selection: ClientSelection(), stored: [Self.stored(101, client: 1, revision: 4)],
            storedClientIds: [1, 2])
        #expect(plan.fetches.map(\.clientId) == [2])
        #expect(plan.removedClientIds == [1])
        #expect(plan.removals.isEmpty)
    }

    struct StateCase: Sendable, CustomTestStringConvertible {
        let revision: Int64
        let installed: Int64?
        let skip: Bool
        let state: SyncState
        var testDescription: String {
            "rev \(revision), installed \(installed.map(String.init) ?? "-"), skip \(skip) → \(state)"
        }
    }

    static let stateCases: [StateCase] = [
        .init(revision: 4, installed: nil, skip: false, state: .readyToDownload),
        .init(revision: 4, installed: nil, skip: true, state: .metadataOnly),
        .init(revision: 5, installed: 4, skip: false, state: .updateAvailable),
        .init(revision: 4, installed: 4, skip: false, state: .installed),
        .init(revision: 5, installed: 4, skip: true, state: .updateAvailable),
    ]

    @Test(arguments: stateCases) func statesAfterMetadata(_ example: StateCase) {
        #expect(
            SyncState.afterMetadata(
                revision: example.revision, installedRevision: example.installed, skip: example.skip)
                == example.state)
    }
}
