import Synchronization

/// Tasks waiting for a condition that another thread makes true: ``wait(until:)`` parks until
/// ``wakeAll()`` (called after every change that may make the condition true) finds it true — no polling.
///
/// A waiter registers before it looks at the condition, so a wake-up between the look and the park is
/// never lost.
package final class Waiters: Sendable {
    private struct State {
        var next = 0
        var parked: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// Creates an empty set of waiters.
    package init() {}

    /// Returns once `isDone` holds, or once the calling task is cancelled.
    package func wait(until isDone: () -> Bool) async {
        while !isDone() && !Task.isCancelled {
            let id = state.withLock { state in
                state.next += 1
                return state.next
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    state.withLock { $0.parked[id] = continuation }
                    // Looked at after parking: a wake-up that came first has nothing to resume, so resume here.
                    if isDone() || Task.isCancelled { resume(id) }
                }
            } onCancel: {
                resume(id)
            }
        }
    }

    /// Wakes every waiter to look at its condition again.
    package func wakeAll() {
        let parked = state.withLock { state in
            defer { state.parked.removeAll() }
            return state.parked.values
        }
        for continuation in parked { continuation.resume() }
    }

    private func resume(_ id: Int) {
        state.withLock { $0.parked.removeValue(forKey: id) }?.resume()
    }
}

/// Runs `body` for at most `limit`: its result, or `nil` once the time is up (`body` is then cancelled and
/// awaited). One sleep, not a poll.
package func withTimeout<Value: Sendable>(
    _ limit: Duration, _ body: @escaping @Sendable () async -> Value
) async -> Value? {
    await withTaskGroup(of: Value?.self) { group in
        group.addTask { await body() }
        group.addTask {
            try? await Task.sleep(for: limit)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
