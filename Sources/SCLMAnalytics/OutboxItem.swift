import SCLMStore

/// Where a row stands in the outbox (the store computes it with the rows).
package typealias OutboxState = PublishState

/// One analytics row as `sclm events list` shows it.
package struct OutboxItem: Sendable, Encodable, Equatable {
    /// Session, slide view or custom event.
    package var kind: OutboxKind
    /// The row's stable id (the StoryIoT entity id).
    package var id: String
    /// The session it belongs to.
    package var sessionId: String
    /// The presentation it belongs to.
    package var presentationId: Int64
    /// When it happened (ISO-8601 UTC).
    package var created: String
    /// Where it stands.
    package var state: OutboxState
    /// Publish attempts so far.
    package var attempts: Int64
    /// Why it is parked.
    package var error: String?
    /// When it was delivered (ISO-8601 UTC).
    package var publishedAt: String?

    /// The item of a row the store lists.
    init(_ standing: AnalyticsRowStanding) {
        kind = OutboxKind(standing.table)
        id = standing.id
        sessionId = standing.sessionId
        presentationId = standing.presentationId
        created = standing.created
        state = standing.state
        attempts = standing.attempts
        error = standing.error
        publishedAt = standing.publishedAt
    }

    private enum CodingKeys: String, CodingKey {
        case kind, id, sessionId, presentationId, created, state, attempts, error, publishedAt
    }

    /// Encodes every key, `null` included, so the JSON shape is the same for every row.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(id, forKey: .id)
        try container.encode(sessionId, forKey: .sessionId)
        try container.encode(presentationId, forKey: .presentationId)
        try container.encode(created, forKey: .created)
        try container.encode(state, forKey: .state)
        try container.encode(attempts, forKey: .attempts)
        try container.encode(error, forKey: .error)
        try container.encode(publishedAt, forKey: .publishedAt)
    }
}

/// How many rows are in each state.
package struct OutboxSummary: Sendable, Equatable {
    /// Rows per state (states without rows are absent).
    package var counts: [OutboxState: Int]

    /// Rows in `state`.
    package subscript(state: OutboxState) -> Int { counts[state] ?? 0 }
}
