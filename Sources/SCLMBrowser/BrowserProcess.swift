import Foundation
import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A spawned Chromium with its DevTools pipe on fds 3 (Chromium reads commands) and 4 (it writes).
///
/// ``SpawnedChild`` maps the pipe ends onto 3 and 4 (Foundation's `Process` cannot hand a child extra
/// descriptors). The child leads its own process group, so ``kill()`` reaches the renderers too, and
/// when `setpriv` exists it runs the browser with `--pdeathsig KILL`, so the browser dies with sclm even
/// after a `kill -9`; Chromium also quits when its command pipe closes. stdin is `/dev/null`; the
/// browser's stdout and stderr go to a ``BrowserLog``, which passes them on only when `showLogs`.
///
/// The readers of fd 4 (``DevToolsConnection``) and of the log run on threads the child owns: ``kill()``
/// reaps the browser, joins them and only then closes the descriptors.
///
/// The parent-death signal fires when the *thread* that spawned the child ends, and the threads of
/// Swift's cooperative pool come and go; so the browser is spawned by a thread of its own, which then
/// waits for it to exit (it is also the reaper) and ends only after the browser did.
final class BrowserProcess: Sendable {
    /// The browser's descriptor its commands are read from.
    static let commandDescriptor: Int32 = 3
    /// The browser's descriptor its messages are written to.
    static let messageDescriptor: Int32 = 4

    /// The child with its pipes and readers.
    let child: SpawnedChild
    /// The process id (and process group id) of the child.
    var pid: pid_t { child.pid }
    /// The write end of the browser's command pipe (its fd 3).
    var commands: Int32 { child.end(Self.commandDescriptor) }
    /// The browser's own output.
    let log: BrowserLog

    private let exited = Latch<Void>()

    private init(child: SpawnedChild, log: BrowserLog) {
        self.child = child
        self.log = log
    }

    /// Starts `argv` (the first element is the program path) from a thread that then reaps it.
    ///
    /// - Throws: ``BrowserError`` (`.unavailable`) when the program cannot be started.
    static func spawn(_ argv: [String], environment: [String: String], showLogs: Bool) async throws -> BrowserProcess {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                do {
                    let process = try spawnHere(argv, environment: environment, showLogs: showLogs)
                    continuation.resume(returning: process)
                    var status: Int32 = 0
                    while waitpid(process.pid, &status, 0) < 0 && errno == EINTR {}
                    process.exited.fire(())
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.name = "sclm-browser-reaper"
            thread.start()
        }
    }

    private static func spawnHere(_ argv: [String], environment: [String: String], showLogs: Bool) throws
        -> BrowserProcess
    {
        let child: SpawnedChild
        do {
            child = try SpawnedChild.spawn(
                argv[0], arguments: argv, environment: environment.map { "\($0.key)=\($0.value)" },
                pipes: [
                    .init(.fromChild, onto: 1, 2), .init(.toChild, onto: commandDescriptor),
                    .init(.fromChild, onto: messageDescriptor),
                ],
                newProcessGroup: true)
        } catch {
            if error.isPipeFailure {
                throw BrowserError(.unavailable, "cannot create the browser's pipes: \(error.reason)")
            }
            throw BrowserError.notFound("cannot start \(argv[0]): \(error.reason)")
        }
        let log = BrowserLog()
        child.read(1, name: "sclm-browser-log") { log.read($0, echo: showLogs ? 2 : nil) }
        return BrowserProcess(child: child, log: log)
    }

    /// Starts `connection`'s reader on the browser's messages (its fd 4); `onClose` runs when they end.
    func connect(_ connection: DevToolsConnection, onClose: @escaping @Sendable (String) -> Void) {
        child.read(Self.messageDescriptor, name: "sclm-devtools-reader") { connection.read($0, onClose: onClose) }
    }

    /// Kills the browser's process group and waits until it is reaped; then stops `connection`'s writer,
    /// joins the readers (they see end of file once the group is gone) and closes the pipe ends.
    func kill(stopping connection: DevToolsConnection) async {
        _ = Glibc.kill(-pid, SIGKILL)
        _ = Glibc.kill(pid, SIGKILL)
        await exited.wait()
        connection.stopWriting()
        await child.closeEnds()
    }
}
