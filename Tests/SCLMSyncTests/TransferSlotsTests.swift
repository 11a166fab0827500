import SCLMTestSupport
import Synchronization
import Testing

@testable import SCLMSync

/// The bound on transfers: never more holders than slots, slots handed on in order, waiters cancellable.
@Suite(.tags(.small)) struct TransferSlotsTests {
    /// Counts holders at once and the most there ever were.
    private final class Gauge: Sendable {
        private let state = Mutex((now: 0, most: 0, order: [Int]()))
        func enter(_ id: Int) {
            state.withLock {
                $0.now += 1; $0.most = max($0.most, $0.now); $0.order.append(id)
            }
        }
        func leave() { state.withLock { $0.now -= 1 } }
        var most: Int { state.withLock { $0.most } }
        var order: [Int] { state.withLock { $0.order } }
    }

    @Test(arguments: [1, 2, 4])
    func neverMoreHoldersThanSlots(slots count: Int) async throws {
        let slots = TransferSlots(count)
        let gauge = Gauge()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 0..<24 {
                group.addTask {
                    try await slots.withSlot {
                        gauge.enter(id)
                        try await Task.sleep(for: .milliseconds(2))
                        gauge.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(gauge.most == count)
        #expect(gauge.order.count == 24)
    }

    @Test func aFreedSlotGoesToTheLongestWaiter() async throws {
        let slots = TransferSlots(1)
        let gauge = Gauge()
        let (opened, open) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await slots.withSlot {
                gauge.enter(0)
                for await _ in opened { break }
            }
        }
        while gauge.order.isEmpty { await Task.yield() }
        var waiters: [Task<Void, any Error>] = []
        for id in 1...3 {
            waiters.append(Task { try await slots.withSlot { gauge.enter(id) } })
            while slots.waiting < id { await Task.yield() }  // each waits before the next asks
        }
        open.yield()
        try await holder.value
        for waiter in waiters { try await waiter.value }
        #expect(gauge.order == [0, 1, 2, 3])
    }

    @Test func aCancelledWaiterThrowsAndTakesNoSlot() async throws {
        let slots = TransferSlots(1)
        let (opened, open) = AsyncStream.makeStream(of: Void.self)
        let started = Mutex(false)
        let holder = Task {
            try await slots.withSlot {
                started.withLock { $0 = true }
                for await _ in opened { break }
            }
        }
        while !started.withLock({ $0 }) { await Task.yield() }
        let waiter = Task { try await slots.withSlot { "ran" } }
        while slots.waiting < 1 { await Task.yield() }  // cancelled while it waits, not before it asks
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        open.yield()
        try await holder.value
        // The slot came back whole: one holder runs at once, and it runs.
        #expect(try await slots.withSlot { "free" } == "free")
    }
}
