import Dispatch
import Foundation
import SCLMCore
import Synchronization

/// The sclm database shared across tasks: one connection confined to one serial queue.
///
/// ``read(_:)`` runs its body in a deferred transaction, ``write(_:)`` in a `BEGIN IMMEDIATE`
/// transaction that rolls back when the body throws. Cancelling the awaiting task interrupts the
/// running statement (`sqlite3_interrupt`), so the body throws and its transaction rolls back.
///
/// ```swift
/// let store = try ContentStore(path: home.databasePath)
/// let count = try await store.read { db in try db.fetchCount("SELECT count(*) FROM presentations") }
/// ```
package final class ContentStore: @unchecked Sendable {
    // Invariant: `database` is only used on `queue`; that is what makes the class Sendable.
    private let database: Database
    private let queue: DispatchQueue
    private let runningOperation = Mutex<UInt64?>(nil)
    private let operationCounter = Atomic<UInt64>(0)

    /// The database file.
    package let path: String
    /// The schema version the database had before this store migrated it.
    package let migratedFrom: Int
    /// Whether the store was opened for reading only (see ``openForReading(path:migrator:)``).
    package let isReadOnly: Bool

    /// Opens (creating with mode 0600 if needed) and migrates the database at `path`.
    ///
    /// - Throws: ``StoreError`` when the file cannot be opened, is newer than this binary or a migration fails.
    package convenience init(path: String, migrator: Migrator = .sclm) throws {
        let database = try Database(path: path)
        self.init(database: database, migratedFrom: try migrator.migrate(database).from, isReadOnly: false)
    }

    private init(database: Database, migratedFrom: Int, isReadOnly: Bool) {
        self.database = database
        self.migratedFrom = migratedFrom
        self.isReadOnly = isReadOnly
        self.path = database.path
        self.queue = DispatchQueue(label: "sclm.store")
    }

    /// Opens the existing database at `path` for reading only, for a home that cannot be written (a read-only
    /// mount, another user's folder); nothing is created, migrated or changed.
    ///
    /// When the folder is writable, or the `-wal` and `-shm` files are there, SQLite's read-only mode is used and
    /// sees everything committed, the `-wal` included. When the folder is not writable and there is no `-shm`,
    /// SQLite cannot build its WAL index, so the file is opened `immutable` (no locks, no side files); that is
    /// only correct while no `-wal` content is pending, so a non-empty `-wal` without its `-shm` is refused.
    ///
    /// - Throws: ``StoreError`` when the file cannot be opened, its schema is not this binary's, or it cannot be
    ///   read without writing.
    package static func openForReading(path: String, migrator: Migrator = .sclm) throws -> ContentStore {
        let database = try Database(path: path, access: try readAccess(for: path))
        let version = try database.userVersion
        guard version == migrator.latestVersion else {
            throw StoreError(
                code: .openFailed,
                message: "the database has schema version \(version), this sclm needs \(migrator.latestVersion), and "
                    + "it cannot be upgraded because the home is read-only; run sclm once with the home writable",
                path: path)
        }
        return ContentStore(database: database, migratedFrom: version, isReadOnly: true)
    }

    /// How ``openForReading(path:migrator:)`` opens `path`.
    private static func readAccess(for path: String) throws -> Database.Access {
        let folder = (path as NSString).deletingLastPathComponent
        let (wal, shm) = (path + "-wal", path + "-shm")
        if FileSystem.isWritable(folder) || (FileSystem.exists(wal) && FileSystem.exists(shm)) { return .readOnly }
        guard (FileSystem.size(of: wal) ?? 0) == 0 else {
            throw StoreError(
                code: .openFailed,
                message: "\(wal) holds changes that SQLite can only read with a \(shm) file, which cannot be "
                    + "created in the read-only folder; run sclm once with the home writable",
                path: path)
        }
        return .immutable
    }

    /// Runs `body` in a read transaction on the store's queue.
    ///
    /// - Throws: what `body` throws, ``StoreError``, or `CancellationError` when the task is cancelled.
    package func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await perform { db in try db.read(body) }
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction on the store's queue; a throw rolls it back.
    ///
    /// - Throws: what `body` throws, ``StoreError``, or `CancellationError` when the task is cancelled.
    package func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await perform { db in try db.write(body) }
    }

    /// Runs `body` like ``write(_:)``, its commit flushed to disk (``Database/writeDurably(_:)``).
    ///
    /// - Throws: what `body` throws, ``StoreError``, or `CancellationError` when the task is cancelled.
    package func writeDurably<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await perform { db in try db.writeDurably(body) }
    }

    private func perform<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let operation = operationCounter.wrappingAdd(1, ordering: .relaxed).newValue
        let cancelled = Atomic<Bool>(false)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                queue.async { [self] in
                    // Checking for cancellation and recording the running operation under one lock closes
                    // the window in which `onCancel` would find nothing running and skip the interrupt.
                    let proceed = runningOperation.withLock { running -> Bool in
                        guard !cancelled.load(ordering: .acquiring) else { return false }
                        running = operation
                        return true
                    }
                    guard proceed else { return continuation.resume(throwing: CancellationError()) }
                    let result = Result { try body(database) }
                    runningOperation.withLock { $0 = nil }
                    switch result {
                    case .failure(let error as StoreError) where error.resultCode == .interrupt:
                        continuation.resume(throwing: CancellationError())
                    default:
                        continuation.resume(with: result)
                    }
                }
            }
        } onCancel: {
            cancelled.store(true, ordering: .releasing)
            interruptWhileRunning(operation)
        }
    }

    /// Interrupts `operation` until it has finished.
    ///
    /// Once: SQLite clears an interrupt when a statement starts with none running, so one that lands
    /// between two statements of the body (its `BEGIN`, say) would be lost. Repeatedly, from a queue of
    /// its own, and only while `operation` is the one running (checked under the lock), so no later
    /// operation is ever interrupted.
    private func interruptWhileRunning(_ operation: UInt64) {
        let stillRunning = runningOperation.withLock { running -> Bool in
            guard running == operation else { return false }
            database.interrupt()
            return true
        }
        guard stillRunning else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) { [self] in
            interruptWhileRunning(operation)
        }
    }
}
