import Foundation
import SCLMCore

/// The outcome of a finished child process.
package struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit status (or 128 + signal number).
    package let status: Int32
    /// Everything written to stdout.
    package let stdout: String
    /// Everything written to stderr.
    package let stderr: String

    /// stdout split into non-empty lines.
    package var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }

    package var description: String { "exit \(status)\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)" }

    /// stdout parsed as one JSON value.
    package func json() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed])
    }
}

/// Runs programs (usually the built `sclm`) with arguments, stdin and environment, and collects output.
package enum ProcessRunner {
    /// The folder that holds the built products (`.build/debug`), found from the test bundle's location.
    package static let productsDirectory: String = {
        if let override = ProcessInfo.processInfo.environment["SCLM_PRODUCTS_DIR"] { return override }
        var candidate = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent()
        for _ in 0..<4 where !FileManager.default.fileExists(atPath: candidate.appendingPathComponent("sclm").path) {
            candidate.deleteLastPathComponent()
        }
        if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("sclm").path) {
            return candidate.path
        }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return packageRoot.appendingPathComponent(".build/debug").path
    }()

    /// The path of the built `sclm` executable.
    package static var sclmPath: String { productsDirectory + "/sclm" }

    /// The package root (where Package.swift is), for fixtures such as `sample-content/`.
    package static let packageRoot: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// The interpreter `python3` names on PATH, resolved once: with pyenv, `python3` is a shell script that
    /// runs several programs before Python starts, which cost each of the suites' ~200 servers 0.1 CPU-s.
    package static let python: String = {
        let asked = try? run("/usr/bin/env", ["python3", "-c", "import sys; print(sys.executable)"])
        guard let asked, asked.status == 0, let path = asked.stdoutLines.last, path.hasPrefix("/") else {
            return "/usr/bin/python3"
        }
        return path
    }()

    /// Runs `query` on the SQLite file at `database` through Python's sqlite3 module (a connection of
    /// another process, as a second program on the device would open), commits, and returns the rows as JSON.
    ///
    /// - Throws: when Python cannot be started or the query fails.
    package static func sql(_ query: String, in database: String) throws -> String {
        let script =
            "import sqlite3,sys,json; c=sqlite3.connect(sys.argv[1]); r=c.execute(sys.argv[2]).fetchall(); c.commit(); print(json.dumps(r))"
        let result = try run(python, ["-c", script, database, query])
        guard result.status == 0 else { throw SCLMError(.internal, "sqlite3 \(query) failed: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `sclm` with `arguments` on a thread of its own, so that waiting for it never holds a thread of
    /// the cooperative pool (many tests run at once, and some drive a server meanwhile).
    ///
    /// - Parameters:
    ///   - arguments: the command line after `sclm`.
    ///   - home: passed as `--home` when given.
    ///   - stdin: bytes written to the child's stdin, which is then closed.
    ///   - environment: added to a minimal environment (PATH, HOME, NO_COLOR=1).
    ///   - timeout: the child is killed after this many seconds.
    /// - Returns: the exit status and what the child wrote.
    /// - Throws: when the process cannot be started.
    package static func sclm(
        _ arguments: [String], home: String? = nil, stdin: String = "", environment: [String: String] = [:],
        timeout: TimeInterval = 60
    ) async throws -> ProcessResult {
        let homeArguments = home.map { ["--home", $0] } ?? []
        return try await runInBackground(
            sclmPath, homeArguments + arguments, stdin: Data(stdin.utf8), environment: environment, timeout: timeout)
    }

    /// Runs `executable` like ``run(_:_:stdin:environment:timeout:)`` on a thread of its own.
    ///
    /// - Throws: when the process cannot be started.
    package static func runInBackground(
        _ executable: String, _ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:],
        timeout: TimeInterval = 60
    ) async throws -> ProcessResult {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        try run(executable, arguments, stdin: stdin, environment: environment, timeout: timeout)
                    })
            }.start()
        }
    }

    /// Runs `executable` with `arguments` and waits for it.
    ///
    /// - Throws: when the process cannot be started.
    package static func run(
        _ executable: String, _ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:],
        timeout: TimeInterval = 60
    ) throws -> ProcessResult {
        try start(executable, arguments, stdin: stdin, environment: environment).waitUntilExit(timeout: timeout)
    }

    /// Starts `executable` with `arguments` without waiting, for tests that watch or signal it.
    ///
    /// - Parameters:
    ///   - executable: the program's path.
    ///   - arguments: its arguments.
    ///   - stdin: bytes written to its stdin, which is then closed.
    ///   - environment: added to a minimal environment (PATH, HOME, NO_COLOR=1).
    /// - Returns: the running process.
    /// - Throws: when the process cannot be started.
    package static func start(
        _ executable: String, _ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:]
    ) throws -> RunningProcess {
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "NO_COLOR": "1"]
        env["HOME"] = ProcessInfo.processInfo.environment["HOME"]
        return try RunningProcess(
            executable, arguments, stdin: stdin, environment: env.merging(environment) { _, new in new })
    }

    /// Starts `sclm` with `arguments` (and `--home` when given) without waiting.
    ///
    /// - Throws: when the process cannot be started.
    package static func startSclm(
        _ arguments: [String], home: String? = nil, environment: [String: String] = [:]
    ) throws -> RunningProcess {
        try start(sclmPath, (home.map { ["--home", $0] } ?? []) + arguments, environment: environment)
    }
}
