import Foundation
import SCLMCore
import SCLMStore

/// The analytics outbox over the `sessions`, `session_actions` and `custom_events` tables.
///
/// A row is published when it is not yet synchronized and its session is complete (state 1): a
/// completed session, and the slide views and custom events of a completed session. Rows of a test
/// session (state 2, closed without saving) are never published: the user chose not to keep that run,
/// so its slide views must not count either. Rows of an open or unfinished session (0, 3, 4) wait
/// until it completes, because until then it may still end as a test. A session row the host has
/// marked synchronized itself (OSAM's holder of app-level events) also releases its rows.
///
/// A row stays unsynchronized until StoryIoT acknowledges it; then `synchronized = 1` and `publishedAt`
/// are written in one transaction with the attempt count. A row StoryIoT refuses for good is parked:
/// `publishError` holds the reason, and only a flush with `retryParked` tries it again.
public struct Outbox: Sendable {
    private let store: ContentStore

    /// Creates the outbox of `store`.
    public init(store: ContentStore) {
        self.store = store
    }

    // MARK: - Publishing

    /// The next rows of `kind` to publish after `rowid`, oldest first.
    ///
    /// - Parameters:
    ///   - includeParked: also return parked rows (their reason is replaced by the next outcome).
    /// - Throws: ``StoreError``, `CancellationError`.
    func entries(of kind: OutboxKind, after rowid: Int64, limit: Int, includeParked: Bool) async throws
        -> [OutboxEntry]
    {
        let sql = """
            SELECT t.rowid AS outboxRowid, t.* \(Self.source(of: kind))
            WHERE t.synchronized = 0 AND \(Self.releasedCondition) AND (t.publishError IS NULL OR ?)
              AND t.rowid > ?
            ORDER BY t.rowid LIMIT ?
            """
        return try await store.read { db in
            try db.fetchAll(sql, [includeParked, rowid, limit]).map { row in
                OutboxEntry(kind: kind, row: row, rowid: row.int("outboxRowid") ?? 0)
            }
        }
    }

    /// Marks `entry` delivered, unless it changed since it was read (then it stays pending).
    ///
    /// - Returns: whether the row was marked.
    /// - Throws: ``StoreError``, `CancellationError`.
    @discardableResult
    func markPublished(_ entry: OutboxEntry, attempts: Int, at date: Date) async throws -> Bool {
        let (table, idColumn) = (entry.kind.table, entry.kind.idColumn)
        let guardSQL = Self.unchangedCondition(entry.kind)
        let arguments: [any DatabaseValueConvertible] = [Timestamp.string(from: date), attempts, entry.id] + entry.version
        return try await store.write { db in
            try db.execute(
                """
                UPDATE \(table) SET synchronized = 1, publishedAt = ?, publishAttempts = publishAttempts + ?,
                    publishError = NULL
                WHERE \(idColumn) = ? AND synchronized = 0\(guardSQL)
                """, arguments)
            if db.changedRowCount > 0 { return true }
            try Self.addAttempts(attempts, to: entry, in: db)
            return false
        }
    }

    /// Parks `entry` with `reason`, unless it changed since it was read.
    ///
    /// - Throws: ``StoreError``, `CancellationError`.
    func park(_ entry: OutboxEntry, attempts: Int, reason: String) async throws {
        let (table, idColumn) = (entry.kind.table, entry.kind.idColumn)
        let guardSQL = Self.unchangedCondition(entry.kind)
        let arguments: [any DatabaseValueConvertible] = [attempts, reason, entry.id] + entry.version
        try await store.write { db in
            try db.execute(
                """
                UPDATE \(table) SET publishAttempts = publishAttempts + ?, publishError = ?
                WHERE \(idColumn) = ? AND synchronized = 0\(guardSQL)
                """, arguments)
        }
    }

    /// Counts failed attempts of `entry`, which stays pending.
    ///
    /// - Throws: ``StoreError``, `CancellationError`.
    func recordFailedAttempts(_ entry: OutboxEntry, attempts: Int) async throws {
        try await store.write { db in try Self.addAttempts(attempts, to: entry, in: db) }
    }

    private static func addAttempts(_ attempts: Int, to entry: OutboxEntry, in db: Database) throws {
        try db.execute(
            "UPDATE \(entry.kind.table) SET publishAttempts = publishAttempts + ? WHERE \(entry.kind.idColumn) = ?",
            [attempts, entry.id])
    }

    // MARK: - Listing

    /// Every analytics row, oldest first; with `unpublishedOnly`, only pending, waiting and parked ones.
    ///
    /// - Throws: ``StoreError``, `CancellationError`.
    public func items(unpublishedOnly: Bool = false) async throws -> [OutboxItem] {
        let filter = unpublishedOnly ? "WHERE outboxState IN ('pending', 'waiting', 'parked')" : ""
        let sql = "SELECT * FROM (\(Self.listing)) \(filter) ORDER BY created, kindOrder, rowOrder"
        return try await store.read { db in try db.fetchAll(sql).map(OutboxItem.init(row:)) }
    }

    /// How many rows are in each state.
    ///
    /// - Throws: ``StoreError``, `CancellationError`.
    public func summary() async throws -> OutboxSummary {
        try await store.read { db in try Outbox.summary(in: db) }
    }

    /// How many rows of `db` are in each state, inside the caller's transaction.
    ///
    /// - Throws: ``StoreError``.
    public static func summary(in db: Database) throws -> OutboxSummary {
        let sql = "SELECT outboxState, count(*) AS rows FROM (\(listing)) GROUP BY outboxState"
        var counts: [OutboxState: Int] = [:]
        for row in try db.fetchAll(sql) {
            if let state = row.string("outboxState").flatMap(OutboxState.init(rawValue:)) {
                counts[state] = Int(row.int("rows") ?? 0)
            }
        }
        return OutboxSummary(counts: counts)
    }

    // MARK: - SQL

    /// The rows of `kind` (`t`) joined with their session (`s`; a session is its own).
    private static func source(of kind: OutboxKind) -> String {
        "FROM \(kind.table) t JOIN sessions s ON s.sessionId = t.sessionId"
    }

    /// The session is complete, or the host marked it synchronized itself.
    private static let releasedCondition = "(s.state = 1 OR s.synchronized = 1)"

    private static func unchangedCondition(_ kind: OutboxKind) -> String {
        kind.versionColumns.map { " AND \($0) IS ?" }.joined()
    }

    /// Every row of the three tables with its state, in one shape.
    private static let listing: String = OutboxKind.allCases.enumerated().map { order, kind in
        """
        SELECT '\(kind.rawValue)' AS kind, \(order) AS kindOrder, t.rowid AS rowOrder, t.\(kind.idColumn) AS id,
            t.sessionId, t.presentationId, t.created, t.publishAttempts, t.publishError, t.publishedAt,
            CASE WHEN t.synchronized = 1 THEN 'published'
                 WHEN t.publishError IS NOT NULL THEN 'parked'
                 WHEN \(releasedCondition) THEN 'pending'
                 WHEN s.state = 2 THEN 'test'
                 ELSE 'waiting' END AS outboxState
        \(source(of: kind))
        """
    }.joined(separator: "\nUNION ALL\n")
}
