import SCLMCore

/// The bounds of one bridge host (docs/bridge.md), reported by `bridge.describe`.
public struct BridgeLimits: Sendable, Equatable {
    /// The longest accepted line in bytes; longer lines are skipped and answered 413.
    public var maximumLineBytes = 16 * 1024 * 1024
    /// Requests (and notifications) running at once; more are answered 429.
    public var maximumInFlight = 256
    /// Items in one batch (array) line.
    public var maximumBatchItems = 100
    /// The longest accepted GUID in bytes.
    public var maximumGUIDBytes = 128
    /// The longest accepted command name in bytes.
    public var maximumCommandBytes = 128
    /// The timeout of a command that declares none.
    public var defaultTimeout: Duration = .seconds(30)
    /// How long in-flight work may finish after stdin ends before it is answered 503.
    public var shutdownGrace: Duration = .seconds(5)

    /// The defaults of docs/bridge.md.
    public init() {}

    /// The limits as `bridge.describe` reports them.
    public var json: JSONValue {
        [
            "maxLineBytes": .int(Int64(maximumLineBytes)),
            "maxInFlight": .int(Int64(maximumInFlight)),
            "maxBatchItems": .int(Int64(maximumBatchItems)),
            "maxGUIDBytes": .int(Int64(maximumGUIDBytes)),
            "maxCommandBytes": .int(Int64(maximumCommandBytes)),
            "timeoutMs": .int(defaultTimeout.milliseconds),
            "shutdownGraceMs": .int(shutdownGrace.milliseconds),
        ]
    }
}

extension Duration {
    /// The duration in whole milliseconds.
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
