import Dispatch
import Synchronization

/// Fires a callback at the earliest pending deadline, re-armed only when a new deadline is earlier.
///
/// With one default timeout, deadlines arrive in increasing order, so the timer is armed once per
/// expiry instead of once per request.
final class DeadlineTimer: @unchecked Sendable {
    // Invariant: `source` is a libdispatch object, whose calls are thread-safe (`dispatch_source_set_timer`
    // may be called from any thread); `armed` is behind its mutex.
    private let source: any DispatchSourceTimer
    private let armed = Mutex<DispatchTime?>(nil)

    /// Creates a timer on its own queue; it does nothing until ``start(onFire:)``. The source is activated
    /// at once (unarmed, with an empty handler), as libdispatch must never release an inactive source (a
    /// server that never ran) nor activate one without a handler.
    init(label: String) {
        source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: label))
        source.setEventHandler {}
        source.schedule(deadline: .distantFuture)
        source.activate()
    }

    /// Sets the callback run at each expiry; the fired deadline is forgotten first, so the next
    /// ``arm(at:)`` — from the callback, or a request admitted meanwhile — schedules again.
    func start(onFire: @escaping @Sendable () -> Void) {
        source.setEventHandler { [weak self] in
            self?.disarm()
            onFire()
        }
    }

    /// Makes sure the timer fires no later than `deadline`.
    func arm(at deadline: DispatchTime) {
        armed.withLock { current in
            if let current, current <= deadline { return }
            current = deadline
            source.schedule(deadline: deadline, leeway: .milliseconds(1))
        }
    }

    private func disarm() {
        armed.withLock { $0 = nil }
    }

    /// Stops the timer for good.
    func cancel() { source.cancel() }
}
