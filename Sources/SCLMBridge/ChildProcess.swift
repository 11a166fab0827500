import Foundation
import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A spawned program with pipes on its stdin and stdout; its stderr is ours, so its logs reach the user.
///
/// The child gets this process's environment without the secret variables (`SCLM_PASSWORD`,
/// `SCLM_CLIENT_SECRET`, … — every config key marked secret, see `ConfigKey.secretEnvironmentVariables`):
/// a module is a separate program and has no business with sclm's credentials. Everything else (`PATH`,
/// `HOME`, `LANG`, the other `SCLM_*` settings) is passed as is.
///
/// The command line runs as `/bin/sh -c 'exec COMMAND'` (arguments and `PATH` lookup work; `exec` keeps
/// one process). Signals the host ignores (SIGPIPE, and SIGINT/SIGTERM while a command runs) are reset to
/// their defaults in the child, and the parent's pipe ends are close-on-exec so other children never
/// inherit them.
final class ChildProcess: Sendable {
    /// The child's process id.
    let pid: pid_t
    /// The write end of the child's stdin.
    let input: Int32
    /// The read end of the child's stdout.
    let output: Int32

    private init(pid: pid_t, input: Int32, output: Int32) {
        self.pid = pid
        self.input = input
        self.output = output
    }

    /// Starts `command`.
    ///
    /// - Throws: `SCLMError` (`.usage`) when the shell cannot be started.
    static func spawn(_ command: String) throws -> ChildProcess {
        let pipes: [(read: Int32, write: Int32)]
        do {
            pipes = try ChildPipes.make(2)
        } catch {
            throw SCLMError(.storage, "cannot create a pipe: \(error.reason)")
        }
        let (toChild, fromChild) = (pipes[0], pipes[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild.read, 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild.write, 1)
        let arguments = ["/bin/sh", "-c", "exec " + command]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var environment = childEnvironment()
        defer { for pointer in environment { free(pointer) } }
        var pid = pid_t()
        let code = SpawnAttributes.with { attributes in
            posix_spawn(&pid, "/bin/sh", &actions, &attributes, &argv, &environment)
        }
        close(toChild.read)
        close(fromChild.write)
        guard code == 0 else {
            close(toChild.write)
            close(fromChild.read)
            throw SCLMError(.usage, "cannot start '\(command)': \(String(cString: strerror(code)))")
        }
        return ChildProcess(pid: pid, input: toChild.write, output: fromChild.read)
    }

    /// Sends `signal` to the child (ignored when it has already exited).
    func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits for the child to exit and closes the read end of its stdout (the stdin end belongs to the
    /// ``LineWriter`` that writes it); returns how the child ended.
    func reap() -> String {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        close(output)
        let signalNumber = status & 0x7F
        if signalNumber == 0 { return "exit status \((status >> 8) & 0xFF)" }
        return "signal \(signalNumber)"
    }

    /// Copies of this process's `NAME=value` entries except the secret ones, `nil`-terminated for `posix_spawn`.
    private static func childEnvironment() -> [UnsafeMutablePointer<CChar>?] {
        var entries: [UnsafeMutablePointer<CChar>?] = []
        var cursor = environ
        while let entry = cursor.pointee {
            if !ConfigKey.isSecretEnvironmentEntry(String(cString: entry)) { entries.append(strdup(entry)) }
            cursor += 1
        }
        return entries + [nil]
    }
}
