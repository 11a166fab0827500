import Synchronization

/// A flag that a task-cancellation handler sets and a blocking read loop polls between blocks.
final class CancellationFlag: Sendable {
    private let cancelled = Atomic(false)

    /// Marks the work as cancelled.
    func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Throws `CancellationError` once cancelled.
    func check() throws {
        if isCancelled { throw CancellationError() }
    }
}
