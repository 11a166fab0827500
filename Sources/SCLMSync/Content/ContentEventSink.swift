import Synchronization

/// Hands content events to the caller's handler, dropping progress events that come less than
/// ``minimumInterval`` after the previous one of the same presentation (other events always pass).
///
/// Called from many threads at once (transfer and unpack threads, job tasks); the handler must be
/// thread-safe and quick.
final class ContentEventSink: Sendable {
    /// The shortest gap between two progress events of one presentation.
    static let minimumInterval: Duration = .milliseconds(100)

    private let handler: @Sendable (ContentEvent) -> Void
    private let lastProgress = Mutex<[Int64: ContinuousClock.Instant]>([:])

    init(_ handler: @escaping @Sendable (ContentEvent) -> Void) { self.handler = handler }

    /// Passes `event` on, unless it is a progress event that comes too soon.
    func emit(_ event: ContentEvent, at now: ContinuousClock.Instant = .now) {
        if case .progress(let progress) = event {
            let isDue = lastProgress.withLock { last in
                if let previous = last[progress.presentationId], now - previous < ContentEventSink.minimumInterval {
                    return false
                }
                last[progress.presentationId] = now
                return true
            }
            guard isDue else { return }
        }
        handler(event)
    }
}
