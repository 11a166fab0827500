import Foundation
import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A spawned program with pipes on its stdin and stdout; its stderr is ours, so its logs reach the user.
///
/// The child gets the ``ChildEnvironment`` its starter was handed (sclm's environment without its secrets:
/// a module is a separate program and has no business with sclm's credentials).
///
/// ``SpawnedChild`` starts it (the helper the browser is spawned with too). The command line runs as `/bin/sh -c 'exec COMMAND'` (arguments and `PATH` lookup work; `exec` keeps
/// one process). Signals the host ignores (SIGPIPE, and SIGINT/SIGTERM while a command runs) are reset to
/// their defaults in the child, and the parent's pipe ends are close-on-exec so other children never
/// inherit them.
final class ChildProcess: Sendable {
    /// The child with its pipes.
    private let child: SpawnedChild
    /// The child's process id.
    var pid: pid_t { child.pid }
    /// The write end of the child's stdin.
    var input: Int32 { child.end(0) }

    private init(child: SpawnedChild) {
        self.child = child
    }

    /// Starts `command` with `environment`.
    ///
    /// - Throws: `SCLMError` (`.usage`) when the shell cannot be started.
    static func spawn(_ command: String, environment: ChildEnvironment) throws -> ChildProcess {
        do {
            return ChildProcess(
                child: try SpawnedChild.spawn(
                    "/bin/sh", arguments: ["/bin/sh", "-c", "exec " + command], environment: environment.entries,
                    pipes: [.init(.toChild, onto: 0), .init(.fromChild, onto: 1)]))
        } catch {
            if error.isPipeFailure { throw SCLMError(.storage, "cannot create a pipe: \(error.reason)") }
            throw SCLMError(.usage, "cannot start '\(command)': \(error.reason)")
        }
    }

    /// Starts the reader of the child's stdout: `loop` reads its descriptor until end of file.
    func read(name: String, _ loop: @escaping @Sendable (Int32) -> Void) {
        child.read(1, name: name, loop)
    }

    /// Closes the write end of the child's stdin (its ``LineWriter`` does, when closed), once.
    func closeInput() {
        child.closeEnd(0)
    }

    /// Sends `signal` to the child (ignored when it has already exited).
    func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits for the child to exit (call it once the child was killed or its stdout ended), joins the
    /// reader of its stdout and closes the pipe ends (the stdin end's ``LineWriter`` is closed first);
    /// returns how the child ended. Never call it from the reader itself.
    func reap() async -> String {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        await child.closeEnds()
        let signalNumber = status & 0x7F
        if signalNumber == 0 { return "exit status \((status >> 8) & 0xFF)" }
        return "signal \(signalNumber)"
    }
}
