import Synchronization

/// At most `count` transfers at once across the jobs of a content phase.
///
/// A job holds a slot while it downloads, not while it unpacks, flushes and swaps its package in: the
/// next download starts while the last one is checked and written to disk. Waiters get slots in the order
/// they asked; a cancelled waiter throws `CancellationError` without taking one.
final class TransferSlots: Sendable {
    private struct State {
        var free: Int
        var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        var queue: [UInt64] = []
        var lastTicket: UInt64 = 0
    }

    private let state: Mutex<State>

    /// `count` slots (at least one).
    /// The number of slots.
    let width: Int

    init(_ count: Int) {
        width = max(1, count)
        state = Mutex(State(free: width))
    }

    /// How many tasks are waiting for a slot now.
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// Runs `body` holding a slot, waiting for one first.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while it waits; what `body` throws.
    func withSlot<T>(_ body: () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async throws {
        let ticket = state.withLock { state in
            state.lastTicket += 1
            return state.lastTicket
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let granted: Bool? = state.withLock { state in
                    if Task.isCancelled { return nil }
                    if state.free > 0 {
                        state.free -= 1
                        return true
                    }
                    state.waiters[ticket] = continuation
                    state.queue.append(ticket)
                    return false
                }
                switch granted {
                case true?: continuation.resume()
                case nil: continuation.resume(throwing: CancellationError())
                case false?: break
                }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: ticket) }?.resume(throwing: CancellationError())
        }
    }

    /// Hands the slot to the longest waiter still waiting, or frees it.
    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            while !state.queue.isEmpty {
                if let waiter = state.waiters.removeValue(forKey: state.queue.removeFirst()) { return waiter }
            }
            state.free += 1
            return nil
        }
        next?.resume()
    }
}
