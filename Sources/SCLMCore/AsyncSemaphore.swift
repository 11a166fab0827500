import Synchronization

/// A counting semaphore for tasks: at most `limit` holders at once, the others wait in order (first come,
/// first served). Waiting is cancellable: a cancelled waiter gets `CancellationError` and holds nothing.
///
/// ```swift
/// let loading = AsyncSemaphore(limit: 4)
/// try await loading.withPermit { try await load(slide) }
/// ```
package final class AsyncSemaphore: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var available: Int
        var waiters: [Waiter] = []
        var nextId: UInt64 = 0
    }

    private let state: Mutex<State>

    /// Creates a semaphore with `limit` permits (at least 1).
    package init(limit: Int) {
        state = Mutex(State(available: max(1, limit)))
    }

    /// Waits for a permit; ``release()`` gives it back.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before a permit is free (it then holds none).
    package func acquire() async throws {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextId += 1 }
            return state.nextId
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Checked under the lock: a cancellation either came before (and is seen here) or finds the waiter.
                let outcome = state.withLock { state -> Result<Bool, CancellationError> in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.available > 0 && state.waiters.isEmpty {
                        state.available -= 1
                        return .success(true)
                    }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return .success(false)
                }
                switch outcome {
                case .success(true): continuation.resume()
                case .success(false): break
                case .failure(let error): continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Gives a permit back: to the longest waiter, if any.
    package func release() {
        let next = state.withLock { state -> Waiter? in
            guard !state.waiters.isEmpty else {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.continuation.resume()
    }

    /// Waits for a permit and returns it, to be given back once with ``Permit/release()`` (a second
    /// release does nothing), or when the permit is dropped.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before a permit is free.
    package func permit() async throws -> Permit {
        try await acquire()
        return Permit(self)
    }

    /// One permit of an ``AsyncSemaphore``, given back at most once.
    package final class Permit: Sendable {
        private let semaphore: AsyncSemaphore
        private let isHeld = Atomic(true)

        fileprivate init(_ semaphore: AsyncSemaphore) {
            self.semaphore = semaphore
        }

        /// Gives the permit back, the first time only.
        package func release() {
            if isHeld.exchange(false, ordering: .acquiringAndReleasing) { semaphore.release() }
        }

        deinit { release() }
    }

    /// Runs `body` holding a permit, and gives it back however `body` ends.
    ///
    /// - Throws: `CancellationError` while waiting; what `body` throws.
    package func withPermit<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async throws -> T {
        try await acquire()
        defer { release() }
        return try await body()
    }
}
