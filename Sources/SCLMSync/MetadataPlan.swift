import Foundation
import SCLMStore

/// Which clients a sync covers: all of them, or those named by id or (case-insensitive) name.
package struct ClientSelection: Sendable, Equatable {
    /// The `--client` values; empty means every client.
    package var selectors: [String]

    /// Creates a selection.
    package init(_ selectors: [String] = []) { self.selectors = selectors }

    /// Whether every client is selected.
    package var isAll: Bool { selectors.isEmpty }

    /// The clients of `listing` that the selectors name, in listing order.
    ///
    /// - Throws: ``SyncError`` (`.unknownClient`) for a selector that matches no client.
    package func resolve(in listing: [ClientDTO]) throws -> [ClientDTO] {
        try select(listing, id: \.id, name: \.name, place: "on the server")
    }

    /// The elements of `clients` that the selectors name (by id or case-insensitive name).
    ///
    /// - Parameters:
    ///   - clients: the clients to choose from.
    ///   - id: a client's id.
    ///   - name: a client's name.
    ///   - place: where the clients are, for the error ("on the server", "stored").
    /// - Returns: the chosen clients, in their order.
    /// - Throws: ``SyncError`` (`.unknownClient`) for a selector that matches nothing, listing what exists.
    package func select<Client>(
        _ clients: [Client], id: (Client) -> Int64, name: (Client) -> String, place: String
    ) throws -> [Client] {
        guard !isAll else { return clients }
        var chosen = Set<Int64>()
        for selector in selectors {
            let trimmed = selector.trimmingCharacters(in: .whitespaces)
            let matches = clients.filter { client in
                Int64(trimmed) == id(client) || name(client).caseInsensitiveCompare(trimmed) == .orderedSame
            }
            guard !matches.isEmpty else {
                let known = clients.map { "\(name($0)) (\(id($0)))" }.joined(separator: ", ")
                throw SyncError(
                    .unknownClient, subject: "'\(trimmed)' \(place)", detail: known.isEmpty ? "none" : known)
            }
            chosen.formUnion(matches.map(id))
        }
        return clients.filter { chosen.contains(id($0)) }
    }
}

/// What a metadata sync has to do, decided from the server's client list and the stored catalog alone
/// (a pure function, tested with tables of cases).
package struct MetadataPlan: Sendable, Equatable {
    /// A presentation whose full record must be fetched: new, its revision moved, or it moved client.
    package struct Fetch: Sendable, Equatable {
        package var stub: PresentationStubDTO
        package var clientId: Int64
        package var isNew: Bool
    }

    /// An unchanged presentation whose listing flags changed.
    package struct FlagUpdate: Sendable, Equatable {
        package var stub: PresentationStubDTO
    }

    /// A stored presentation the server no longer lists.
    package struct Removal: Sendable, Equatable {
        package var presentationId: Int64
        package var clientId: Int64
    }

    /// The selected clients, to store.
    package var clients: [ClientDTO]
    package var fetches: [Fetch]
    package var flagUpdates: [FlagUpdate]
    package var removals: [Removal]
    /// Stored clients the server no longer lists (only when every client is synced).
    package var removedClientIds: [Int64]
    /// Presentations the selected clients list.
    package var listedCount: Int
    /// Listed presentations that need nothing.
    package var unchangedCount: Int

    /// Plans a sync of `selection` given the server's `listing` and the stored presentations and clients.
    ///
    /// - Throws: ``SyncError`` (`.unknownClient`).
    package static func make(
        listing: [ClientDTO], selection: ClientSelection, stored: [PresentationSummary], storedClientIds: Set<Int64>
    ) throws -> MetadataPlan {
        let clients = try selection.resolve(in: listing)
        let selectedIds = Set(clients.map(\.id))
        var listed: [Int64: (stub: PresentationStubDTO, clientId: Int64)] = [:]
        var order: [Int64] = []
        for client in clients {
            for stub in client.presentations where listed[stub.id] == nil {
                listed[stub.id] = (stub, client.id)
                order.append(stub.id)
            }
        }
        let storedById = Dictionary(stored.map { ($0.presentationId, $0) }, uniquingKeysWith: { first, _ in first })
        var plan = MetadataPlan(
            clients: clients, fetches: [], flagUpdates: [], removals: [], removedClientIds: [],
            listedCount: order.count,
            unchangedCount: 0)
        for id in order {
            guard let (stub, clientId) = listed[id] else { continue }
            guard let known = storedById[id] else {
                plan.fetches.append(Fetch(stub: stub, clientId: clientId, isNew: true))
                continue
            }
            if known.revision != stub.revision || known.clientId != clientId {
                plan.fetches.append(Fetch(stub: stub, clientId: clientId, isNew: false))
            } else if known.skip != stub.skip || known.lockout != stub.lockout || known.debugModeEnabled != stub.debug {
                plan.flagUpdates.append(FlagUpdate(stub: stub))
            } else {
                plan.unchangedCount += 1
            }
        }
        let listingIds = Set(listing.map(\.id))
        for known in stored where listed[known.presentationId] == nil {
            let clientGone = selection.isAll && !listingIds.contains(known.clientId)
            if selectedIds.contains(known.clientId) || clientGone {
                plan.removals.append(Removal(presentationId: known.presentationId, clientId: known.clientId))
            }
        }
        if selection.isAll { plan.removedClientIds = storedClientIds.subtracting(listingIds).sorted() }
        return plan
    }
}
