import Foundation
import SCLMCore
import SCLMStore
import SCLMSync

extension SCLM {
    /// `sclm content`: find or remove a presentation's installed content.
    package struct Content: Command {
        package static let configuration = CommandConfiguration(
            commandName: "content",
            abstract: "Locate or delete the installed content of a presentation.",
            discussion: """
                Content is installed by `sclm sync` into content/<clientId>/<presentationId>/sources in the
                sclm home; index.html there is the start slide.
                """,
            subcommands: [Path.self, Delete.self])

        package init(parsing arguments: ParsedArguments) throws {}

        /// The stored summary of `id`.
        ///
        /// - Throws: `SCLMError` (`.notFound`) when the presentation is not stored.
        static func summary(of id: Int64, in store: ContentStore) async throws -> PresentationSummary {
            guard let summary = try await store.read({ db in try db.presentationSummary(id: id) }) else {
                throw SCLMError(
                    .notFound,
                    "presentation \(id) is not stored; `sclm list` shows the stored ones, `sclm sync` fetches new ones")
            }
            return summary
        }
    }
}

extension SCLM.Content {
    /// `sclm content path ID`.
    package struct Path: Command {
        package static let configuration = CommandConfiguration(
            commandName: "path", abstract: "Print the folder holding a presentation's installed content.",
            discussion: "Only the path is printed, so scripts can use it: cd \"$(sclm content path 101)\".",
            arguments: [.presentationId])

        let presentationId: Int64

        package init(parsing arguments: ParsedArguments) throws {
            presentationId = try arguments.presentationId()
        }

        struct Output: CommandOutput {
            let presentationId: Int64
            let path: String
            let installedRevision: Int64
            let revision: Int64
            var text: TerminalText { "\(path)" }
        }

        package func run(_ context: CommandContext) async throws {
            let id = presentationId
            let summary = try await SCLM.Content.summary(of: id, in: try context.readingStore())
            let path = context.home.sourcesDirectory(clientId: summary.clientId, presentationId: id)
            guard let installed = summary.installedRevision, FileSystem.isDirectory(path) else {
                throw SCLMError(.notFound, "presentation \(id) has no content installed; \(Self.installHint(summary))")
            }
            context.emit(
                Output(presentationId: id, path: path, installedRevision: installed, revision: summary.revision))
        }

        /// How to get content installed: sync it, unless the server marks it skip (sync would not install it).
        static func installHint(_ summary: PresentationSummary) -> String {
            guard summary.skip else { return "install it with `sclm sync --presentation \(summary.presentationId)`" }
            return "the server marks it skip, so `sclm sync` does not install it (the server must clear skip first)"
        }
    }

    /// `sclm content delete ID`.
    package struct Delete: Command {
        package static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete a presentation's installed content and cached downloads.",
            discussion: """
                The presentation stays in the catalog, marked ready to download (state 1), so the next
                `sclm sync` installs it again. Refused while another sclm process is syncing it.
                """,
            arguments: [.presentationId])

        let presentationId: Int64

        package init(parsing arguments: ParsedArguments) throws {
            presentationId = try arguments.presentationId()
        }

        struct Output: CommandOutput {
            let presentationId: Int64
            let name: String
            let deletedRevision: Int64?
            let path: String
            /// Whether the server marks the presentation skip (sync does not install it).
            let isSkipped: Bool
            var text: TerminalText {
                let next: TerminalText =
                    isSkipped
                    ? "the server marks it skip, so `sclm sync` does not install it" : "`sclm sync` installs it again"
                guard let deletedRevision else {
                    return "Nothing was installed for \(name) (\(presentationId)); nothing to delete."
                }
                return "Deleted revision \(deletedRevision) of \(name) (\(presentationId)); \(next)."
            }
        }

        package func run(_ context: CommandContext) async throws {
            let id = presentationId
            let store = try context.store()
            let summary = try await SCLM.Content.summary(of: id, in: store)
            guard let lock = try PresentationLock.acquire(id, in: context.home) else {
                throw SCLMError(
                    .temporary, "presentation \(id) is being synced by another sclm process; retry when it is done")
            }
            defer { lock.release() }
            // The record goes first: if removing the files is interrupted, a later sync replaces the rest.
            _ = try await store.write { db in try db.forgetInstall(presentationId: id) }
            let cache = PackageCache(home: context.home)
            let home = context.home
            try await BlockingWork.file("sclm.remove") {
                try cache.removeContent(of: id, clientId: summary.clientId, in: home, entries: cache.entries())
            }
            context.emit(
                Output(
                    presentationId: id, name: summary.name, deletedRevision: summary.installedRevision,
                    path: context.home.sourcesDirectory(clientId: summary.clientId, presentationId: id),
                    isSkipped: summary.skip))
        }
    }
}
