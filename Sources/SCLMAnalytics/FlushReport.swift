import SCLMStore

/// What one flush did and what is left.
package struct FlushReport: Sendable, Equatable, Encodable {
    /// One row that was not delivered in this run.
    package struct Failure: Sendable, Equatable, Encodable {
        /// Session, slide view or custom event.
        package var kind: OutboxKind
        /// The row's id.
        package var id: String
        /// Why: one sentence that says what to do.
        package var error: String
        /// Whether the row was parked (it waits for `--retry-parked`) or stays pending.
        package var parked: Bool
    }

    /// Rows delivered in this run.
    package internal(set) var published = 0
    /// Rows parked in this run.
    package internal(set) var parked = 0
    /// Rows that failed in this run and stay pending.
    package internal(set) var failed = 0
    /// The rows parked or failed in this run.
    package internal(set) var failures: [Failure] = []
    /// Why the run stopped before trying every row (StoryIoT unreachable or failing), if it did.
    package internal(set) var stopReason: String?
    /// Slide views of published sessions deleted after the run, past the retention (`events.retention`).
    package internal(set) var pruned = 0
    /// The outbox after the run.
    package internal(set) var remaining = OutboxSummary(counts: [:])

    /// Rows still queued that will be published without intervention (ready or waiting).
    package var pending: Int { remaining[.pending] + remaining[.waiting] }
    /// Rows waiting for their session to complete.
    package var waiting: Int { remaining[.waiting] }
    /// Rows parked now, from this run or earlier ones.
    package var parkedTotal: Int { remaining[.parked] }
    /// Whether every row tried in this run was delivered.
    package var isSuccess: Bool { parked == 0 && failed == 0 && stopReason == nil }

    private enum CodingKeys: String, CodingKey {
        case published, parked, failed, pending, waiting, parkedTotal, pruned, failures, stopReason
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(published, forKey: .published)
        try container.encode(parked, forKey: .parked)
        try container.encode(failed, forKey: .failed)
        try container.encode(pending, forKey: .pending)
        try container.encode(waiting, forKey: .waiting)
        try container.encode(parkedTotal, forKey: .parkedTotal)
        try container.encode(pruned, forKey: .pruned)
        try container.encode(failures, forKey: .failures)
        try container.encode(stopReason, forKey: .stopReason)
    }
}
