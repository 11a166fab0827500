import SCLMCore
import SCLMStore
import SCLMSync

/// The end of `sclm sync`: one `summary` JSON line with `--json`, else a few lines of text that list
/// every failure by presentation with its reason.
struct SyncSummary {
    let report: SyncReport
    /// Presentation names from the events, for the failure list.
    let names: [Int64: String]
    let elapsed: Duration

    /// The `--json` line.
    struct Event: Encodable {
        let event = "summary"
        let ok: Bool
        let cancelled: Bool
        let metadata: MetadataReport?
        let content: ContentReport?
        let pendingContent: [ContentCandidate]?
        /// For a cancelled run: what the events reported before the interruption.
        let installed: Int?
        let failed: Int?
        let seconds: Double
    }

    /// Prints the summary on stdout.
    func print(to context: CommandContext) {
        if context.wantsJSON {
            context.printJSON(
                Event(
                    ok: report.isSuccess, cancelled: false, metadata: report.metadata, content: report.content,
                    pendingContent: report.pendingContent, installed: nil, failed: nil, seconds: elapsed.inSeconds))
        } else {
            for line in lines { context.print(line) }
        }
    }

    /// The text form (names and failure messages escaped for the terminal).
    var lines: [TerminalText] {
        let metadata = report.metadata
        let clients = metadata.clientIds.count == 1 ? "1 client" : "\(metadata.clientIds.count) clients"
        let synced: TerminalText =
            "Synced \(clients), \(metadata.presentations) presentation(s): \(metadata.added.count) new, "
            + "\(metadata.updated.count) updated, \(metadata.removed.count) removed, \(metadata.unchanged) unchanged"
            + (metadata.failures.isEmpty ? "" : ", \(metadata.failures.count) failed")
        var lines: [TerminalText] = []
        if let content = report.content {
            lines.append(synced + ".")
            var parts = ["\(content.installed.count) installed"]
            if !content.failures.isEmpty { parts.append("\(content.failures.count) failed") }
            if !content.busy.isEmpty { parts.append("\(content.busy.count) busy in another sclm") }
            if !content.skipped.isEmpty { parts.append("\(content.skipped.count) skipped") }
            parts.append("\(content.upToDate.count) up to date")
            lines.append(
                "Content: \(parts.joined(separator: ", ")); \(ProgressFormat.bytes(content.downloadedBytes)) downloaded"
                    + " in \(ProgressFormat.seconds(elapsed.inSeconds)).")
            if let notice = content.blobProxyFallback { lines.append("Note: \(notice).") }
            lines += content.installed.filter { $0.findings.total > 0 }.map { installed in
                "  \(installed.name) (\(installed.presentationId)) installed with "
                    + "\(installed.findings.text(qualifier: "content")) (sclm show \(installed.presentationId))"
            }
        } else {
            lines.append(synced + " in \(ProgressFormat.seconds(elapsed.inSeconds)).")
            if !report.pendingContent.isEmpty {
                lines.append("\(report.pendingContent.count) presentation(s) have content to download or update.")
            }
        }
        let failures = metadata.failures + (report.content?.failures ?? [])
        if !failures.isEmpty {
            lines.append("Failed (\(failures.count)):")
            lines += failures.map { failure -> TerminalText in
                let who = failure.presentationId.map { id in names[id].map { "\($0) (\(id))" } ?? "presentation \(id)" }
                return "  \(who.map { "\($0): " } ?? "")\(failure.message)"
            }
        }
        return lines
    }

    /// What a cancelled sync prints: a `summary` line with `cancelled: true` (with `--json`) and a notice
    /// on stderr that partial downloads resume next time.
    static func printCancelled(tally: ProgressBoard.Tally, elapsed: Duration, context: CommandContext) {
        if context.wantsJSON {
            context.printJSON(
                Event(
                    ok: false, cancelled: true, metadata: nil, content: nil, pendingContent: nil,
                    installed: tally.installed, failed: tally.failed, seconds: elapsed.inSeconds))
        }
        context.logger.warning(
            "cancelled after \(ProgressFormat.seconds(elapsed.inSeconds)) with \(tally.installed) presentation(s) installed;"
                + " partial downloads stay in the cache and resume with the next `sclm sync`")
    }
}
