import SCLMCore

/// The bounds of one bridge host (docs/bridge.md), reported by `bridge.describe`.
package struct BridgeLimits: Sendable, Equatable {
    /// The longest accepted line in bytes; longer lines are skipped and answered 413.
    package var maximumLineBytes = 16 * 1024 * 1024
    /// Requests (and notifications) running at once; more are answered 429.
    package var maximumInFlight = 256
    /// Items in one batch (array) line.
    package var maximumBatchItems = 100
    /// The longest accepted GUID in bytes.
    package var maximumGUIDBytes = 128
    /// The longest accepted command name in bytes.
    package var maximumCommandBytes = 128
    /// The timeout of a command that declares none.
    package var defaultTimeout: Duration = .seconds(30)
    /// How long in-flight work may finish after stdin ends before it is answered 503.
    package var shutdownGrace: Duration = .seconds(5)

    /// The defaults of docs/bridge.md.
    package init() {}

    /// The limits as `bridge.describe` reports them.
    package var json: JSONValue {
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
