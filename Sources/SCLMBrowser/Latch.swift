import Synchronization

/// A one-shot value: the first ``fire(_:)`` sets it and resumes everyone in ``wait()``.
final class Latch<Value: Sendable>: Sendable {
    private let state = Mutex<(value: Value?, waiters: [CheckedContinuation<Value, Never>])>((nil, []))

    /// Whether a value was set.
    var isFired: Bool { state.withLock { $0.value != nil } }

    /// The value, if one was set.
    var value: Value? { state.withLock { $0.value } }

    /// Sets the value unless one was set already.
    func fire(_ value: Value) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, Never>] in
            guard state.value == nil else { return [] }
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    /// The value, once set.
    func wait() async -> Value {
        await withCheckedContinuation { continuation in
            let value = state.withLock { state -> Value? in
                if state.value == nil { state.waiters.append(continuation) }
                return state.value
            }
            if let value { continuation.resume(returning: value) }
        }
    }
}
