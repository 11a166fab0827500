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
package struct Outbox: Sendable {
    private let store: ContentStore

    /// Creates the outbox of `store`.
    package init(store: ContentStore) {
        self.store = store
    }

    // MARK: - Publishing

    /// The next rows of `kind` to publish after `rowid`, oldest first.
    ///
    /// - Parameters:
    ///   - kind: the kind of rows.
    ///   - rowid: the last row already taken.
    ///   - limit: the most rows returned.
    ///   - includeParked: also return parked rows (their reason is replaced by the next outcome).
    /// - Returns: the rows, by rowid.
    /// - Throws: ``StoreError``, `CancellationError`.
    func entries(of kind: OutboxKind, after rowid: Int64, limit: Int, includeParked: Bool) async throws
        -> [OutboxEntry]
    {
        let table = kind.storeTable
        return try await store.read { db in
            try db.pendingAnalyticsRows(of: table, after: rowid, limit: limit, includeParked: includeParked)
                .map(OutboxEntry.init)
        }
    }

    /// Marks `entry` delivered, unless it changed since it was read (then it stays pending).
    ///
    /// - Returns: whether the row was marked.
    /// - Throws: ``StoreError``, `CancellationError`.
    @discardableResult
    func markPublished(_ entry: OutboxEntry, attempts: Int, at date: Date) async throws -> Bool {
        try await store.write { db in try db.markPublished(entry.pending, attempts: attempts, at: date) }
    }

    /// Parks `entry` with `reason`, unless it changed since it was read.
    ///
    /// - Throws: ``StoreError``, `CancellationError`.
    func park(_ entry: OutboxEntry, attempts: Int, reason: String) async throws {
        try await store.write { db in try db.park(entry.pending, attempts: attempts, reason: reason) }
    }

    /// Counts failed attempts of `entry`, which stays pending.
    ///
    /// - Throws: ``StoreError``, `CancellationError`.
    func recordFailedAttempts(_ entry: OutboxEntry, attempts: Int) async throws {
        try await store.write { db in try db.addPublishAttempts(attempts, to: entry.pending) }
    }

    /// Deletes the slide views of sessions published before `date` (see ``Database/pruneSlideViews(publishedBefore:)``).
    ///
    /// - Returns: how many rows were deleted.
    /// - Throws: ``StoreError``, `CancellationError`.
    func pruneSlideViews(publishedBefore date: Date) async throws -> Int {
        try await store.write { db in try db.pruneSlideViews(publishedBefore: date) }
    }

    // MARK: - Listing

    /// Every analytics row, oldest first; with `unpublishedOnly`, only pending, waiting and parked ones.
    ///
    /// - Throws: ``StoreError``, `CancellationError`.
    package func items(unpublishedOnly: Bool = false) async throws -> [OutboxItem] {
        try await store.read { db in
            try db.analyticsRowStandings(unpublishedOnly: unpublishedOnly).map(OutboxItem.init)
        }
    }

    /// How many rows are in each state.
    ///
    /// - Throws: ``StoreError``, `CancellationError`.
    package func summary() async throws -> OutboxSummary {
        try await store.read { db in try Outbox.summary(in: db) }
    }

    /// How many rows of `db` are in each state, inside the caller's transaction.
    ///
    /// - Throws: ``StoreError``.
    package static func summary(in db: Database) throws -> OutboxSummary {
        OutboxSummary(counts: try db.publishStateCounts())
    }
}
