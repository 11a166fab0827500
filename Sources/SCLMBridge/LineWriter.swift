import Foundation
import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The only writer of one file descriptor: whole lines from any thread, written by a thread of its own.
///
/// A line is built straight into the pending buffer under a lock, so two lines never interleave. A small
/// batch is written at once by its caller when the descriptor can take it without blocking; otherwise the
/// writer thread takes everything pending, so a busy host makes one `write(2)` per batch instead of one
/// per line. Callers never block on the descriptor: a reader that stops reading stalls only the writer
/// thread, so the input side still sees end of file and can shut down (``drain(timeout:)`` gives up after
/// its timeout). Short writes, `EINTR` and `EAGAIN`
/// are retried; `EPIPE` (the reader went away; SIGPIPE must be ignored) marks the writer broken and drops
/// later lines.
final class LineWriter: LineSink {
    private let core: Core
    private let thread: ReaderThread

    /// While writing is held back (``batch(_:)``), the writer thread still takes the pending lines once they
    /// reach this size (about a dozen answers), so the peer reads the first answers of a long input chunk
    /// while the rest are being made: with 64 requests in flight this doubled bridge.ping's messages/s
    /// against holding the whole chunk (bench/RESULTS.md).
    static let heldBatchBytes = 2048

    /// Above this many pending bytes, ``waitWhileBackedUp()`` blocks its caller.
    static let highWaterBytes = 16 * 1024 * 1024

    /// Starts a writer thread for `fileDescriptor` (not closed until ``close()``, which calls `closing`:
    /// the owner of a child's pipe closes it its own way).
    init(fileDescriptor: Int32, closing: @escaping @Sendable (Int32) -> Void = { _ = Glibc.close($0) }) {
        core = Core(fileDescriptor: fileDescriptor, closing: closing)
        let core = self.core
        thread = ReaderThread.start(name: "sclm-line-writer") { core.run() }
    }

    /// Appends one line: `build` writes its bytes (without the newline) into the pending buffer.
    func writeLine(_ build: (inout [UInt8]) -> Void) { core.append(build) }

    /// Appends one line of ready bytes.
    func writeLine(_ bytes: [UInt8]) { core.append { $0.append(contentsOf: bytes) } }

    /// Runs `body` with writing held back, then lets everything it (and anyone else) added go at once —
    /// written by the caller when it fits in `PIPE_BUF` and the descriptor is writable, else by the writer
    /// thread: the answers to one input chunk leave in a few `write(2)`s of at least ``heldBatchBytes``
    /// each instead of one per line.
    func batch(_ body: () -> Void) {
        core.hold(true)
        body()
        core.hold(false)
    }

    /// Whether the reader went away.
    var isBroken: Bool { core.isBroken }

    /// Blocks the calling thread while more than ``highWaterBytes`` wait to be written, so a peer that
    /// stops reading slows the input side down instead of growing memory, until `stop` says so (looked at
    /// after each write and on ``interruptWaits()``). Never call it from a task.
    func waitWhileBackedUp(unless stop: () -> Bool) { core.waitWhileBackedUp(unless: stop) }

    /// Waits until everything written so far has been handed to the descriptor, or `timeout` passed;
    /// returns whether it all went out.
    @discardableResult
    func drain(timeout: Duration = .seconds(3600)) async -> Bool {
        let core = self.core
        return await withTimeout(timeout) {
            await core.idle.wait { core.isIdle }
            return core.isIdle
        } ?? false
    }

    /// Wakes a caller blocked in ``waitWhileBackedUp(unless:)`` to look at its `stop` again.
    func interruptWaits() { core.interruptWaits() }

    /// Writes what is pending, then closes the descriptor; later lines are dropped.
    func close() { core.stop(closing: true) }

    /// Writes what is pending (at most `timeout`), then ends the writer thread and joins it; the descriptor
    /// stays open. A thread blocked on a peer that stopped reading is given up on after `timeout`.
    func close(timeout: Duration) async {
        await drain(timeout: timeout)
        core.stop(closing: false)
        await thread.join(within: timeout)
    }

    /// Closes (``close()``) and waits until the writer thread has written what was pending and closed the
    /// descriptor, so its owner may close what it shares with it.
    func closeAndJoin() async {
        close()
        await thread.join()
    }

    /// The state shared by callers and the writer thread.
    private final class Core: @unchecked Sendable {
        // Invariant: every `var` is read and written with `condition` locked.
        private let fileDescriptor: Int32
        private let condition = NSCondition()
        private var pending: [UInt8] = []
        private var spare: [UInt8] = []
        private var holds = 0
        private var isWriting = false
        private var isWaiting = false
        private var stopping = false
        private var closesDescriptor = false
        private var broken = false

        private let closing: @Sendable (Int32) -> Void
        /// Tasks in ``LineWriter/drain(timeout:)``, woken after each write and at the end.
        let idle = Waiters()

        init(fileDescriptor: Int32, closing: @escaping @Sendable (Int32) -> Void) {
            self.fileDescriptor = fileDescriptor
            self.closing = closing
            pending.reserveCapacity(1 << 16)
            spare.reserveCapacity(1 << 16)
        }

        func append(_ build: (inout [UInt8]) -> Void) {
            condition.lock()
            guard !broken && !stopping else { return condition.unlock() }
            build(&pending)
            pending.append(0x0A)
            handOver()
        }

        func hold(_ on: Bool) {
            condition.lock()
            holds += on ? 1 : -1
            handOver()
        }

        /// Gets pending lines on their way; called with the lock held, returns with it released.
        ///
        /// A small batch is written by the caller itself when `poll(2)` says the descriptor is writable:
        /// a write of at most `PIPE_BUF` bytes then cannot block, and skipping the hand-off to the writer
        /// thread keeps latency low on a busy machine. Anything else wakes the writer thread.
        private func handOver() {
            guard !pending.isEmpty, !isWriting, !broken else { return condition.unlock() }
            guard holds == 0 else {
                if !isHeldBack { wakeWriter() }
                return condition.unlock()
            }
            guard pending.count <= Int(PIPE_BUF), isWritableNow else {
                wakeWriter()
                return condition.unlock()
            }
            writePending()
            condition.broadcast()
            condition.unlock()
            idle.wakeAll()
        }

        /// Wakes the writer thread if it waits, once: the lines appended before it runs need no second
        /// wake-up (a `futex` call per answer cost a twentieth of the bridge's time). Called with the lock held.
        private func wakeWriter() {
            guard isWaiting else { return }
            isWaiting = false
            condition.broadcast()
        }

        /// Whether a ``LineWriter/batch(_:)`` holds the pending lines back (they are under
        /// ``LineWriter/heldBatchBytes``).
        private var isHeldBack: Bool { holds > 0 && pending.count < LineWriter.heldBatchBytes }

        private var isWritableNow: Bool {
            var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
            return poll(&descriptor, 1, 0) == 1 && descriptor.revents & Int16(POLLOUT) != 0
        }

        /// Writes everything pending once; called with the lock held and returns with it held.
        private func writePending() {
            swap(&pending, &spare)
            isWriting = true
            condition.unlock()
            let ok = Self.writeAll(spare, to: fileDescriptor)
            spare.removeAll(keepingCapacity: spare.capacity <= 1 << 22)
            condition.lock()
            isWriting = false
            if !ok {
                broken = true
                pending.removeAll()
            }
        }

        var isBroken: Bool {
            condition.lock()
            defer { condition.unlock() }
            return broken
        }

        var isIdle: Bool {
            condition.lock()
            defer { condition.unlock() }
            return !isWriting && (pending.isEmpty || broken)
        }

        func waitWhileBackedUp(unless stop: () -> Bool) {
            condition.lock()
            while pending.count > LineWriter.highWaterBytes && !broken && !stop() {
                condition.wait()
            }
            condition.unlock()
        }

        func interruptWaits() {
            condition.lock()
            condition.broadcast()
            condition.unlock()
        }

        func stop(closing: Bool) {
            condition.lock()
            stopping = true
            closesDescriptor = closesDescriptor || closing
            condition.broadcast()
            condition.unlock()
        }

        /// The writer thread: waits for lines, writes them in batches, ends after ``stop(closing:)``.
        func run() {
            condition.lock()
            while true {
                while (pending.isEmpty || isHeldBack || isWriting || broken) && !stopping {
                    isWaiting = true
                    condition.wait()
                    isWaiting = false
                }
                if isWriting {
                    condition.wait()
                    continue
                }
                if pending.isEmpty || broken {
                    guard stopping else { continue }
                    break
                }
                writePending()
                condition.broadcast()
                idle.wakeAll()
            }
            broken = true
            let closes = closesDescriptor
            condition.broadcast()
            condition.unlock()
            idle.wakeAll()
            if closes { closing(fileDescriptor) }
        }

        /// Writes all of `bytes` (``FileSystem/writeAll(_:_:)``); `false` when the descriptor failed.
        private static func writeAll(_ bytes: [UInt8], to fileDescriptor: Int32) -> Bool {
            bytes.withUnsafeBytes { FileSystem.writeAll(fileDescriptor, $0) } == 0
        }
    }
}
