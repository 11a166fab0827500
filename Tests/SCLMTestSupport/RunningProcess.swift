import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started by ``ProcessRunner``, whose output can be watched while it runs and which can
/// be signalled (Ctrl-C tests) before it is waited for.
package final class RunningProcess: Sendable {
    private let process: Mutex<Process>
    private let output = Buffer()
    private let errors = Buffer()
    private let readersDone = DispatchGroup()

    /// The process id.
    package let pid: Int32

    /// Starts `executable` with `arguments`, writes `stdin` to it and closes it.
    ///
    /// The child inherits the signal mask of the spawning test thread, which blocks SIGINT and SIGTERM.
    /// `sclm` still receives them (its Dispatch signal sources read blocked signals through a signalfd), so
    /// the mask is left alone: clearing it on the spawning thread, even briefly, lets that thread take a
    /// SIGCHLD meant for Foundation's child monitor, and the child whose exit it announced is never reaped.
    /// (The dev-server, a Python program with ordinary handlers, clears its own mask: ``ServerProcess``.)
    ///
    /// - Throws: when the process cannot be started.
    package init(_ executable: String, _ arguments: [String], stdin: Data, environment: [String: String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let (input, outputPipe, errorPipe) = try SpawnLock.run(process)
        self.process = Mutex(process)
        pid = process.processIdentifier
        collect(outputPipe, into: output)
        collect(errorPipe, into: errors)
        try? input.fileHandleForWriting.write(contentsOf: stdin)
        try? input.fileHandleForWriting.close()
    }

    /// Everything written to stdout so far.
    package var stdout: String { output.text }

    /// Everything written to stderr so far.
    package var stderr: String { errors.text }

    /// Whether the process is still running.
    package var isRunning: Bool { process.withLock { $0.isRunning } }

    /// Sends `signal` (e.g. `SIGINT`) to the process.
    package func send(_ signal: Int32) { kill(pid, signal) }

    /// Waits until stdout satisfies `condition` (checked every 20 ms) or the process exits.
    ///
    /// - Returns: whether the condition was met.
    package func waitForOutput(timeout: Duration = .seconds(30), _ condition: (String) -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(stdout) { return true }
            if !isRunning { return condition(stdout) }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Sends `signal` the moment `condition` holds, checking every millisecond on a thread of its own, so
    /// a short-lived state (a staging folder during an unpack) is caught even when the cooperative pool is
    /// busy.
    ///
    /// - Returns: whether the signal was sent (`false` when the process ended or `timeout` passed first).
    package func send(_ signal: Int32, when condition: @escaping @Sendable () -> Bool, timeout: TimeInterval = 60)
        async -> Bool
    {
        await withCheckedContinuation { continuation in
            Thread {
                let deadline = Date().addingTimeInterval(timeout)
                while Date() < deadline, self.isRunning {
                    if condition() {
                        self.send(signal)
                        return continuation.resume(returning: true)
                    }
                    usleep(1000)
                }
                continuation.resume(returning: false)
            }.start()
        }
    }

    /// Waits for the process to exit (killing it after `timeout` seconds) and collects its output, on a
    /// thread of its own so no thread of the cooperative pool is held.
    package func result(timeout: TimeInterval = 60) async -> ProcessResult {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.waitUntilExit(timeout: timeout)) }.start()
        }
    }

    /// Blocks until the process exits (killing it after `timeout` seconds) and returns its output.
    package func waitUntilExit(timeout: TimeInterval = 60) -> ProcessResult {
        if readersDone.wait(timeout: .now() + timeout) == .timedOut {
            send(SIGKILL)
            readersDone.wait()
        }
        let child = process.withLock { $0 }
        child.waitWithoutSpinning()
        let (reason, status) = (child.terminationReason, child.terminationStatus)
        return ProcessResult(status: reason == .uncaughtSignal ? 128 + status : status, stdout: stdout, stderr: stderr)
    }

    /// Reads `pipe` to its end on a thread of its own (a blocked read must not hold a Dispatch worker).
    private func collect(_ pipe: Pipe, into buffer: Buffer) {
        readersDone.enter()
        let handle = pipe.fileHandleForReading
        Thread { [readersDone] in
            while case let data = handle.availableData, !data.isEmpty {
                buffer.append(data)
            }
            // At end of file: closed now, not whenever Foundation lets the Process go (it may keep it for
            // the whole run). Thousands of stale pipe ends made the test process's /proc/self/fd listing
            // long enough to trip a buffer over-read in Foundation's Process.run() (a SIGSEGV).
            try? handle.close()
            readersDone.leave()
        }.start()
    }

    /// Bytes read from one of the child's pipes so far.
    private final class Buffer: Sendable {
        private let data = Mutex(Data())

        func append(_ bytes: Data) { data.withLock { $0.append(bytes) } }

        var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
    }
}

extension Process {
    /// Waits for the process to exit by sleeping between checks.
    ///
    /// Foundation's `waitUntilExit()` spins the run loop on Linux, a full core per waiter on a 2-core
    /// machine running hundreds of tests at once; a sleeping waiter leaves the CPU to them.
    package func waitWithoutSpinning() {
        while isRunning { usleep(5_000) }
    }
}
