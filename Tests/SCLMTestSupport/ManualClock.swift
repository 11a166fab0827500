import Foundation
import SCLMCore
import Synchronization

/// A clock that only moves when a test moves it, so durations are exact; its wall time can also be set back
/// alone, as an operator or NTP does, while its monotonic ``uptime`` goes on.
package final class ManualClock: WallClock {
    private let reading: Mutex<(wall: Date, uptime: Duration)>

    /// Creates a clock at `start` (default: 2026-01-01T00:00:00Z).
    package init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        reading = Mutex((start, .zero))
    }

    package var now: Date { reading.withLock { $0.wall } }

    package var uptime: Duration { reading.withLock { $0.uptime } }

    /// Moves the clock forward by `seconds`.
    package func advance(by seconds: TimeInterval) {
        reading.withLock { $0 = ($0.wall + seconds, $0.uptime + .seconds(seconds)) }
    }

    /// Sets the wall time back by `seconds`; the monotonic time does not move.
    package func setBack(by seconds: TimeInterval) {
        reading.withLock { $0.wall -= seconds }
    }
}
