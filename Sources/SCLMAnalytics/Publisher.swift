import Foundation
import SCLMCore
import SCLMHTTP

/// Delivers the outbox to StoryIoT: at least once, never losing a row.
///
/// A flush publishes sessions, then slide views, then custom events, oldest first, with a fixed
/// number of publishes in flight. Each row is marked in its own transaction as soon as StoryIoT
/// acknowledges it, so a crash or `kill -9` loses nothing and repeats at most the publishes that were
/// in flight; StoryIoT recognises those by their entity id.
///
/// Per row: a timeout, a broken connection, 408, 429 or 5xx is retried with exponential backoff and
/// jitter (publishing is idempotent by entity id); when the retries run out the row stays pending and
/// the flush starts no further rows, since StoryIoT is evidently unavailable. Any other 4xx parks the
/// row with the reason (a bad signature is a 401 for every row, so every row tried is parked until
/// `retryParked`). A row that cannot become a message (over 256 KB, unreadable date) is parked too.
///
/// Every flush ends by deleting the slide views of sessions published longer than the retention ago
/// (`events.retention`), so an unattended kiosk's database stays bounded.
package struct Publisher: Sendable {
    /// Rows read from the database at a time.
    static let pageSize = 256

    private let outbox: Outbox
    private let client: StoryIoTClient
    private let device: DeviceFacts
    private let retrier: Retrier
    private let concurrency: Int
    private let retention: Duration?
    private let clock: any WallClock
    private let logger: Logger?

    /// Creates a publisher.
    ///
    /// - Parameters:
    ///   - outbox: the rows to publish.
    ///   - client: the StoryIoT client.
    ///   - device: the device facts sent with each message.
    ///   - retrier: the backoff of one row's attempts (`http.retries`).
    ///   - concurrency: publishes in flight at once.
    ///   - retention: how long the slide views of a published session are kept (`nil`: for ever).
    ///   - clock: the clock of timestamps and of the retention.
    ///   - logger: where failures are logged.
    package init(
        outbox: Outbox, client: StoryIoTClient, device: DeviceFacts, retrier: Retrier, concurrency: Int = 4,
        retention: Duration? = nil, clock: any WallClock = SystemClock(), logger: Logger? = nil
    ) {
        self.outbox = outbox
        self.client = client
        self.device = device
        self.retrier = retrier
        self.concurrency = max(1, concurrency)
        self.retention = retention
        self.clock = clock
        self.logger = logger
    }

    /// Publishes every pending row (and parked ones with `retryParked`).
    ///
    /// - Returns: what was delivered, parked or left, and the outbox afterwards.
    /// - Throws: ``StoreError`` when the database fails, `CancellationError` when cancelled (rows not yet
    ///   acknowledged stay pending).
    package func flush(retryParked: Bool = false) async throws -> FlushReport {
        var report = FlushReport()
        try await withThrowingTaskGroup(of: Outcome.self) { group in
            var inFlight = 0
            rows: for kind in OutboxKind.allCases {
                var cursor: Int64 = 0
                while report.stopReason == nil {
                    let page = try await outbox.entries(
                        of: kind, after: cursor, limit: Self.pageSize, includeParked: retryParked)
                    guard let last = page.last else { break }
                    cursor = last.rowid
                    for entry in page {
                        if inFlight == concurrency, let outcome = try await group.next() {
                            inFlight -= 1
                            record(outcome, in: &report)
                        }
                        guard report.stopReason == nil else { break rows }
                        group.addTask { try await publish(entry) }
                        inFlight += 1
                    }
                }
            }
            for try await outcome in group { record(outcome, in: &report) }
        }
        if let retention {
            report.pruned = try await outbox.pruneSlideViews(publishedBefore: clock.now - retention.inSeconds)
        }
        report.remaining = try await outbox.summary()
        return report
    }

    /// What happened to one row.
    private enum Outcome: Sendable {
        case published
        case changed
        case parked(FlushReport.Failure)
        case failed(FlushReport.Failure)
    }

    private func record(_ outcome: Outcome, in report: inout FlushReport) {
        switch outcome {
        case .published:
            report.published += 1
        case .changed:
            break
        case .parked(let failure):
            report.parked += 1
            report.failures.append(failure)
        case .failed(let failure):
            report.failed += 1
            report.failures.append(failure)
            if report.stopReason == nil { report.stopReason = failure.error }
        }
    }

    private func publish(_ entry: OutboxEntry) async throws -> Outcome {
        let message: StoryIoTMessage
        do {
            message = try StoryIoTMessage(entry: entry, device: device)
        } catch let error as MessageError {
            return try await park(entry, attempts: 0, reason: "the \(entry.kind) cannot be published: \(error.reason)")
        }
        var attempts = 0
        do {
            try await retrier.run(idempotent: true, onRetry: logRetry(of: entry)) {
                attempts += 1
                try await client.publish(message)
            }
        } catch let error as HTTPError where Self.isRefusal(error) {
            return try await park(entry, attempts: attempts, reason: Self.refusalReason(error))
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            try await outbox.recordFailedAttempts(entry, attempts: attempts)
            return .failed(.init(kind: entry.kind, id: entry.id, error: error.userMessage, parked: false))
        }
        guard try await outbox.markPublished(entry, attempts: attempts, at: clock.now) else {
            logger?.debug("\(entry.kind) \(entry.id) changed while it was published; it is published again next time")
            return .changed
        }
        return .published
    }

    private func park(_ entry: OutboxEntry, attempts: Int, reason: String) async throws -> Outcome {
        try await outbox.park(entry, attempts: attempts, reason: reason)
        logger?.debug("parked \(entry.kind) \(entry.id): \(reason)")
        return .parked(.init(kind: entry.kind, id: entry.id, error: reason, parked: true))
    }

    private func logRetry(of entry: OutboxEntry) -> (any Error, Int, Duration) -> Void {
        let retries = retrier.policy.maxAttempts - 1
        return { [logger] error, attempt, pause in
            let what = (error as? HTTPError)?.summary ?? error.userMessage
            logger?.debug(
                "\(entry.kind) \(entry.id): \(what); retry \(attempt) of \(retries) in \(pause.shortDescription)")
        }
    }

    /// A 4xx other than 408 and 429: StoryIoT will refuse this request however often it is repeated.
    static func isRefusal(_ error: HTTPError) -> Bool {
        guard error.code == .status, let status = error.status else { return false }
        return (400..<500).contains(status) && status != 408 && status != 429
    }

    /// The parking reason for a refusal, saying what to fix.
    static func refusalReason(_ error: HTTPError) -> String {
        let status = error.status ?? 0
        let because = error.detail.map { ", \($0)" } ?? ""
        let retry = "then run `sclm events flush --retry-parked`"
        switch status {
        case 401, 403:
            return "StoryIoT refused the request signature (HTTP \(status)\(because)); check iot.key, iot.secret "
                + "and this machine's clock, \(retry)"
        case 404:
            return "StoryIoT does not know the hub (HTTP 404\(because)); check iot.endpoint and iot.hub, \(retry)"
        default:
            return "StoryIoT rejected the message (HTTP \(status)\(because)); fix the cause, \(retry)"
        }
    }
}
