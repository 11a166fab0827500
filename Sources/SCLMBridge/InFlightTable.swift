import Dispatch
import Synchronization

/// The requests and notifications that are running, keyed by GUID (notifications by an internal key).
///
/// Whoever takes an entry out of the table answers it: the handler when it finishes, the deadline timer
/// on timeout, `bridge.cancel`, or shutdown. Taking is atomic, so each GUID gets exactly one response and
/// a late result (after a timeout or cancel) finds no entry and is dropped.
final class InFlightTable: Sendable {
    /// One running request.
    struct Entry: Sendable {
        /// Distinguishes reuses of the same GUID over time.
        let serial: UInt64
        let guid: String?
        let command: String
        let deadline: DispatchTime
        var task: Task<Void, Never>?
    }

    /// The outcome of asking to run a request.
    enum Admission: Equatable {
        case admitted(key: String, serial: UInt64)
        case duplicate
        case full
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var nextSerial: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Adds a request unless its GUID is already running or `limit` entries are running.
    func admit(guid: String?, command: String, deadline: DispatchTime, limit: Int) -> Admission {
        state.withLock { state in
            if let guid, state.entries[guid] != nil { return .duplicate }
            guard state.entries.count < limit else { return .full }
            state.nextSerial += 1
            let serial = state.nextSerial
            // A NUL can never appear in a valid GUID, so notification keys cannot collide with GUIDs.
            let key = guid ?? "\u{0}\(serial)"
            state.entries[key] = Entry(serial: serial, guid: guid, command: command, deadline: deadline, task: nil)
            return .admitted(key: key, serial: serial)
        }
    }

    /// Records the task running an entry; `false` when the entry is already gone (answered).
    func attach(_ task: Task<Void, Never>, key: String, serial: UInt64) -> Bool {
        state.withLock { state in
            guard state.entries[key]?.serial == serial else { return false }
            state.entries[key]?.task = task
            return true
        }
    }

    /// Takes the entry `key` if it is still the one with `serial`.
    func finish(key: String, serial: UInt64) -> Entry? {
        state.withLock { state in
            guard state.entries[key]?.serial == serial else { return nil }
            return state.entries.removeValue(forKey: key)
        }
    }

    /// Takes the running request with `guid`, if any.
    func take(guid: String) -> Entry? {
        state.withLock { $0.entries.removeValue(forKey: guid) }
    }

    /// Takes every entry whose deadline is not after `now`; also returns the earliest remaining deadline.
    func takeExpired(now: DispatchTime) -> (expired: [Entry], next: DispatchTime?) {
        state.withLock { state in
            var expired: [Entry] = []
            var next: DispatchTime?
            for (key, entry) in state.entries {
                if entry.deadline <= now {
                    expired.append(entry)
                    state.entries.removeValue(forKey: key)
                } else if next.map({ entry.deadline < $0 }) ?? true {
                    next = entry.deadline
                }
            }
            return (expired, next)
        }
    }

    /// Takes every entry (shutdown).
    func takeAll() -> [Entry] {
        state.withLock { state in
            defer { state.entries.removeAll() }
            return Array(state.entries.values)
        }
    }

    /// Whether the entry `key` with `serial` is still running (not answered, cancelled or timed out).
    func isRunning(key: String, serial: UInt64) -> Bool {
        state.withLock { $0.entries[key]?.serial == serial }
    }

    /// Whether a request with `guid` is running.
    func isRunning(guid: String) -> Bool { state.withLock { $0.entries[guid] != nil } }

    /// How many entries are running.
    var count: Int { state.withLock { $0.entries.count } }
}

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
    /// at once (unarmed), as libdispatch must never release an inactive source (a server that never ran).
    init(label: String) {
        source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: label))
        source.schedule(deadline: .distantFuture)
        source.activate()
    }

    /// Sets the callback run at each expiry.
    func start(onFire: @escaping @Sendable () -> Void) {
        source.setEventHandler(handler: onFire)
    }

    /// Makes sure the timer fires no later than `deadline`.
    func arm(at deadline: DispatchTime) {
        armed.withLock { current in
            if let current, current <= deadline { return }
            current = deadline
            source.schedule(deadline: deadline, leeway: .milliseconds(1))
        }
    }

    /// Called first thing in the fire handler: the fired deadline is gone, so the next ``arm(at:)``
    /// (from the handler, or a request admitted meanwhile) schedules again.
    func disarm() {
        armed.withLock { $0 = nil }
    }

    /// Stops the timer for good.
    func cancel() { source.cancel() }
}
