import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A long-running child (usually `sclm bridge`) driven through pipes: write lines to its stdin, read its
/// stdout lines with timeouts (``output``), then close stdin and collect the exit status and stderr.
package final class BridgeProcess: @unchecked Sendable {
    // Invariant: `errorText` is only touched with `errorLock` held; the rest is immutable after init.
    private let process = Process()
    private let input: Pipe
    private let outputPipe: Pipe
    private let errors: Pipe
    private let errorLock = NSLock()
    private var errorText = Data()
    private let errorsDone = DispatchGroup()
    /// The child's stdout, line by line (`nil` unless started with ``OutputHandling/read``).
    package let output: LineStream?

    /// What happens to the child's stdout.
    package enum OutputHandling: Sendable {
        /// Read into ``output``.
        case read
        /// Closed at once: the child's writes fail with `EPIPE` (a reader that went away).
        case closed
        /// Kept open and never read: the child's writes block once the pipe is full (a stalled reader).
        case unread
    }

    /// Starts `sclm` (`--home home` first) with `arguments`.
    ///
    /// - Throws: when the process cannot start.
    package convenience init(
        sclm arguments: [String], home: String, environment: [String: String] = [:], output: OutputHandling = .read
    ) throws {
        try self.init(
            executable: ProcessRunner.sclmPath, arguments: ["--home", home] + arguments, environment: environment,
            output: output)
    }

    /// Starts `executable` with `arguments`.
    ///
    /// - Throws: when the process cannot start.
    package init(
        executable: String, arguments: [String], environment: [String: String] = [:],
        output handling: OutputHandling = .read
    ) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "NO_COLOR": "1"]
        env["HOME"] = ProcessInfo.processInfo.environment["HOME"]
        process.environment = env.merging(environment) { _, new in new }
        (input, outputPipe, errors) = try SpawnLock.run(process)
        switch handling {
        case .read: output = LineStream(outputPipe.fileHandleForReading)
        case .closed:
            output = nil
            try? outputPipe.fileHandleForReading.close()
        case .unread: output = nil
        }
        errorsDone.enter()
        Thread { [self] in
            while true {
                let data = errors.fileHandleForReading.availableData
                if data.isEmpty { break }
                errorLock.withLock { errorText.append(data) }
            }
            errorsDone.leave()
        }.start()
    }

    /// The process id.
    package var pid: Int32 { process.processIdentifier }

    // MARK: - Input

    /// Writes `text` as is (no newline added).
    package func write(_ text: String) {
        write(Data(text.utf8))
    }

    /// Writes raw bytes.
    package func write(_ bytes: Data) {
        try? input.fileHandleForWriting.write(contentsOf: bytes)
    }

    /// Writes `line` and a newline.
    package func send(_ line: String) {
        write(line + "\n")
    }

    /// Writes `message` as one JSON line.
    package func send(json message: [String: Any]) {
        let data = (try? JSONSerialization.data(withJSONObject: message)) ?? Data()
        write(data + Data("\n".utf8))
    }

    /// Closes stdin (end of input).
    package func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    // MARK: - Output

    /// The next unread stdout line, or `nil` when none arrives within `timeout` seconds.
    package func nextLine(timeout: TimeInterval = HangGuard.seconds) async -> String? {
        await output?.nextLine(timeout: timeout)
    }

    /// The next unread stdout line parsed as a JSON object.
    package func nextMessage(timeout: TimeInterval = HangGuard.seconds) async -> [String: Any]? {
        await output?.nextMessage(timeout: timeout)
    }

    /// The response to `guid`, wherever it is among the unread lines.
    package func response(to guid: String?, timeout: TimeInterval = HangGuard.seconds) async -> [String: Any]? {
        await output?.response(to: guid, timeout: timeout)
    }

    /// The next event named `name`.
    package func event(_ name: String, timeout: TimeInterval = HangGuard.seconds) async -> [String: Any]? {
        await output?.event(name, timeout: timeout)
    }

    /// Every stdout line read so far.
    package var allLines: [String] { output?.allLines ?? [] }

    /// Lines read and not yet taken.
    package var unreadLines: [String] { output?.unreadLines ?? [] }

    /// `line` parsed as a JSON object, if it is one.
    package static func object(_ line: String) -> [String: Any]? { LineStream.object(line) }

    /// Everything written to stderr so far.
    package var stderr: String {
        errorLock.withLock { String(decoding: errorText, as: UTF8.self) }
    }

    // MARK: - Ending

    /// Closes stdin and waits for the exit; kills the process after `timeout` seconds. Returns the exit
    /// status (128 + signal when killed by a signal).
    @discardableResult
    package func finish(timeout: TimeInterval = 30) async -> Int32 {
        closeInput()
        return await waitForExit(timeout: timeout)
    }

    /// Waits for the exit (killing it after `timeout` seconds) and for its output to be read.
    package func waitForExit(timeout: TimeInterval = 30) async -> Int32 {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        if process.isRunning { kill(SIGKILL) }
        while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        await output?.ended()
        for _ in 0..<500 where errorsDone.wait(timeout: .now()) == .timedOut {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// Sends `signal` to the process.
    package func kill(_ signal: Int32) {
        _ = Glibc.kill(process.processIdentifier, signal)
    }

    deinit {
        if process.isRunning { kill(SIGKILL) }
    }
}
