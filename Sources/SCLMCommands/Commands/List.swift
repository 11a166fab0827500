import Foundation
import SCLMCore
import SCLMStore
import SCLMSync

extension SCLM {
    /// `sclm list`: the stored clients and their presentations with revision and sync state.
    package struct List: Command {
        package static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the stored clients and presentations with their revision and sync state.",
            discussion: "Reads the local database only; run `sclm sync` first to fetch the catalog.",
            options: [clientOption])

        /// `--client id|name`, repeatable.
        static let clientOption: CommandOption<[String]> = .texts(
            "--client", value: "id|name", help: "Only this client (repeatable).")

        let clients: [String]

        package init(parsing arguments: ParsedArguments) throws {
            clients = try arguments.read(Self.clientOption)
        }

        package func run(_ context: CommandContext) async throws {
            let selection = ClientSelection(clients)
            let listing = try await context.readingStore().read { db in
                try CatalogListing.read(from: db, selection: selection)
            }
            context.emit(listing)
        }
    }
}

/// What `sclm list` shows.
struct CatalogListing: CommandOutput {
    struct Client: Encodable {
        let clientId: Int64
        let name: String
        let presentations: [Presentation]
    }

    struct Presentation: Encodable {
        let presentationId: Int64
        let name: String
        let revision: Int64
        let installedRevision: Int64?
        let syncState: String
        let skip: Bool
        let visibility: Bool
        let order: Int64
        /// The installed revision's package findings by severity; `nil` when nothing is installed or the
        /// findings were not recorded.
        let findings: PackageFindingCounts?
        /// Why the last attempt to install it failed, if it did.
        let syncError: String?

        init(_ summary: PresentationSummary, findings: PackageFindingCounts?) {
            presentationId = summary.presentationId
            name = summary.name
            revision = summary.revision
            installedRevision = summary.installedRevision
            syncState = summary.syncState.name
            skip = summary.skip
            visibility = summary.visibility
            order = summary.order
            self.findings = summary.installedRevision == nil ? nil : findings
            syncError = summary.syncError
        }

        /// The FINDINGS column: `-` when nothing is installed, `unknown` when not recorded.
        var findingsText: String {
            guard installedRevision != nil else { return "-" }
            guard let findings else { return "unknown" }
            return findings.total == 0 ? "none" : findings.text()
        }

        private enum CodingKeys: String, CodingKey {
            case presentationId, name, revision, installedRevision, syncState, skip, visibility, order, findings
            case syncError
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(presentationId, forKey: .presentationId)
            try container.encode(name, forKey: .name)
            try container.encode(revision, forKey: .revision)
            try container.encode(installedRevision, forKey: .installedRevision)
            try container.encode(syncState, forKey: .syncState)
            try container.encode(skip, forKey: .skip)
            try container.encode(visibility, forKey: .visibility)
            try container.encode(order, forKey: .order)
            try container.encode(findings, forKey: .findings)
            try container.encode(syncError, forKey: .syncError)
        }
    }

    let clients: [Client]

    static func read(from db: Database, selection: ClientSelection) throws -> CatalogListing {
        let stored = try selection.select(try db.clients(), id: \.clientId, name: \.name, place: "stored")
        let byClient = Dictionary(grouping: try db.presentationSummaries(), by: \.clientId)
        let findings = try db.packageFindingCounts()
        return CatalogListing(
            clients: stored.map { client in
                Client(
                    clientId: client.clientId, name: client.name,
                    presentations: (byClient[client.clientId] ?? []).map {
                        Presentation($0, findings: findings[$0.presentationId])
                    })
            })
    }

    var text: TerminalText {
        guard !clients.isEmpty else { return "No clients stored yet; run `sclm sync --metadata-only` to fetch them." }
        return clients.map { client in
            let rows = client.presentations.map { presentation in
                [
                    "\(presentation.presentationId)", presentation.name, "\(presentation.revision)",
                    presentation.installedRevision.map(String.init) ?? "-",
                    (SyncState(name: presentation.syncState) ?? .metadataOnly).description
                        + (presentation.skip ? " (skip)" : ""),
                    presentation.findingsText,
                ]
            }
            let table: TerminalText =
                rows.isEmpty
                ? "  (no presentations)"
                : TextTable.indented(
                    TextTable.columns(
                        header: ["ID", "NAME", "REVISION", "INSTALLED", "STATE", "FINDINGS"], rows: rows))
            let failures = client.presentations.compactMap { presentation in
                presentation.syncError.map { "\n  \(presentation.presentationId) failed: \($0)" as TerminalText }
            }
            return "\(client.name) (client \(client.clientId))\n\(table)" + failures.joined()
        }.joined(separator: "\n\n")
    }
}
