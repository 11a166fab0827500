import Foundation
import SCLMAnalytics
import SCLMCore
import SCLMStore

extension SCLM {
    /// `sclm events`: the analytics outbox (sessions, slide views, custom events) and its delivery to StoryIoT.
    package struct Events: Command {
        package static let configuration = CommandConfiguration(
            commandName: "events",
            abstract: "List analytics rows and publish them to StoryIoT.",
            discussion: """
                Sessions, slide views and custom events recorded by `sclm bridge` (and OSAM events) stay in
                the database until StoryIoT acknowledges them. A completed session is published with its
                slide views and custom events; a test session never is; an open or unfinished one waits
                until it completes. Publishing needs iot.endpoint, iot.hub, iot.key and iot.secret
                (`sclm config set iot.secret -` reads the secret from stdin). `sclm sync` also publishes
                at its end when they are set.
                """,
            subcommands: [List.self, Flush.self]
        )

        package init(parsing arguments: ParsedArguments) throws {}
    }
}

extension SCLM.Events {
    /// `sclm events list`.
    package struct List: Command {
        package static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List analytics rows with their delivery state.",
            discussion: """
                States: pending (published by the next flush), waiting (its session is not complete yet),
                test (a test session: never published), parked (StoryIoT refused it; see the reason and
                `sclm events flush --retry-parked`), published.
                """,
            options: [pendingFlag])

        /// `--pending`.
        static let pendingFlag: CommandOption<Bool> = .flag(
            "--pending", help: "Only rows not yet published: pending, waiting and parked.")

        let unpublishedOnly: Bool

        package init(parsing arguments: ParsedArguments) throws {
            unpublishedOnly = try arguments.read(Self.pendingFlag)
        }

        package func run(_ context: CommandContext) async throws {
            let outbox = Outbox(store: try context.readingStore())
            let listing = EventListing(
                events: try await outbox.items(unpublishedOnly: unpublishedOnly), summary: try await outbox.summary())
            context.emit(listing)
        }
    }

    /// `sclm events flush`.
    package struct Flush: Command {
        package static let configuration = CommandConfiguration(
            commandName: "flush",
            abstract: "Publish pending analytics rows to StoryIoT.",
            discussion: """
                Publishes every pending row, at least once: a row is marked published only after StoryIoT
                acknowledged it, so an interrupted flush loses nothing and the next one sends the rest.
                Timeouts, 408, 429 and 5xx answers are retried with backoff (http.retries); a row StoryIoT
                refuses for good (another 4xx, e.g. 401 for a wrong iot.secret) is parked with the reason
                and skipped until --retry-parked. When a row still fails after its retries, no further
                rows are started (StoryIoT is unavailable) and they all stay queued. Exit status 1 when
                a row failed or was parked in this run, 64 when StoryIoT is not configured.
                """,
            options: [retryParkedFlag])

        /// `--retry-parked`.
        static let retryParkedFlag: CommandOption<Bool> = .flag(
            "--retry-parked", help: "Also publish parked rows again (after fixing the cause).")

        let retryParked: Bool

        package init(parsing arguments: ParsedArguments) throws {
            retryParked = try arguments.read(Self.retryParkedFlag)
        }

        package func run(_ context: CommandContext) async throws {
            try await context.withServices { try await flush(with: try $0.api(), context: context) }
        }

        private func flush(with services: APIServices, context: CommandContext) async throws {
            guard let publisher = try await services.analyticsPublisher(context: context) else {
                let queued = try await Outbox(store: services.store).summary()
                throw AnalyticsError(
                    .notConfigured,
                    "StoryIoT is not configured, so nothing can be published (\(queued.unpublished) row(s) stay queued); "
                        + "set iot.endpoint, iot.hub, iot.key and iot.secret with `sclm config set`")
            }
            let started = ContinuousClock.now
            let report = try await publisher.flush(retryParked: retryParked)
            let outcome = FlushOutcome(report: report, elapsed: ContinuousClock.now - started)
            if !context.wantsJSON { outcome.logFailures(to: context.logger, level: .error) }
            context.emit(outcome)
            if !report.isSuccess { throw ExitCode.failure }
        }
    }
}

extension OutboxSummary {
    /// Rows not yet delivered and not test rows: pending, waiting and parked.
    var unpublished: Int { self[.pending] + self[.waiting] + self[.parked] }

    /// `3 pending, 1 waiting, …` over the states that have rows.
    var text: String {
        OutboxState.allCases.compactMap { state in self[state] > 0 ? "\(self[state]) \(state.rawValue)" : nil }
            .joined(separator: ", ")
    }
}

/// The output of `sclm events list`.
struct EventListing: CommandOutput {
    let events: [OutboxItem]
    let summary: OutboxSummary

    private enum CodingKeys: String, CodingKey { case events, counts }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(events, forKey: .events)
        let counts = Dictionary(uniqueKeysWithValues: OutboxState.allCases.map { ($0.rawValue, summary[$0]) })
        try container.encode(counts, forKey: .counts)
    }

    var text: TerminalText {
        guard !events.isEmpty else {
            return summary.counts.isEmpty
                ? "No analytics rows." : "No unpublished analytics rows (all rows: \(summary.text))."
        }
        let rows = events.map { item in
            [item.kind.rawValue, item.id, item.created, item.state.rawValue, Self.detail(of: item)]
        }
        return TextTable.columns(header: ["KIND", "ID", "CREATED", "STATE", "DETAIL"], rows: rows)
            + "\n\(events.count) row(s); all rows: \(summary.text)."
    }

    private static func detail(of item: OutboxItem) -> String {
        switch item.state {
        case .published: return item.publishedAt.map { "at \($0)" } ?? ""
        case .parked: return item.error ?? ""
        case .waiting: return "session \(item.sessionId) not complete"
        case .test: return "test session: never published"
        case .pending: return item.attempts > 0 ? "\(item.attempts) failed attempt(s)" : ""
        }
    }
}

/// The output of `sclm events flush` (and the `analytics` event of `sclm sync --json`).
struct FlushOutcome: CommandOutput {
    let report: FlushReport
    let seconds: Double

    init(report: FlushReport, elapsed: Duration) {
        self.report = report
        seconds = elapsed.inSeconds
    }

    private enum CodingKeys: String, CodingKey { case ok, seconds }

    func encode(to encoder: any Encoder) throws {
        try report.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(report.isSuccess, forKey: .ok)
        try container.encode(seconds, forKey: .seconds)
    }

    var text: TerminalText {
        var parts = ["published \(report.published)"]
        if report.parked > 0 { parts.append("parked \(report.parked)") }
        if report.failed > 0 { parts.append("failed \(report.failed)") }
        var pending = "\(report.pending) pending"
        if report.waiting > 0 { pending += " (\(report.waiting) waiting for their session to complete)" }
        parts.append(pending)
        var lines: [TerminalText] = ["Analytics: \(parts.joined(separator: ", "))."]
        if report.parkedTotal > 0 {
            lines.append(
                "\(report.parkedTotal) parked row(s) wait for `sclm events flush --retry-parked` once the cause is fixed."
            )
        }
        return lines.joined(separator: "\n")
    }

    /// Logs each distinct failure once at `level`, with how many rows it hit.
    func logFailures(to logger: Logger, level: Logger.Level) {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for failure in report.failures {
            if counts[failure.error] == nil { order.append(failure.error) }
            counts[failure.error, default: 0] += 1
        }
        for error in order {
            let rows = counts[error] ?? 0
            logger.log(level, rows == 1 ? error : "\(rows) rows: \(error)")
        }
        if let reason = report.stopReason {
            logger.warning("stopped early because StoryIoT kept failing (\(reason)); the rest stays queued")
        }
    }
}
