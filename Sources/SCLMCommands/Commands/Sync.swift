import Foundation
import SCLMCore
import SCLMHTTP
import SCLMStore
import SCLMSync

extension SCLM {
    /// `sclm sync`: bring the local catalog (and, with issue #4, the content) in step with the server.
    public struct Sync: Command {
        public static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Synchronize clients and presentations from the StoryCLM server.",
            discussion: """
                Fetches the client list, then only the presentations that are new or whose revision moved,
                with their slides, media-file records and package record, and stores everything in one
                transaction. Presentations the server no longer lists are removed with their content.
                Installed presentations whose revision moved are marked "update available".

                A presentation that cannot be fetched is reported and keeps its stored state; the others
                are synced and the exit status is 1. Transient failures are retried with backoff.
                Needs a login (`sclm login`).

                When StoryIoT is configured (iot.*), pending analytics are published at the end, as by
                `sclm events flush`; a failure there is a warning and never changes the exit status.
                """,
            options: [
                .option("--client", value: "id|name", help: "Sync only this client (repeatable).", repeatable: true),
                .flag("--metadata-only", help: "Sync metadata only, no content."),
                .option("--jobs", value: "n", help: "Requests in flight at once (default: sync.jobs, 4)."),
            ])

        let clients: [String]
        let metadataOnly: Bool
        let jobs: Int?

        public init(parsing arguments: ParsedArguments) throws {
            clients = arguments.values("--client")
            metadataOnly = arguments.flag("--metadata-only")
            jobs = try arguments.integer("--jobs", in: 1...64)
        }

        public func run(_ context: CommandContext) async throws {
            let services = try APIServices(context: context)
            let manager = SyncManager(
                service: try services.syncService(clock: context.clock), store: services.store, home: context.home,
                clock: context.clock, logger: context.logger)
            let width = try jobs ?? min(64, max(1, APIServices.number(.syncJobs, in: services.configuration)))
            let started = ContinuousClock.now
            let report = try await manager.sync(
                SyncOptions(clients: ClientSelection(clients), jobs: width, metadataOnly: metadataOnly))
            let elapsed = ContinuousClock.now - started
            for failure in report.metadata.failures { context.logger.error(failure.message) }
            if context.wantsJSON {
                context.printJSON(SyncResultEvent(report: report, seconds: elapsed))
            } else {
                print(report, elapsed: elapsed, context: context)
            }
            try await AnalyticsAfterSync.flush(services: services, context: context)
            if !report.isSuccess { throw ExitCode.failure }
        }

        private func print(_ report: SyncReport, elapsed: Duration, context: CommandContext) {
            let metadata = report.metadata
            let clients = metadata.clientIds.count == 1 ? "1 client" : "\(metadata.clientIds.count) clients"
            context.print(
                "Synced \(clients), \(metadata.presentations) presentation(s): \(metadata.added.count) new, "
                    + "\(metadata.updated.count) updated, \(metadata.removed.count) removed, \(metadata.unchanged) unchanged"
                    + "\(metadata.failures.isEmpty ? "" : ", \(metadata.failures.count) failed") in \(elapsed.shortDescription)."
            )
            if !report.pendingContent.isEmpty {
                context.print("\(report.pendingContent.count) presentation(s) have content to download or update.")
            }
        }
    }
}

/// The `--json` line of `sclm sync`.
struct SyncResultEvent: Encodable {
    let event = "result"
    let ok: Bool
    let metadata: MetadataReport
    let pendingContent: [ContentCandidate]
    let seconds: Double

    init(report: SyncReport, seconds: Duration) {
        ok = report.isSuccess
        metadata = report.metadata
        pendingContent = report.pendingContent
        self.seconds = seconds.inSeconds
    }
}
