import Foundation
import SCLMAnalytics
import SCLMCore
import SCLMStore
import SCLMSync

/// The home's state in the Prometheus text exposition format (version 0.0.4), for node_exporter's textfile
/// collector: written after every `sclm sync` to `metrics.textfile` and printed by
/// `sclm status --format prometheus` (``PrometheusText``; times are gauges in Unix seconds).
struct SyncMetrics {
    private var families = PrometheusText()

    /// Reads the metrics from the database: the last sync (start, end, result, failed presentations, bytes
    /// downloaded), each presentation's installed and server revision and state, the findings of the
    /// installed revisions, the analytics outbox.
    ///
    /// - Throws: ``StoreError``.
    static func read(from db: Database) throws -> SyncMetrics {
        var metrics = SyncMetrics()
        let preferences = try db.preferences(scope: PreferenceKey.sclmScope)
        let summaries = try db.presentationSummaries()
        let clients = Dictionary(summaries.map { ($0.presentationId, $0.clientId) }) { first, _ in first }
        metrics.lastSync(preferences, clients: clients)
        metrics.presentations(summaries)
        let findings = try db.packageFindingCounts().values
        metrics.add(
            "sclm_package_findings", "Findings stored with the installed revisions, by severity.",
            [
                ([("severity", "error")], Double(findings.reduce(0) { $0 + $1.error })),
                ([("severity", "warning")], Double(findings.reduce(0) { $0 + $1.warning })),
            ])
        metrics.add(
            "sclm_analytics_outbox_entries", "Analytics events and sessions not yet published.",
            [([], Double(try Outbox.summary(in: db).unpublished))])
        return metrics
    }

    /// The text format (``PrometheusText/text``).
    var text: String { families.text }

    /// Writes ``text`` to `path` (a `*.prom` file) through a temporary file and a rename, mode 0644 so that
    /// node_exporter can read it.
    ///
    /// - Throws: `SCLMError` (`.usage`) for a path that does not end in `.prom`, (`.storage`) when it cannot
    ///   be written.
    func write(to path: String) throws {
        guard path.hasSuffix(".prom") else {
            throw SCLMError(
                .usage,
                "metrics.textfile must name a *.prom file (node_exporter reads no other), got '\(path)'; fix it with "
                    + "`sclm config set metrics.textfile /var/lib/prometheus/node-exporter/sclm.prom`")
        }
        try families.write(to: path)
    }

    /// After a sync that started at `startedAt`: stores what the metrics need beyond the sync's own record
    /// (its start, failed presentations, bytes downloaded; `report` is `nil` for a sync that ended without
    /// one), then writes the `metrics.textfile`, if one is set. A file that cannot be written is a warning,
    /// never the sync's failure.
    static func record(
        after report: SyncReport?, startedAt: Date, store: ContentStore, configuration: Configuration, logger: Logger
    ) async {
        let failed = report.map { ($0.metadata.failures + ($0.content?.failures ?? [])).compactMap(\.presentationId) }
        let downloaded = report?.content?.downloadedBytes ?? 0
        let fellBack = report?.content?.blobProxyFallback != nil
        do {
            let metrics = try await store.write { db in
                let scope = PreferenceKey.sclmScope
                try db.setPreference(
                    scope: scope, key: PreferenceKey.lastSyncStartedAt, value: Timestamp.string(from: startedAt))
                try db.setPreference(
                    scope: scope, key: PreferenceKey.lastSyncFailedPresentations,
                    value: Set(failed ?? []).sorted().map(String.init).joined(separator: ","))
                try db.setPreference(
                    scope: scope, key: PreferenceKey.lastSyncDownloadedBytes, value: String(downloaded))
                try db.setPreference(
                    scope: scope, key: PreferenceKey.lastSyncBlobProxyFallback, value: fellBack ? "1" : "0")
                return try SyncMetrics.read(from: db)
            }
            if let path = try configuration.value(.metricsTextfile), !path.isEmpty { try metrics.write(to: path) }
        } catch {
            logger.warning("cannot write the sync metrics: \(error.userMessage)")
        }
    }

    // MARK: - Families

    /// `clients` maps a presentation id to its client's, for the `client` label of the failed ones (empty for
    /// a presentation the database does not hold).
    private mutating func lastSync(_ preferences: [String: String], clients: [Int64: Int64]) {
        let time = { (key: String) in preferences[key].flatMap(Timestamp.date(from:)).map(\.timeIntervalSince1970) }
        let result = preferences[PreferenceKey.lastSyncResult]
        add(
            "sclm_sync_last_start_time_seconds", "When the last sync started, in Unix seconds.",
            time(PreferenceKey.lastSyncStartedAt).map { [([], $0)] } ?? [])
        add(
            "sclm_sync_last_end_time_seconds", "When the last sync ended, in Unix seconds.",
            time(PreferenceKey.lastSyncAt).map { [([], $0)] } ?? [])
        add(
            "sclm_sync_last_success", "1 when the last sync ended without a failure, else 0.",
            result.map { [([], $0 == "ok" ? 1 : 0)] } ?? [])
        add(
            "sclm_sync_last_result", "The last sync's result (ok, failed, cancelled) as a label.",
            result.map { [([("result", $0)], 1)] } ?? [])
        let failed = (preferences[PreferenceKey.lastSyncFailedPresentations] ?? "").split(separator: ",")
        add(
            "sclm_sync_last_failed_presentations", "Presentations the last sync could not sync.",
            result == nil ? [] : [([], Double(failed.count))])
        add(
            "sclm_presentation_sync_failed", "1 for each presentation the last sync could not sync.",
            failed.map { id in
                (
                    [
                        ("client", Int64(id).flatMap { clients[$0] }.map(String.init) ?? ""),
                        ("presentation", String(id)),
                    ], 1
                )
            })
        add(
            "sclm_sync_last_downloaded_bytes", "Bytes of packages and media files the last sync downloaded.",
            preferences[PreferenceKey.lastSyncDownloadedBytes].flatMap(Double.init).map { [([], $0)] } ?? [])
        add(
            "sclm_sync_last_blob_proxy_fallback",
            "1 when the last sync fetched blobs from the origin because the site cache (sync.blobProxy) failed.",
            preferences[PreferenceKey.lastSyncBlobProxyFallback].flatMap(Double.init).map { [([], $0)] } ?? [])
    }

    private mutating func presentations(_ summaries: [PresentationSummary]) {
        let label = { (summary: PresentationSummary) in
            [("client", String(summary.clientId)), ("presentation", String(summary.presentationId))]
        }
        add(
            "sclm_presentation_installed_revision", "The revision whose content is installed.",
            summaries.compactMap { summary in summary.installedRevision.map { (label(summary), Double($0)) } })
        add(
            "sclm_presentation_server_revision", "The revision the server lists.",
            summaries.map { (label($0), Double($0.revision)) })
        add(
            "sclm_presentation_state",
            "1 for each presentation's state (installed, update available, queued and so on).",
            summaries.map { (label($0) + [("state", $0.syncState.description)], 1) })
    }

    private mutating func add(_ name: String, _ help: String, _ samples: [([(String, String)], Double)]) {
        families.add(name, help, samples)
    }
}
