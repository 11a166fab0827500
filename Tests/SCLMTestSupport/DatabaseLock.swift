import Foundation

/// Another program holding a SQLite database locked: a Python process whose connection runs `BEGIN EXCLUSIVE`
/// on the file and keeps the transaction open until ``release()``, as a second program on a device (a backup,
/// a careless `sqlite3` shell) can.
package final class DatabaseLock: Sendable {
    private let process: RunningProcess

    /// Locks `database`; returns once the lock is held.
    ///
    /// - Throws: when Python cannot start or the lock is not taken within 30 s.
    package init(_ database: String) async throws {
        let script = """
            import signal, sqlite3, sys
            signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            connection.execute("BEGIN EXCLUSIVE")
            print("locked", flush=True)
            signal.sigwait([signal.SIGUSR1])
            connection.execute("COMMIT")
            """
        process = try ProcessRunner.start(ProcessRunner.python, ["-c", script, database])
        guard try await process.waitForOutput(timeout: .seconds(30), { $0.contains("locked") }) else {
            throw CocoaError(.fileLocking, userInfo: [NSLocalizedDescriptionKey: "no lock: \(process.stderr)"])
        }
    }

    /// Ends the transaction and waits for the process to exit.
    ///
    /// - Returns: its exit status (0: the lock was held until now and released cleanly).
    package func release() async -> Int32 {
        process.send(SIGUSR1)
        return await process.result(timeout: 30).status
    }
}
