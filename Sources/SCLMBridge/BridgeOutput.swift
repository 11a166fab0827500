import SCLMCore

/// The protocol side of a host: responses and events as whole lines, to stdout through one ``LineWriter``
/// or to an in-process consumer through a ``LineQueue`` (a browser page's bridge).
///
/// Every protocol line of a host goes through one output, so lines never interleave and nothing else
/// reaches stdout. Safe to use from any task or thread.
package final class BridgeOutput: Sendable {
    /// The two ``LineSink``s, told apart by a `switch` rather than an existential: every answer passes
    /// here, and a call through `any LineSink` (no inlining of the line-building closure) cost `sclm bridge`
    /// about a fifth of its `getCurrentSlideName` throughput (bench/RESULTS.md).
    private enum Sink: Sendable {
        case descriptor(LineWriter)
        case queue(LineQueue)
    }

    private let sink: Sink

    /// Creates an output that writes `fileDescriptor` (1 for stdout; not closed) with a thread of its own, which
    /// ``close(timeout:)`` ends: the owner awaits it once, at the end.
    package init(fileDescriptor: Int32 = 1) {
        sink = .descriptor(LineWriter(fileDescriptor: fileDescriptor))
    }

    /// Creates an output whose lines go to `lines`' consumer, in-process.
    package init(lines: LineQueue) {
        sink = .queue(lines)
    }

    /// Writes a response line.
    package func send(_ response: BridgeResponse) {
        writeLine { response.write(to: &$0) }
    }

    /// Writes an event line.
    package func emit(_ event: BridgeEvent) {
        writeLine { event.write(to: &$0) }
    }

    @inline(__always)
    private func writeLine(_ build: (inout [UInt8]) -> Void) {
        switch sink {
        case .descriptor(let writer): writer.writeLine(build)
        case .queue(let queue): queue.writeLine(build)
        }
    }

    /// Runs `body`, whose lines may leave together (``LineSink/batch(_:)``).
    func batch(_ body: () -> Void) {
        switch sink {
        case .descriptor(let writer): writer.batch(body)
        case .queue(let queue): queue.batch(body)
        }
    }

    /// Blocks the calling thread (never a task) while too much waits, until it drains or `stop` says so.
    func waitWhileBackedUp(unless stop: () -> Bool) {
        switch sink {
        case .descriptor(let writer): writer.waitWhileBackedUp(unless: stop)
        case .queue(let queue): queue.waitWhileBackedUp(unless: stop)
        }
    }

    /// Wakes a thread blocked in ``waitWhileBackedUp(unless:)`` to look at its `stop` again.
    func interruptWaits() {
        switch sink {
        case .descriptor(let writer): writer.interruptWaits()
        case .queue(let queue): queue.interruptWaits()
        }
    }

    /// Waits until every line written so far has reached the descriptor (or the reader went away), at
    /// most `timeout`; returns whether everything went out.
    @discardableResult
    package func drain(timeout: Duration = .seconds(5)) async -> Bool {
        switch sink {
        case .descriptor(let writer): await writer.drain(timeout: timeout)
        case .queue(let queue): await queue.drain(timeout: timeout)
        }
    }

    /// Delivers every line written so far (at most `timeout`), then ends the output: a writer thread is
    /// joined, a queue's consumer gets its end; later lines are dropped.
    package func close(timeout: Duration = .seconds(5)) async {
        switch sink {
        case .descriptor(let writer): await writer.close(timeout: timeout)
        case .queue(let queue): await queue.close(timeout: timeout)
        }
    }

    /// Whether the reading side has gone away (`EPIPE`); later lines are dropped.
    package var isBroken: Bool {
        switch sink {
        case .descriptor(let writer): writer.isBroken
        case .queue(let queue): queue.isBroken
        }
    }
}
