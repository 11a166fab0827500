import Foundation
import SCLMAnalytics
import SCLMCore
import SCLMStore

extension SCLM {
    /// `sclm status`: where the home is, the schema version, what is stored and when it was last synced.
    package struct Status: Command {
        package static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show the sclm home, database schema, stored counts and the last sync.",
            discussion:
                """
                Creates the home and an empty database when they do not exist yet; reads a read-only home without changing it.
                --format prometheus prints the metrics sclm sync writes to metrics.textfile (Prometheus text format).
                """,
            options: [formatOption]
        )

        /// `--format text|prometheus`: whether to print Prometheus text (exact spelling only).
        static let formatOption: CommandOption<Bool?> = .option(
            "--format", help: "text (default; --json for JSON) or prometheus (node_exporter's text format).",
            choices: ["text", "prometheus"]
        ) { format in
            guard ["text", "prometheus"].contains(format) else {
                throw ValidationError("--format must be text or prometheus, got '\(format)'")
            }
            return format == "prometheus"
        }

        let isPrometheus: Bool

        package init(parsing arguments: ParsedArguments) throws {
            isPrometheus = try arguments.read(Self.formatOption) ?? false
        }

        package func run(_ context: CommandContext) async throws {
            let store = try context.readingStore()
            if isPrometheus {
                let metrics = try await store.read { db in try SyncMetrics.read(from: db) }
                context.stdout.write(metrics.text)
                return
            }
            context.emit(try await store.read { db in try StatusReport.read(from: db, home: context.home) })
        }
    }
}

/// What `sclm status` reports.
struct StatusReport: CommandOutput, Equatable {
    struct Counts: Codable, Equatable {
        var clients = 0
        var presentations = 0
        var installed = 0
        var updatesAvailable = 0
        var slides = 0
        var mediaFiles = 0
        var sessions = 0
        var unfinishedSessions = 0
        var pendingEvents = 0
        /// Installed presentations whose stored package findings are not empty.
        var installedWithFindings = 0
        /// Error findings stored with the installed revisions.
        var findingErrors = 0
        /// Warning findings stored with the installed revisions.
        var findingWarnings = 0
        /// Installed presentations whose findings were never recorded (installed by an earlier sclm).
        var findingsUnknown = 0
    }

    var home: String
    var database: String
    var schemaVersion: Int
    var counts: Counts
    var lastSync: String?
    var lastSyncResult: String?
    /// Presentations whose last install attempt failed, with the reason.
    var failures: [Failure]

    /// A presentation whose last install attempt failed (its stored `syncError`).
    struct Failure: Encodable, Equatable {
        var presentationId: Int64
        var name: String
        var message: String
    }

    private enum CodingKeys: String, CodingKey {
        case home, database, schemaVersion, counts, lastSync, lastSyncResult, failures
    }

    /// Encodes every key, `null` included, so the `--json` shape never changes.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(home, forKey: .home)
        try container.encode(database, forKey: .database)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(counts, forKey: .counts)
        try container.encode(lastSync, forKey: .lastSync)
        try container.encode(lastSyncResult, forKey: .lastSyncResult)
        try container.encode(failures, forKey: .failures)
    }

    static func read(from db: Database, home: Home) throws -> StatusReport {
        let (catalog, sessions) = (try db.catalogCounts(), try db.sessionCounts())
        var counts = Counts(
            clients: catalog.clients, presentations: catalog.presentations, installed: catalog.installed,
            updatesAvailable: catalog.updatesAvailable, slides: catalog.slides, mediaFiles: catalog.mediaFiles,
            sessions: sessions.sessions, unfinishedSessions: sessions.unfinished)
        counts.pendingEvents = try Outbox.summary(in: db).unpublished
        let findings = try db.packageFindingCounts().values
        counts.installedWithFindings = findings.count { $0.total > 0 }
        counts.findingErrors = findings.reduce(0) { $0 + $1.error }
        counts.findingWarnings = findings.reduce(0) { $0 + $1.warning }
        counts.findingsUnknown = counts.installed - findings.count
        let failures = try db.presentationSummaries().compactMap { summary in
            summary.syncError.map { Failure(presentationId: summary.presentationId, name: summary.name, message: $0) }
        }
        return StatusReport(
            home: home.root, database: home.databasePath, schemaVersion: try db.userVersion, counts: counts,
            lastSync: try db.preference(scope: PreferenceKey.sclmScope, key: PreferenceKey.lastSyncAt),
            lastSyncResult: try db.preference(scope: PreferenceKey.sclmScope, key: PreferenceKey.lastSyncResult),
            failures: failures)
    }

    var text: TerminalText {
        TextTable.keyValues([
            ("home", "\(home)"),
            ("database", "\(database) (schema v\(schemaVersion))"),
            ("clients", "\(counts.clients)"),
            (
                "presentations",
                "\(counts.presentations) (\(counts.installed) installed, \(counts.updatesAvailable) updates available)"
            ),
            ("slides", "\(counts.slides)"),
            ("media files", "\(counts.mediaFiles)"),
            ("sessions", "\(counts.sessions) (\(counts.unfinishedSessions) unfinished)"),
            ("package findings", findingsText),
            ("pending events", "\(counts.pendingEvents)"),
            ("last sync", lastSync.map { "\($0) (\(lastSyncResult ?? "unknown"))" } ?? "never"),
            (
                "failed",
                failures.isEmpty ? "none" : failures.count == 1 ? "1 presentation" : "\(failures.count) presentations"
            ),
        ]) + failures.map { "\n  \($0.name) (\($0.presentationId)): \($0.message)" }.joined()
    }

    /// `1 error, 2 warnings in 2 presentations (1 not recorded)`.
    private var findingsText: TerminalText {
        let total = PackageFindingCounts(error: counts.findingErrors, warning: counts.findingWarnings)
        let flagged = counts.installedWithFindings
        let presentations = flagged == 1 ? "1 presentation" : "\(flagged) presentations"
        var text: TerminalText = total.total == 0 ? "none" : "\(total.text()) in \(presentations)"
        if counts.findingsUnknown > 0 {
            text += " (\(counts.findingsUnknown) installed before findings were recorded: unknown)"
        }
        return text
    }
}
