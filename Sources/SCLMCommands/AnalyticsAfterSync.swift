import SCLMAnalytics
import SCLMCore

/// The analytics flush at the end of `sclm sync` (docs/analytics.md).
///
/// It runs only when StoryIoT is configured and never turns a sync into a failure: undelivered rows stay
/// queued and are reported as a warning (text) or in an `analytics` event after `result` (`--json`).
enum AnalyticsAfterSync {
    /// Publishes pending analytics and reports the outcome.
    ///
    /// - Throws: only `CancellationError`.
    static func flush(services: APIServices, context: CommandContext) async throws {
        let started = ContinuousClock.now
        let outcome: FlushOutcome
        do {
            guard let publisher = try await services.analyticsPublisher(context: context) else {
                context.logger.debug("StoryIoT is not configured (iot.*): analytics stay queued")
                return
            }
            outcome = FlushOutcome(
                report: try await publisher.flush(), elapsed: ContinuousClock.now - started)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            context.logger.warning("analytics were not published: \(error.userMessage); they stay queued")
            if context.wantsJSON { context.printJSON(SyncAnalyticsEvent(outcome: nil, error: error.userMessage)) }
            return
        }
        if context.wantsJSON {
            context.printJSON(SyncAnalyticsEvent(outcome: outcome, error: nil))
        } else {
            outcome.logFailures(to: context.logger, level: .warning)
            context.print(outcome.text)
        }
    }
}

/// The `analytics` event of `sclm sync --json`: the flush outcome, or the error that prevented it.
struct SyncAnalyticsEvent: Encodable {
    let outcome: FlushOutcome?
    let error: String?

    private enum CodingKeys: String, CodingKey { case event, ok, error }

    func encode(to encoder: any Encoder) throws {
        try outcome?.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("analytics", forKey: .event)
        if outcome == nil {
            try container.encode(false, forKey: .ok)
            try container.encode(error, forKey: .error)
        }
    }
}
