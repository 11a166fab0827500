import Foundation
import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A spawned Chromium with its DevTools pipe on fds 3 (Chromium reads commands) and 4 (it writes).
///
/// `posix_spawn` maps the two pipe ends onto 3 and 4 (Foundation's `Process` cannot hand a child extra
/// descriptors). The child leads its own process group, so ``kill()`` reaches the renderers too, and
/// when `setpriv` exists it runs the browser with `--pdeathsig KILL`, so the browser dies with sclm even
/// after a `kill -9`; Chromium also quits when its command pipe closes. stdin is `/dev/null`; the
/// browser's stdout and stderr go to a ``BrowserLog``, which passes them on only when `showLogs`.
///
/// The parent-death signal fires when the *thread* that spawned the child ends, and the threads of
/// Swift's cooperative pool come and go; so the browser is spawned by a thread of its own, which then
/// waits for it to exit (it is also the reaper) and ends only after the browser did.
final class BrowserProcess: Sendable {
    /// The process id (and process group id) of the child.
    let pid: pid_t
    /// The write end of the browser's command pipe (its fd 3).
    let commands: Int32
    /// The read end of the browser's message pipe (its fd 4).
    let messages: Int32
    /// The browser's own output.
    let log: BrowserLog

    private let exited = Latch<Void>()

    private init(pid: pid_t, commands: Int32, messages: Int32, log: BrowserLog) {
        self.pid = pid
        self.commands = commands
        self.messages = messages
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
        // Above 4, so mapping them onto 3 and 4 never clobbers one.
        let pipes: [(read: Int32, write: Int32)]
        do {
            pipes = try ChildPipes.make(3, lowest: 10)
        } catch {
            throw BrowserError(.unavailable, "cannot create the browser's pipes: \(error.reason)")
        }
        let (toBrowser, fromBrowser, output) = (pipes[0], pipes[1], pipes[2])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        posix_spawn_file_actions_adddup2(&actions, output.write, 2)
        posix_spawn_file_actions_adddup2(&actions, toBrowser.read, 3)
        posix_spawn_file_actions_adddup2(&actions, fromBrowser.write, 4)
        var arguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in arguments { free(pointer) } }
        var variables: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in variables { free(pointer) } }
        var pid = pid_t()
        let code = SpawnAttributes.with(newProcessGroup: true) { attributes in
            posix_spawn(&pid, argv[0], &actions, &attributes, &arguments, &variables)
        }
        close(toBrowser.read)
        close(fromBrowser.write)
        close(output.write)
        guard code == 0 else {
            close(toBrowser.write)
            close(fromBrowser.read)
            close(output.read)
            throw BrowserError.notFound("cannot start \(argv[0]): \(String(cString: strerror(code)))")
        }
        let log = BrowserLog()
        log.start(reading: output.read, echo: showLogs)
        return BrowserProcess(pid: pid, commands: toBrowser.write, messages: fromBrowser.read, log: log)
    }

    /// Kills the browser's process group, waits until it is reaped and closes the pipe ends.
    func kill() async {
        _ = Glibc.kill(-pid, SIGKILL)
        _ = Glibc.kill(pid, SIGKILL)
        await exited.wait()
        close(commands)
        close(messages)
    }
}
