import Synchronization

/// Cancels one running handler from outside its task: ``run(_:)`` runs the handler beside a waiter in a
/// task group of its own, and ``fire()`` wakes the waiter, which cancels the group — so a handler task in
/// the server's group can be cancelled alone, without an unstructured task or a handle that outlives it.
final class CancelSwitch: Sendable {
    private struct State {
        var fired = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Cancels the handler ``run(_:)`` runs (now, or as soon as it starts).
    func fire() {
        let waiter = state.withLock { state in
            state.fired = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Runs `body` until it returns; it is cancelled once ``fire()`` is called. `nil` only if the body's
    /// child task never reported (it always does).
    func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T? {
        await withTaskGroup(of: T?.self) { group in
            group.addTask { await body() }
            group.addTask { [self] in
                await waitUntilFired()
                return nil
            }
            var value: T?
            while let next = await group.next() {
                group.cancelAll()
                if let next { value = next }
            }
            return value
        }
    }

    /// Returns once fired or once the waiting task is cancelled (the body returned first).
    private func waitUntilFired() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    guard !state.fired && !Task.isCancelled else { return true }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            fire()
        }
    }
}
