import Foundation
import SCLMCore
import Synchronization

/// A clock that only moves when a test moves it, so durations are exact.
package final class ManualClock: WallClock {
    private let instant: Mutex<Date>

    /// Creates a clock at `start` (default: 2026-01-01T00:00:00Z).
    package init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        instant = Mutex(start)
    }

    package var now: Date { instant.withLock { $0 } }

    /// Moves the clock forward by `seconds`.
    package func advance(by seconds: TimeInterval) {
        instant.withLock { $0 += seconds }
    }
}
