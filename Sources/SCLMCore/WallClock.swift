import Foundation

/// The source of the current time, injected so tests and `--now` can fix the instant.
public protocol WallClock: Sendable {
    /// The current instant.
    var now: Date { get }
}

/// The real system clock.
public struct SystemClock: WallClock {
    public init() {}
    public var now: Date { Date() }
}

/// A clock that always reports the same instant.
public struct FixedClock: WallClock {
    public let now: Date

    /// Creates a clock fixed at `now`.
    public init(_ now: Date) { self.now = now }

    /// Creates a clock fixed at `milliseconds` since the Unix epoch.
    public init(epochMilliseconds milliseconds: Int64) {
        self.now = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
