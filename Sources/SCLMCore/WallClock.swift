import Foundation

/// The source of the current time, injected so tests and `--now` can fix the instant.
package protocol WallClock: Sendable {
    /// The current instant.
    var now: Date { get }
    /// Monotonic time since an arbitrary origin: never goes back when the wall clock is set back, so
    /// durations are measured with it (default: the process's `ContinuousClock`).
    var uptime: Duration { get }
}

extension WallClock {
    package var uptime: Duration { ContinuousClock.now - processOrigin }
}

/// The origin of the default ``WallClock/uptime``.
private let processOrigin = ContinuousClock.now

/// The real system clock.
package struct SystemClock: WallClock {
    package init() {}
    package var now: Date { Date() }
}

/// A clock that always reports the same instant.
package struct FixedClock: WallClock {
    package let now: Date

    /// Creates a clock fixed at `now`.
    package init(_ now: Date) { self.now = now }

    /// Creates a clock fixed at `milliseconds` since the Unix epoch.
    package init(epochMilliseconds milliseconds: Int64) {
        self.now = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
