import Foundation
import Synchronization

/// An OS thread running one blocking loop (a `read(2)` loop, typically), whose end can be awaited.
///
/// A blocking read must not park a thread of Swift's cooperative pool, so each reader owns a thread; the
/// owner awaits ``join(within:)`` before it closes the descriptor the loop reads, so a descriptor is never
/// closed (and its number reused) under a live reader.
package final class ReaderThread: Sendable {
    private let ended = Atomic(false)
    private let joiners = Waiters()

    private init() {}

    /// Starts `body` on a thread named `name` (its first 15 bytes, for `ps -T` and debuggers) with a stack of `stackBytes` (deeply nested
    /// JSON may be parsed on it).
    package static func start(
        name: String, stackBytes: Int = 8 << 20, _ body: @escaping @Sendable () -> Void
    ) -> ReaderThread {
        let reader = ReaderThread()
        let thread = Thread {
            // Named from inside, so the system sees it too (`ps -T`, /proc; Linux keeps 15 bytes).
            Thread.current.name = String(decoding: name.utf8.prefix(15), as: UTF8.self)
            body()
            reader.ended.store(true, ordering: .releasing)
            reader.joiners.wakeAll()
        }
        thread.name = name
        thread.stackSize = stackBytes
        thread.start()
        return reader
    }

    /// Whether the loop has returned.
    package var hasEnded: Bool { ended.load(ordering: .acquiring) }

    /// Returns once the loop has returned, or after `patience` when given (`false` then: the loop still
    /// runs, so its descriptor must stay open). Not cut short by the caller's cancellation.
    @discardableResult
    package func join(within patience: Duration? = nil) async -> Bool {
        await withCancellationShield { [self] in
            guard let patience else {
                await joiners.wait { hasEnded }
                return true
            }
            return await withTimeout(patience) { [self] in
                await joiners.wait { hasEnded }
                return hasEnded
            } ?? false
        }
    }
}
