import SCLMCore
import SCLMTestSupport
import Synchronization
import Testing

/// At most `limit` holders, the others served in order, and a cancelled waiter holds nothing.
@Suite(.tags(.small)) struct AsyncSemaphoreTests {
    /// How many hold a permit now, the most at once, and how many are done.
    final class Holders: Sendable {
        let counts = Mutex((now: 0, peak: 0, done: 0))
    }

    /// Tasks that each hold a permit for a moment never exceed the limit together, and all get one.
    @Test func neverMoreHoldersThanTheLimit() async throws {
        let semaphore = AsyncSemaphore(limit: 3)
        let holders = Holders()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await semaphore.withPermit {
                        holders.counts.withLock {
                            $0.now += 1
                            $0.peak = max($0.peak, $0.now)
                        }
                        try await Task.sleep(for: .milliseconds(5))
                        holders.counts.withLock {
                            $0.now -= 1
                            $0.done += 1
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(holders.counts.withLock { $0.peak } == 3)
        #expect(holders.counts.withLock { $0.done } == 20)
    }

    /// A waiter cancelled before its turn throws and takes no permit: the next waiter gets the freed one.
    @Test func aCancelledWaiterTakesNothing() async throws {
        let semaphore = AsyncSemaphore(limit: 1)
        let held = try await semaphore.permit()
        let cancelled = Task { try await semaphore.acquire() }
        try await Task.sleep(for: .milliseconds(20))
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        let next = Task { try await semaphore.permit() }
        held.release()
        held.release()  // a second release gives nothing back
        let permit = try await next.value
        let third = Task { try await semaphore.permit() }
        try await Task.sleep(for: .milliseconds(20))
        #expect(!third.isCancelled)
        permit.release()
        _ = try await third.value
    }
}
