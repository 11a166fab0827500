import SCLMCore

/// The protocol side of a host: responses and events as whole lines, to stdout through one ``LineWriter``
/// or to an in-process consumer through a ``LineQueue`` (a browser page's bridge).
///
/// Every protocol line of a host goes through one output, so lines never interleave and nothing else
/// reaches stdout. Safe to use from any task or thread.
package final class BridgeOutput: Sendable {
    let writer: any LineSink

    /// Creates an output that owns `fileDescriptor` (1 for stdout).
    package init(fileDescriptor: Int32 = 1) {
        writer = LineWriter(fileDescriptor: fileDescriptor)
    }

    /// Creates an output whose lines go to `lines`' consumer, in-process.
    package init(lines: LineQueue) {
        writer = lines
    }

    /// Writes a response line.
    package func send(_ response: BridgeResponse) {
        writer.writeLine { response.write(to: &$0) }
    }

    /// Writes an event line.
    package func emit(_ event: BridgeEvent) {
        writer.writeLine { event.write(to: &$0) }
    }

    /// Waits until every line written so far has reached the descriptor (or the reader went away), at
    /// most `timeout`; returns whether everything went out.
    @discardableResult
    package func drain(timeout: Duration = .seconds(5)) async -> Bool {
        await writer.drain(timeout: timeout)
    }

    /// Whether the reading side has gone away (`EPIPE`); later lines are dropped.
    package var isBroken: Bool { writer.isBroken }
}
