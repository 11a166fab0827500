import SCLMCore

/// The protocol side of stdout: responses and events as whole lines, through one ``LineWriter``.
///
/// Every protocol line of a host goes through one output, so lines never interleave and nothing else
/// reaches stdout. Safe to use from any task or thread.
public final class BridgeOutput: Sendable {
    let writer: LineWriter

    /// Creates an output that owns `fileDescriptor` (1 for stdout).
    public init(fileDescriptor: Int32 = 1) {
        writer = LineWriter(fileDescriptor: fileDescriptor)
    }

    /// Writes a response line.
    public func send(_ response: BridgeResponse) {
        writer.writeLine { response.write(to: &$0) }
    }

    /// Writes an event line.
    public func emit(_ event: BridgeEvent) {
        writer.writeLine { event.write(to: &$0) }
    }

    /// Waits until every line written so far has reached the descriptor (or the reader went away), at
    /// most `timeout`; returns whether everything went out.
    @discardableResult
    public func drain(timeout: Duration = .seconds(5)) async -> Bool {
        await writer.drain(timeout: timeout)
    }

    /// Whether the reading side has gone away (`EPIPE`); later lines are dropped.
    public var isBroken: Bool { writer.isBroken }
}
