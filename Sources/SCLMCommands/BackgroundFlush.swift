import SCLMAnalytics
import SCLMCore

/// Analytics flushes in the background while `sclm bridge` runs (`bridge.flushInterval`), so a host
/// that runs for hours publishes the sessions it completes without waiting for `sclm events flush`.
///
/// Outcomes go to the log only (stdout carries protocol lines); failures are warnings and the rows stay
/// queued. Cancelling the task stops a flush in progress; rows not yet acknowledged stay pending.
enum BackgroundFlush {
    /// Starts flushing every `bridge.flushInterval` seconds over `services`' API transport, when that is
    /// above 0 and StoryIoT is configured.
    ///
    /// - Returns: the task to cancel when the bridge ends, or `nil` when nothing was started.
    /// - Throws: a usage error for a malformed `bridge.flushInterval` or partial `iot.*` settings.
    static func start(services: Services) async throws -> Task<Void, Never>? {
        let seconds = try services.configuration.required(.bridgeFlushInterval)
        guard seconds > 0 else { return nil }
        let context = services.context
        guard let publisher = try await services.api().analyticsPublisher(context: context) else {
            context.logger.warning("bridge.flushInterval is set but StoryIoT (iot.*) is not: analytics stay queued")
            return nil
        }
        let logger = context.logger
        return Task {
            while (try? await Task.sleep(for: .seconds(seconds))) != nil {
                do {
                    let report = try await publisher.flush()
                    logger.debug("analytics: published \(report.published), \(report.pending) pending")
                    if !report.isSuccess {
                        let reason = report.stopReason ?? report.failures.first?.error ?? "unknown"
                        logger.warning(
                            "analytics: \(report.parked) parked, \(report.failed) failed (\(reason)); they stay queued")
                    }
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("analytics were not published: \(error.userMessage); they stay queued")
                }
            }
        }
    }
}
