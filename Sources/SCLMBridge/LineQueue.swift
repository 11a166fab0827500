import Foundation
import SCLMCore

/// Lines for an in-process consumer (a browser page's bridge): whole lines queued in order, taken one at a
/// time with ``next()``.
///
/// Writers never block on the consumer; a writer that checks ``waitWhileBackedUp(unless:)`` (the server's
/// input side) blocks while more than ``LineWriter/highWaterBytes`` wait. ``drain(timeout:)`` returns once
/// the consumer has taken every line and come back for the next; after ``finish()`` lines are dropped.
package final class LineQueue: LineSink, @unchecked Sendable {
    // Invariant: every `var` is read and written with `condition` locked.
    private let condition = NSCondition()
    private var lines: [[UInt8]] = []
    private var head = 0
    private var waitingBytes = 0
    private var isConsuming = false
    private var isFinished = false
    private var consumer: CheckedContinuation<[UInt8]?, Never>?
    /// Tasks in ``drain(timeout:)``, woken when the consumer comes back and at the end.
    private let idle = Waiters()

    /// Creates an empty queue.
    package init() {}

    func writeLine(_ build: (inout [UInt8]) -> Void) {
        var line: [UInt8] = []
        build(&line)
        condition.lock()
        guard !isFinished else { return condition.unlock() }
        if let consumer {
            self.consumer = nil
            isConsuming = true
            condition.unlock()
            return consumer.resume(returning: line)
        }
        lines.append(line)
        waitingBytes += line.count
        condition.unlock()
    }

    func batch(_ body: () -> Void) { body() }

    func waitWhileBackedUp(unless stop: () -> Bool) {
        condition.lock()
        while waitingBytes > LineWriter.highWaterBytes && !isFinished && !stop() {
            condition.wait()
        }
        condition.unlock()
    }

    func interruptWaits() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// The next line, waiting for one; `nil` after ``finish()``. Calling it again says the line before
    /// was handled (``drain(timeout:)`` waits for that).
    package func next() async -> [UInt8]? {
        await withCheckedContinuation { continuation in
            condition.lock()
            isConsuming = false
            guard head == lines.count else {
                let line = lines[head]
                head += 1
                waitingBytes -= line.count
                if head == lines.count { (lines, head) = ([], 0) }
                isConsuming = true
                condition.broadcast()
                condition.unlock()
                return continuation.resume(returning: line)
            }
            guard !isFinished else {
                condition.unlock()
                return continuation.resume(returning: nil)
            }
            consumer = continuation
            condition.broadcast()
            condition.unlock()
            // The consumer is back for the next line: everything before was handled.
            idle.wakeAll()
        }
    }

    /// Ends the queue: the consumer's ``next()`` returns `nil`, later lines are dropped.
    package func finish() {
        condition.lock()
        isFinished = true
        let consumer = self.consumer
        self.consumer = nil
        condition.broadcast()
        condition.unlock()
        consumer?.resume(returning: nil)
        idle.wakeAll()
    }

    private var isIdle: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isFinished || (head == lines.count && !isConsuming)
    }

    func drain(timeout: Duration) async -> Bool {
        await withTimeout(timeout) { [self] in
            await idle.wait { isIdle }
            return isIdle
        } ?? false
    }

    func close(timeout: Duration) async {
        _ = await drain(timeout: timeout)
        finish()
    }

    var isBroken: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isFinished
    }
}
