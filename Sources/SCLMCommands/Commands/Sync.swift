import Foundation
import SCLMArchive
import SCLMAuth
import SCLMCore
import SCLMHTTP
import SCLMStore
import SCLMSync

extension SCLM {
    /// `sclm sync`: bring the local catalog and the installed content in step with the server.
    package struct Sync: Command {
        package static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Synchronize clients and presentations and install their content from the StoryCLM server.",
            discussion: """
                Metadata: fetches the client list, then only the presentations that are new or whose revision
                moved, with their slides, media-file records and package record, and stores everything in one
                transaction. Presentations the server no longer lists are removed with their content.

                Content: every selected presentation whose installed revision is not the server's (and that
                the server does not mark skip) is downloaded into the cache (resuming an interrupted
                download), checked, unpacked under the package policy beside its folder and swapped in with
                rename(2); media files the package lacks are downloaded into sources/mediafiles/. A
                presentation another sclm process is working on is reported busy and left to it. With
                sync.blobProxy set, packages and media files come through that site cache (docs/fleet.md).

                On a terminal a live display shows each transfer and the total; --json prints one JSON event
                per line instead. Ctrl-C stops within a second, keeps partial downloads for the next run and
                exits 130. A failed presentation keeps its previous revision; the others go on; the summary
                lists each failure and the exit status is 1. Needs a login (`sclm login`).

                A presentation whose unpack an earlier run left unfinished (sclm was killed or crashed while
                unpacking it) is installed after all the others; when the same revision was interrupted that
                way three times in a row, it is given up (its cached zip dropped, the failure shown by status
                and list) until the server publishes a new revision or --retry asks for it again.

                When StoryIoT is configured (iot.*), pending analytics are published at the end, as by
                `sclm events flush`; a failure there is a warning and never changes the exit status.

                With --skip-unconfigured, a home whose auth.clientId is not set yet ends the run with one line and
                exit 0 instead of a usage error: the packaged sclm-sync.timer runs before the admin has set
                anything up, and that is not a failure (docs/fleet.md).
                """,
            options: [
                clientOption, presentationOption, metadataOnlyFlag, retryFlag, fullFlag, jobsOption,
                skipUnconfiguredFlag,
            ])

        /// `--client id|name`, repeatable.
        static let clientOption: CommandOption<[String]> = .texts(
            "--client", value: "id|name", help: "Sync only this client (repeatable).")
        /// `--presentation id`, repeatable.
        static let presentationOption: CommandOption<[Int64]> = .repeated(
            "--presentation", value: "id", help: "Install content only for this presentation (repeatable)."
        ) { text in
            guard let id = Int64(text) else {
                throw ValidationError("--presentation needs a presentation id (a number), got '\(text)'")
            }
            return id
        }
        /// `--metadata-only`.
        static let metadataOnlyFlag: CommandOption<Bool> = .flag(
            "--metadata-only", help: "Sync metadata only, no content.")
        /// `--retry`.
        static let retryFlag: CommandOption<Bool> = .flag(
            "--retry", help: "Try again the revisions given up after sclm was stopped while unpacking them three times."
        )
        /// `--full`.
        static let fullFlag: CommandOption<Bool> = .flag(
            "--full", help: "Download whole packages, never a delta update of the installed revision.")
        /// `--jobs n`, within the limits of `sync.jobs`.
        static let jobsOption: CommandOption<Int?> = .setting(
            .syncJobs, "--jobs", value: "n", help: "Requests and transfers in flight at once (default: sync.jobs, 4).")

        /// `--skip-unconfigured`.
        static let skipUnconfiguredFlag: CommandOption<Bool> = .flag(
            "--skip-unconfigured", help: "Exit 0 with one line when auth.clientId is not set yet (the packaged timer).")

        let clients: [String]
        let presentations: [Int64]
        let metadataOnly: Bool
        let retry: Bool
        let full: Bool
        let jobs: Int?
        let skipUnconfigured: Bool

        package init(parsing arguments: ParsedArguments) throws {
            clients = try arguments.read(Self.clientOption)
            presentations = try arguments.read(Self.presentationOption)
            metadataOnly = try arguments.read(Self.metadataOnlyFlag)
            retry = try arguments.read(Self.retryFlag)
            full = try arguments.read(Self.fullFlag)
            jobs = try arguments.read(Self.jobsOption)
            skipUnconfigured = try arguments.read(Self.skipUnconfiguredFlag)
        }

        package func validate() throws {
            if metadataOnly, !presentations.isEmpty {
                throw ValidationError("--presentation selects content to install; it cannot go with --metadata-only")
            }
            if metadataOnly, retry {
                throw ValidationError("--retry tries content again; it cannot go with --metadata-only")
            }
        }

        package func run(_ context: CommandContext) async throws {
            let printer = SyncProgressPrinter.make(for: context)
            let logger = printer.style == .live ? context.logger.redirected(to: printer.printAbove) : context.logger
            if printer.style == .live { context.setNoticeWriter(printer.printAbove) }
            defer { context.setNoticeWriter(nil) }
            try await context.withServices(logger: logger) { services in
                if skipUnconfigured, (try services.configuration.value(.clientId) ?? "").isEmpty {
                    printer.finish()
                    context.print(
                        "sclm is not configured yet (auth.clientId is not set): nothing to sync")
                    return
                }
                // Settings first: a bad sync.jobs is a usage error even before a login.
                let width = try jobs ?? services.configuration.required(.syncJobs)
                try await sync(
                    with: try services.api(), width: width, printer: printer, logger: logger, context: context)
            }
        }

        private func sync(
            with services: APIServices, width: Int, printer: SyncProgressPrinter, logger: Logger,
            context: CommandContext
        ) async throws {
            let manager = SyncManager(
                service: try services.syncService(clock: context.clock), store: services.store, home: context.home,
                transport: services.transport,
                installer: ArchivePackageInstaller(policy: try APIServices.packagePolicy(in: services.configuration)),
                retrier: services.retrier,
                clock: context.clock, logger: logger, blobProxy: try APIServices.blobProxy(in: services.configuration))
            let options = SyncOptions(
                clients: ClientSelection(clients), presentations: presentations, jobs: width,
                metadataOnly: metadataOnly,
                retry: retry, full: full)
            let started = ContinuousClock.now
            let startedAt = context.clock.now
            let record: @Sendable (SyncReport?) async -> Void = { report in
                await SyncMetrics.record(
                    after: report, startedAt: startedAt, store: services.store, configuration: services.configuration,
                    logger: logger)
            }
            let report: SyncReport
            do {
                report = try await manager.sync(options, events: printer.handle)
            } catch is CancellationError {
                printer.finish()
                await withCancellationShield { await record(nil) }
                SyncSummary.printCancelled(
                    tally: printer.tally, elapsed: ContinuousClock.now - started, context: context)
                throw ExitCode(ErrorCategory.cancelled.exitCode)
            } catch {
                printer.finish()
                await record(nil)
                throw error
            }
            printer.finish()
            await record(report)
            for failure in report.metadata.failures { context.logger.error(failure.message) }
            SyncSummary(report: report, names: printer.names, elapsed: ContinuousClock.now - started).print(to: context)
            try await AnalyticsAfterSync.flush(services: services, context: context)
            if !report.isSuccess { throw ExitCode.failure }
        }
    }
}
