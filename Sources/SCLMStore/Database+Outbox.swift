import Foundation
import SCLMCore

/// The publish state of the analytics tables (`sessions`, `session_actions`, `custom_events`): which rows the
/// analytics outbox sends next, and what it records about each attempt.
///
/// A row is released for publishing when its session is complete (state 1), or when the host marked the
/// session synchronized itself (OSAM's holder of app-level events). It stays unsynchronized until StoryIoT
/// acknowledges it; a row refused for good is parked with a reason in `publishError`.
extension Database {
    /// The next unsynchronized, released rows of `table` after `rowid`, oldest first.
    ///
    /// - Parameters:
    ///   - table: the analytics table to read.
    ///   - rowid: the paging cursor: only rows with a larger rowid.
    ///   - limit: at most this many rows.
    ///   - includeParked: also return parked rows.
    /// - Returns: the rows, by rowid.
    /// - Throws: ``StoreError``.
    package func pendingAnalyticsRows(
        of table: AnalyticsTable, after rowid: Int64, limit: Int, includeParked: Bool
    ) throws -> [PendingAnalyticsRow] {
        let sql = """
            SELECT t.rowid AS outboxRowid, t.* \(Self.source(of: table))
            WHERE t.synchronized = 0 AND \(Self.releasedCondition) AND (t.publishError IS NULL OR ?)
              AND t.rowid > ?
            ORDER BY t.rowid LIMIT ?
            """
        return try fetchAll(sql, [includeParked, rowid, limit]).map { try PendingAnalyticsRow(table: table, row: $0) }
    }

    /// Marks `row` published at `date` with `attempts` more attempts, unless it changed since it was read
    /// (then only the attempts are counted and it stays pending).
    ///
    /// - Returns: whether the row was marked.
    /// - Throws: ``StoreError``.
    package func markPublished(_ row: PendingAnalyticsRow, attempts: Int, at date: Date) throws -> Bool {
        try execute(
            """
            UPDATE \(row.table.name) SET synchronized = 1, publishedAt = ?, publishAttempts = publishAttempts + ?,
                publishError = NULL
            WHERE \(row.table.idColumn) = ? AND synchronized = 0\(Self.unchangedCondition(row.table))
            """, [Timestamp.string(from: date), attempts, row.id] + row.version)
        if changedRowCount > 0 { return true }
        try addPublishAttempts(attempts, to: row)
        return false
    }

    /// Parks `row` with `reason`, unless it changed since it was read.
    ///
    /// - Throws: ``StoreError``.
    package func park(_ row: PendingAnalyticsRow, attempts: Int, reason: String) throws {
        try execute(
            """
            UPDATE \(row.table.name) SET publishAttempts = publishAttempts + ?, publishError = ?
            WHERE \(row.table.idColumn) = ? AND synchronized = 0\(Self.unchangedCondition(row.table))
            """, [attempts, reason, row.id] + row.version)
    }

    /// Counts failed attempts of `row`, which stays pending.
    ///
    /// - Throws: ``StoreError``.
    package func addPublishAttempts(_ attempts: Int, to row: PendingAnalyticsRow) throws {
        try execute(
            "UPDATE \(row.table.name) SET publishAttempts = publishAttempts + ? WHERE \(row.table.idColumn) = ?",
            [attempts, row.id])
    }

    /// Every analytics row with where it stands, oldest first; with `unpublishedOnly`, only pending, waiting
    /// and parked ones.
    ///
    /// - Throws: ``StoreError``.
    package func analyticsRowStandings(unpublishedOnly: Bool) throws -> [AnalyticsRowStanding] {
        let filter = unpublishedOnly ? "WHERE outboxState IN ('pending', 'waiting', 'parked')" : ""
        return try fetchAll("SELECT * FROM (\(Self.listing)) \(filter) ORDER BY created, kindOrder, rowOrder")
            .map(AnalyticsRowStanding.init(row:))
    }

    /// How many analytics rows are in each state (states without rows are absent).
    ///
    /// - Throws: ``StoreError``.
    package func publishStateCounts() throws -> [PublishState: Int] {
        var counts: [PublishState: Int] = [:]
        for row in try fetchAll("SELECT outboxState, count(*) AS rows FROM (\(Self.listing)) GROUP BY outboxState") {
            let columns = ColumnReader(row, table: "outbox listing")
            counts[try columns.value("outboxState")] = Int(try columns.int64("rows"))
        }
        return counts
    }

    /// Deletes the slide views of published sessions that were published before `date` (and are published
    /// themselves): what the analytics retention keeps bounded.
    ///
    /// - Returns: how many rows were deleted.
    /// - Throws: ``StoreError``.
    package func pruneSlideViews(publishedBefore date: Date) throws -> Int {
        let cutoff = Timestamp.string(from: date)
        try execute(
            """
            DELETE FROM session_actions
            WHERE synchronized = 1 AND publishedAt < ?1 AND sessionId IN (
                SELECT sessionId FROM sessions WHERE synchronized = 1 AND publishedAt < ?1)
            """, [cutoff])
        return changedRowCount
    }

    // MARK: - SQL

    /// The rows of `table` (`t`) joined with their session (`s`; a session is its own).
    private static func source(of table: AnalyticsTable) -> String {
        "FROM \(table.name) t JOIN sessions s ON s.sessionId = t.sessionId"
    }

    /// The session is complete, or the host marked it synchronized itself.
    private static let releasedCondition = "(s.state = 1 OR s.synchronized = 1)"

    private static func unchangedCondition(_ table: AnalyticsTable) -> String {
        table.versionColumns.map { " AND \($0) IS ?" }.joined()
    }

    /// Every row of the three tables with its state, in one shape.
    private static let listing: String = AnalyticsTable.allCases.enumerated().map { order, table in
        """
        SELECT '\(table.rawValue)' AS kind, \(order) AS kindOrder, t.rowid AS rowOrder, t.\(table.idColumn) AS id,
            t.sessionId, t.presentationId, t.created, t.publishAttempts, t.publishError, t.publishedAt,
            CASE WHEN t.synchronized = 1 THEN '\(PublishState.published.rawValue)'
                 WHEN t.publishError IS NOT NULL THEN '\(PublishState.parked.rawValue)'
                 WHEN \(releasedCondition) THEN '\(PublishState.pending.rawValue)'
                 WHEN s.state = 2 THEN '\(PublishState.test.rawValue)'
                 ELSE '\(PublishState.waiting.rawValue)' END AS outboxState
        \(source(of: table))
        """
    }.joined(separator: "\nUNION ALL\n")
}
