import Foundation
import SCLMCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback server run as a child process (a Python script) that prints its base URL as its first
/// stdout line; stopped on ``stop()`` or when released.
package final class ServerProcess: Sendable {
    /// The base URL the server printed, e.g. `http://127.0.0.1:43123`.
    package let url: URL
    private let process: Mutex<Process?>
    private let logPath: String

    /// Starts `python3 SCRIPT ARGUMENTS…` in the package root and waits (up to 30 s) for its URL line.
    ///
    /// - Throws: `SCLMError` when the server does not start or prints no URL.
    package init(script: String, arguments: [String] = []) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProcessRunner.python)
        // A child spawned from a test thread inherits that thread's blocked-signal mask, which would keep
        // SIGTERM from ever reaching the server; this trampoline clears the mask, then becomes the server,
        // so `stop()` ends it cleanly. Both start without `site` (-S): the servers use the standard library
        // only, and site's start-up hooks cost each start more than the trampoline itself.
        let trampoline =
            "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, set()); "
            + "os.execv(sys.executable, [sys.executable, '-S'] + sys.argv[1:])"
        process.arguments = ["-S", "-c", trampoline, script] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: ProcessRunner.packageRoot)
        let logPath = NSTemporaryDirectory() + "/sclm-server-\(getpid())-\(UUID().uuidString).log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let output = try SpawnLock.withLock {
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle(forWritingAtPath: logPath)
            process.standardInput = FileHandle.nullDevice
            try process.run()
            return output
        }
        self.logPath = logPath
        self.process = Mutex(process)
        guard let line = ServerProcess.firstLine(of: output.fileHandleForReading.fileDescriptor, timeout: 30),
            let url = URL(string: line.trimmingCharacters(in: .whitespacesAndNewlines)), url.host() != nil
        else {
            kill(process.processIdentifier, SIGKILL)
            process.waitWithoutSpinning()
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            throw SCLMError(.internal, "\(script) did not print its URL; its log:\n\(log)")
        }
        self.url = url
    }

    deinit { stop() }

    /// What the server wrote to stderr so far (its request log).
    package var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Waits until the log satisfies `condition` (checked every 10 ms) or `timeout` passes.
    ///
    /// - Returns: whether the condition was met.
    package func waitForLog(timeout: Duration = .seconds(30), _ condition: (String) -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(log) { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition(log)
    }

    /// Terminates the server (SIGTERM) and waits for it.
    package func stop() {
        process.withLock { process in
            guard let running = process else { return }
            if running.isRunning { running.terminate() }
            let deadline = Date().addingTimeInterval(10)
            while running.isRunning && Date() < deadline { usleep(20_000) }
            if running.isRunning { kill(running.processIdentifier, SIGKILL) }
            running.waitWithoutSpinning()
            process = nil
        }
        try? FileManager.default.removeItem(atPath: logPath)
    }

    /// Reads bytes up to the first newline, waiting at most `timeout` seconds in all.
    private static func firstLine(of descriptor: Int32, timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var bytes: [UInt8] = []
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) >= 0 else { return nil }
            guard poller.revents != 0 else { continue }
            var byte: UInt8 = 0
            guard read(descriptor, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }
}
