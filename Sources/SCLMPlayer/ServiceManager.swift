import CSystemd

/// systemd's service manager, through libsystemd (sd_notify(3)): what a `Type=notify` unit's main process
/// tells it. Outside such a unit (no `NOTIFY_SOCKET`) nothing is sent.
enum ServiceManager {
    /// Tells systemd `state` (`READY=1`, `WATCHDOG=1`, …); nothing without `NOTIFY_SOCKET`.
    static func notify(_ state: String) {
        _ = sd_notify(0, state)
    }

    /// The watchdog interval the unit sets (`WatchdogSec=`, passed as `WATCHDOG_USEC` for this process), or
    /// `nil` without one.
    static var watchdogInterval: Duration? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return .microseconds(microseconds)
    }
}
