/// The three analytics tables the outbox publishes from, with the columns that identify and version a row.
package enum AnalyticsTable: String, Sendable, CaseIterable {
    /// Presentation sessions (`BridgeSession`).
    case sessions
    /// Slide views (`SessionAction`).
    case slideViews = "session_actions"
    /// Custom events (`SessionEventAction`).
    case customEvents = "custom_events"

    /// The SQLite table name.
    package var name: String { rawValue }

    /// The column holding the row's stable id.
    package var idColumn: String { self == .sessions ? "sessionId" : "id" }

    /// Columns whose values must be unchanged for a publish to count: a custom event whose value is
    /// overwritten while its old value is being published stays pending and is published again.
    package var versionColumns: [String] { self == .customEvents ? ["value", "created"] : [] }
}

/// Where an analytics row stands in the outbox.
package enum PublishState: String, Sendable, Codable, CaseIterable {
    /// Ready: published by the next flush.
    case pending
    /// Its session is still open (or was left unfinished): published once the session completes.
    case waiting
    /// It belongs to a test session (closed without saving): never published.
    case test
    /// StoryIoT refused it or it cannot be sent; kept with the reason until `--retry-parked`.
    case parked
    /// Delivered.
    case published
}

/// One analytics row waiting to be published: the whole table row, decoded ids, and its rowid (the paging
/// cursor of a flush).
package struct PendingAnalyticsRow: Sendable, Equatable {
    /// The table it comes from.
    package let table: AnalyticsTable
    /// Every column of the table row, for the message body.
    package let row: Row
    /// The SQLite rowid.
    package let rowid: Int64
    /// The row's stable id (``AnalyticsTable/idColumn``).
    package let id: String
    /// The session it belongs to (a session's own id for a session).
    package let sessionId: String
    /// Who recorded it, if known.
    package let userId: String?
    /// When it happened (ISO-8601 UTC, as stored).
    package let created: String
    /// Hours from UTC when it was recorded.
    package let timeZone: Int64
    /// Where it was recorded, if configured.
    package let latitude: Double?
    /// Where it was recorded, if configured.
    package let longitude: Double?

    /// Decodes the identifying columns of `row`, read from `table` with its rowid as `outboxRowid`.
    ///
    /// - Throws: ``StoreError`` (`.decoding`) naming a missing or mistyped column.
    package init(table: AnalyticsTable, row: Row) throws {
        let columns = ColumnReader(row, table: table.name)
        self.table = table
        self.row = row
        rowid = try columns.int64("outboxRowid")
        id = try columns.text(table.idColumn)
        sessionId = try columns.text("sessionId")
        userId = try columns.optionalText("userId")
        created = try columns.text("created")
        timeZone = try columns.int64("timeZone")
        latitude = try columns.optionalDouble("latitude")
        longitude = try columns.optionalDouble("longitude")
    }

    /// The values of ``AnalyticsTable/versionColumns`` when the row was read.
    package var version: [DatabaseValue] { table.versionColumns.map { row[$0] } }
}

/// One analytics row as a listing shows it.
package struct AnalyticsRowStanding: Sendable, Equatable {
    /// The table it comes from.
    package var table: AnalyticsTable
    /// The row's stable id.
    package var id: String
    /// The session it belongs to.
    package var sessionId: String
    /// The presentation it belongs to.
    package var presentationId: Int64
    /// When it happened (ISO-8601 UTC).
    package var created: String
    /// Where it stands.
    package var state: PublishState
    /// Publish attempts so far.
    package var attempts: Int64
    /// Why it is parked.
    package var error: String?
    /// When it was delivered (ISO-8601 UTC).
    package var publishedAt: String?

    /// Decodes a row of the outbox listing.
    ///
    /// - Throws: ``StoreError`` (`.decoding`) naming a missing or mistyped column.
    init(row: Row) throws {
        let columns = ColumnReader(row, table: "outbox listing")
        table = try columns.value("kind")
        id = try columns.text("id")
        sessionId = try columns.text("sessionId")
        presentationId = try columns.int64("presentationId")
        created = try columns.text("created")
        state = try columns.value("outboxState")
        attempts = try columns.int64("publishAttempts")
        error = try columns.optionalText("publishError")
        publishedAt = try columns.optionalText("publishedAt")
    }
}
