import Foundation
import SCLMCore
import SCLMStore

extension SCLM {
    /// `sclm show ID`: one stored presentation with its package, slides, media files and package findings.
    package struct Show: Command {
        package static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one stored presentation with its package, slides, media files and package findings.",
            discussion: """
                Reads the local database only. Package findings are those of the installed revision, as
                sync stored them; for a revision installed by an sclm that did not record them, run
                `sclm validate "$(sclm content path ID)"`.
                """,
            arguments: [.presentationId])

        let presentationId: Int64

        package init(parsing arguments: ParsedArguments) throws {
            presentationId = try arguments.presentationId()
        }

        package func run(_ context: CommandContext) async throws {
            let id = presentationId
            let details = try await context.readingStore().read { db in try PresentationDetails.read(id, from: db) }
            guard let details else {
                throw SCLMError(
                    .notFound,
                    "presentation \(id) is not stored; `sclm list` shows the stored ones, `sclm sync` fetches new ones")
            }
            context.emit(details)
        }
    }
}

/// What `sclm show` prints: the stored record (without the raw JSON and slide HTML), local state, children
/// and the installed package's findings.
struct PresentationDetails: CommandOutput {
    struct Slide: Encodable {
        let slideId: Int64
        let name: String
        let revision: Int64
        let swipeNext: String?
        let swipePrevious: String?
        let linkedSlides: [String]
    }

    let presentation: PresentationRecord
    let clientName: String?
    let syncState: String
    let installedRevision: Int64?
    let package: ContentPackageRecord?
    let slides: [Slide]
    let mediaFiles: [MediaFileRecord]
    /// The installed revision's package findings; `null` in JSON when nothing is installed or they were
    /// not recorded (never an empty list that would look clean).
    let findings: StoredFindings

    static func read(_ id: Int64, from db: Database) throws -> PresentationDetails? {
        guard var presentation = try db.presentation(id: id), let summary = try db.presentationSummary(id: id) else {
            return nil
        }
        presentation.rawData = nil
        let client = try db.clientName(id: presentation.clientId)
        let slides = try db.slides(ofPresentation: id).map { slide in
            Slide(
                slideId: slide.slideId, name: slide.name, revision: slide.revision, swipeNext: slide.swipeNext,
                swipePrevious: slide.swipePrevious,
                linkedSlides: (slide.linkedSlides ?? "").split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                })
        }
        return PresentationDetails(
            presentation: presentation, clientName: client, syncState: summary.syncState.name,
            installedRevision: summary.installedRevision, package: try db.contentPackage(ofPresentation: id),
            slides: slides,
            mediaFiles: try db.mediaFiles(ofPresentation: id),
            findings: StoredFindings(records: try db.packageFindings(ofPresentation: id)))
    }

    var text: TerminalText {
        let state = SyncState(name: syncState) ?? .metadataOnly
        var lines: [TerminalText] = [
            "Presentation \(presentation.presentationId): \(presentation.name)",
            TextTable.keyValues([
                ("client", "\(clientName ?? "?") (\(presentation.clientId))"),
                ("revision", "\(presentation.revision) (installed: \(installedRevision.map(String.init) ?? "none"))"),
                ("state", "\(state.description)\(presentation.skip ? ", skipped by the server" : "")"),
                ("updated", "\(presentation.updatedDate ?? "unknown")"),
                ("visible", presentation.visibility ? "yes" : "no"),
                (
                    "package",
                    package.map { "revision \($0.revision), \($0.fileSize) bytes, blob \($0.blobId ?? "?")" } ?? "none"
                ),
            ]),
            "",
            "Slides (\(slides.count)):",
        ]
        if !slides.isEmpty {
            lines.append(
                TextTable.indented(
                    TextTable.columns(
                        header: ["ID", "NAME", "REVISION", "NEXT", "PREVIOUS"],
                        rows: slides.map {
                            ["\($0.slideId)", $0.name, "\($0.revision)", $0.swipeNext ?? "", $0.swipePrevious ?? ""]
                        })))
        }
        lines += ["", "Media files (\(mediaFiles.count)):"]
        if !mediaFiles.isEmpty {
            lines.append(
                TextTable.indented(
                    TextTable.columns(
                        header: ["ID", "FILE", "TITLE", "SIZE"],
                        rows: mediaFiles.map { ["\($0.mediaFileId)", $0.fileName, $0.title ?? "", "\($0.fileSize)"] })))
        }
        return (lines + [""] + findingLines).joined(separator: "\n")
    }

    /// The "Package findings" section: the stored findings, or why there are none to show.
    private var findingLines: [TerminalText] {
        let id = presentation.presentationId
        guard let revision = installedRevision else {
            let why =
                presentation.skip
                ? "nothing installed: the server marks it skip, so sync does not install it" : "nothing installed"
            return ["Package findings: none (\(why))."]
        }
        guard let records = findings.records else {
            return [
                "Package findings: not recorded (revision \(revision) was installed by an earlier sclm).",
                "  To see them: sclm validate \"$(sclm content path \(id))\"",
            ]
        }
        guard !records.isEmpty else { return ["Package findings: none."] }
        let counts = PackageFindingCounts(records)
        return ["Package findings (\(counts.text())):"]
            + records.map { "  \($0.severity) \($0.rule) [\($0.ruleClass)] \($0.location): \($0.message)" }
    }
}

/// A presentation's stored package findings as `--json` shows them: the array, or `null` when they are not
/// known.
struct StoredFindings: Encodable {
    let records: [PackageFindingRecord]?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let records { try container.encode(records) } else { try container.encodeNil() }
    }
}
