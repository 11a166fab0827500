/// Where a ``BridgeOutput``'s lines go: a file descriptor (``LineWriter``) or an in-process consumer
/// (``LineQueue``). Either keeps lines whole and in order, bounds what waits, and drains.
protocol LineSink: Sendable {
    /// Appends one line: `build` writes its bytes (without the newline).
    func writeLine(_ build: (inout [UInt8]) -> Void)
    /// Runs `body`, whose lines may leave together.
    func batch(_ body: () -> Void)
    /// Blocks the calling thread (never a task) while too much waits, until it drains or `stop` says so.
    func waitWhileBackedUp(unless stop: () -> Bool)
    /// Wakes a thread in ``waitWhileBackedUp(unless:)`` to look at its `stop` again.
    func interruptWaits()
    /// Waits until every line so far is out (or `timeout` passed); returns whether it all went out.
    func drain(timeout: Duration) async -> Bool
    /// Delivers what waits (at most `timeout`), then ends: later lines are dropped and nothing of the sink
    /// runs any more.
    func close(timeout: Duration) async
    /// Whether the consumer went away; later lines are dropped.
    var isBroken: Bool { get }
}
