import Foundation
import SCLMCore
import SCLMStore
import Synchronization

/// The one writer of what a host records (slide views, sessions, custom events), so that playback never waits
/// on the database.
///
/// ``record(_:)`` queues a change in memory and returns at once; one writer task writes the queue in order,
/// everything queued in one transaction. When the database is locked by another program (`SQLITE_BUSY`) or the
/// disk is full, the writer keeps the changes and tries again with a backoff (``Backoff``, 0.1 s doubling to
/// 5 s); it says once, in a log line and in ``Status/stalls``, that recording is behind, and again when it has
/// caught up. Nothing acknowledged is lost while the process lives: the queue holds up to `capacity` changes,
/// and only past that are the oldest dropped, counted in ``Status/dropped`` (logged once per stall). A change
/// the database refuses for good (a constraint) is written alone, and skipped with an error line if it still
/// fails, so it cannot hold the rest back.
///
/// The writer task lives until ``finish(patience:)`` finds the queue empty; a finish that runs out of patience
/// leaves it writing for as long as the process lives (a kiosk's next browser run).
package final class SessionRecorder: Sendable {
    /// What the recording is doing, for the player's metrics.
    package struct Status: Sendable, Equatable {
        /// Changes waiting to be written (queued and in the transaction under way).
        package var backlog = 0
        /// Changes written.
        package var written = 0
        /// Changes dropped, oldest first, because the queue was full.
        package var dropped = 0
        /// Changes the database refused for good (logged).
        package var refused = 0
        /// Times recording fell behind (the database locked or the disk full).
        package var stalls = 0
        /// Whether recording is behind now.
        package var isBehind = false
    }

    /// How long the writer waits between attempts while the database cannot be written.
    package struct Backoff: Sendable {
        /// The first wait.
        package var initial: Duration = .milliseconds(100)
        /// The longest wait.
        package var maximum: Duration = .seconds(5)

        /// The default backoff.
        package init() {}
    }

    private struct Change: Sendable {
        var number: UInt64
        var body: @Sendable (Database) throws -> Void
    }

    private struct State {
        var queue: [Change] = []
        var inFlight = 0
        var nextNumber: UInt64 = 1
        /// Every change numbered up to this one is written, refused or dropped.
        var settledThrough: UInt64 = 0
        var isFinishing = false
        var writerEnded = false
        var status = Status()
        var droppedInThisStall = false
    }

    /// The most changes the queue holds by default (about 4 hours of a slide a second).
    package static let defaultCapacity = 16_384

    private let store: ContentStore
    private let logger: Logger
    private let capacity: Int
    private let backoff: Backoff
    private let state = Mutex(State())
    private let waiters = Waiters()

    /// Starts the writer of `store`.
    package init(store: ContentStore, logger: Logger, capacity: Int = defaultCapacity, backoff: Backoff = Backoff()) {
        self.store = store
        self.logger = logger
        self.capacity = max(1, capacity)
        self.backoff = backoff
        Task.detached { [self] in await writeAll() }
    }

    /// What the recording is doing now.
    package var status: Status {
        state.withLock { state in
            var status = state.status
            status.backlog = state.queue.count + state.inFlight
            return status
        }
    }

    /// Queues `body`, to be run in a write transaction after every change queued before it.
    package func record(_ body: @escaping @Sendable (Database) throws -> Void) {
        let droppedFirst = state.withLock { state -> Bool in
            state.queue.append(Change(number: state.nextNumber, body: body))
            state.nextNumber += 1
            guard state.queue.count > capacity else { return false }
            state.settledThrough = max(state.settledThrough, state.queue.removeFirst().number)
            state.status.dropped += 1
            defer { state.droppedInThisStall = true }
            return !state.droppedInThisStall
        }
        if droppedFirst {
            logger.error(
                "recording queue full (\(capacity) changes): dropping the oldest slide views and events until the "
                    + "database can be written again")
        }
        waiters.wakeAll()
    }

    /// Waits until every change queued so far is written (or settled otherwise), for at most `patience`.
    ///
    /// - Returns: whether it is.
    package func catchUp(patience: Duration) async -> Bool {
        let target = state.withLock { $0.nextNumber - 1 }
        let isSettled: @Sendable () -> Bool = { [self] in state.withLock { $0.settledThrough >= target } }
        if isSettled() { return true }
        return await withTimeout(patience) { [waiters] in await waiters.wait(until: isSettled) } != nil && isSettled()
    }

    /// Lets the writer end once the queue is empty and waits for that, for at most `patience`.
    ///
    /// - Returns: the changes still waiting (the writer keeps trying them while the process lives).
    @discardableResult
    package func finish(patience: Duration) async -> Int {
        state.withLock { $0.isFinishing = true }
        waiters.wakeAll()
        let hasEnded: @Sendable () -> Bool = { [self] in state.withLock { $0.writerEnded } }
        _ = await withTimeout(patience) { [waiters] in await waiters.wait(until: hasEnded) }
        let left = status.backlog
        if left > 0 {
            logger.error(
                "\(left) recorded slide views and events are not written yet (the database is locked or the disk is "
                    + "full); sclm keeps trying while it runs")
        }
        return left
    }

    // MARK: - The writer

    private func writeAll() async {
        while let batch = await nextBatch() {
            await write(batch)
            let caughtUp = state.withLock { state -> Bool in
                state.inFlight = 0
                state.settledThrough = max(state.settledThrough, batch.last?.number ?? 0)
                guard state.status.isBehind, state.queue.isEmpty else { return false }
                state.status.isBehind = false
                state.droppedInThisStall = false
                return true
            }
            if caughtUp { logger.info("recording caught up: every queued slide view and event is written") }
            waiters.wakeAll()
        }
        state.withLock { $0.writerEnded = true }
        waiters.wakeAll()
    }

    /// The changes queued now (taken off the queue), once there are any; `nil` once finishing with none left.
    private func nextBatch() async -> [Change]? {
        await waiters.wait { [self] in state.withLock { !$0.queue.isEmpty || $0.isFinishing } }
        return state.withLock { state -> [Change]? in
            guard !state.queue.isEmpty else { return nil }
            let batch = state.queue
            state.queue.removeAll(keepingCapacity: true)
            state.inFlight = batch.count
            return batch
        }
    }

    /// Writes `batch` in one transaction, retrying while the database cannot be written; a batch the database
    /// refuses is written change by change.
    private func write(_ batch: [Change]) async {
        var delay = backoff.initial
        while true {
            do {
                try await store.write { db in for change in batch { try change.body(db) } }
                state.withLock { $0.status.written += batch.count }
                return
            } catch  where Self.isTransient(error) {
                fallBehind(error)
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, backoff.maximum)
            } catch {
                guard batch.count > 1 else { return refuse(error) }
                for change in batch { await write([change]) }
                return
            }
        }
    }

    /// Notes (and says once per stall) that the database cannot be written now.
    private func fallBehind(_ error: any Error) {
        let isNew = state.withLock { state -> Bool in
            guard !state.status.isBehind else { return false }
            state.status.isBehind = true
            state.status.stalls += 1
            return true
        }
        guard isNew else { return }
        logger.warning(
            "recording is behind: \(error.userMessage); slide views and events wait in memory and are written when "
                + "the database can be written again (playback goes on)")
    }

    private func refuse(_ error: any Error) {
        state.withLock { $0.status.refused += 1 }
        logger.error("a recorded slide view or event could not be written and is skipped: \(error.userMessage)")
    }

    /// Whether `error` may pass by itself: the database locked by another connection, or the disk full.
    static func isTransient(_ error: any Error) -> Bool {
        guard let code = (error as? StoreError)?.resultCode?.primary else { return false }
        return [.busy, .locked, .full, .ioError].contains(code)
    }
}
