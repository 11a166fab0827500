import Foundation
import SCLMBridgeModules
import SCLMBrowser
import SCLMCore

/// The player's side of systemd's watchdog (`WatchdogSec=` of `sclm-play.service`): `WATCHDOG=1` every half
/// interval, but only while the page answers a round trip (a trivial `Runtime.evaluate`) and recording is
/// not stuck, so that a frozen page gets the player restarted.
///
/// Recording is stuck when changes wait and none has been settled for a whole interval although the database
/// is not locked nor the disk full (a stall the ``SessionRecorder`` waits out by itself, which a restart
/// would not cure).
struct PlayerWatchdog: Sendable {
    /// The unit's `WatchdogSec=`.
    let interval: Duration
    let logger: Logger

    /// A watchdog for this process, or `nil` when systemd asked for none (`WATCHDOG_USEC`).
    static func current(logger: Logger) -> PlayerWatchdog? {
        ServiceManager.watchdogInterval.map { PlayerWatchdog(interval: $0, logger: logger) }
    }

    /// Tells systemd the player is alive every half interval while `page` answers and `recorder` moves,
    /// until cancelled; says once in the log when it stops telling, and once when it tells again.
    func keepAlive(page: BrowserPage, recorder: SessionRecorder) async {
        var progress = RecordingProgress(settled: Self.settled(recorder.status), at: .now)
        var isWithholding = false
        while !Task.isCancelled {
            let next = ContinuousClock.now + interval / 2
            let answers = (try? await page.isResponsive(within: interval / 4)) ?? false
            let isStuck = progress.isStuck(recorder.status, now: .now, after: interval)
            if answers && !isStuck {
                ServiceManager.notify("WATCHDOG=1")
                if isWithholding { logger.info("the player is responsive again; telling the watchdog") }
                isWithholding = false
            } else if !isWithholding {
                logger.error(
                    (answers ? "recording is stuck" : "the page does not answer")
                        + "; withholding WATCHDOG=1 so that systemd restarts the player")
                isWithholding = true
            }
            try? await Task.sleep(until: next)
        }
    }

    /// Changes the recorder is done with: written, refused or dropped.
    private static func settled(_ status: SessionRecorder.Status) -> Int {
        status.written + status.refused + status.dropped
    }

    /// When the recorder last settled a change.
    private struct RecordingProgress {
        var settled: Int
        var at: ContinuousClock.Instant

        /// Whether changes wait and none was settled for `limit`, the database not being locked nor the disk
        /// full; notes any progress.
        mutating func isStuck(_ status: SessionRecorder.Status, now: ContinuousClock.Instant, after limit: Duration)
            -> Bool
        {
            let settledNow = PlayerWatchdog.settled(status)
            if settledNow != settled || status.backlog == 0 || status.isBehind {
                (settled, at) = (settledNow, now)
                return false
            }
            return now - at >= limit
        }
    }
}
