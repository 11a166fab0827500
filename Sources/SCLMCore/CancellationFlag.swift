import Synchronization

/// A flag that a task-cancellation handler sets and a blocking read loop polls between blocks.
package final class CancellationFlag: Sendable {
    private let cancelled = Atomic(false)

    /// Creates a flag that is not set.
    package init() {}

    /// Marks the work as cancelled.
    package func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Whether ``cancel()`` was called.
    package var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Throws `CancellationError` once cancelled.
    package func check() throws {
        if isCancelled { throw CancellationError() }
    }
}
