import Foundation
import Synchronization

/// Serialises starting child processes in the test run.
///
/// On Linux, Foundation's `Process.run()` closes the parent's other descriptors in the child by listing
/// the ones open when it starts; a pipe or socket that another thread creates for its own child meanwhile
/// leaks into this one. A leaked pipe end keeps a reader from ever seeing end-of-file, and a leaked copy of
/// Foundation's per-child monitoring socket keeps a finished child from being reaped (it stays a zombie
/// and "running"), so tests wait forever. Every helper that starts a child creates its pipes and starts
/// it inside ``withLock(_:)``.
package enum SpawnLock {
    private static let lock = Mutex(())

    /// Runs `body` (create the pipes, start the process) while no other helper starts a child.
    ///
    /// - Throws: what `body` throws.
    package static func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock { _ in try body() }
    }

    /// Starts `process` with new pipes as its stdin, stdout and stderr, under the lock.
    ///
    /// - Returns: the pipes, to write the child's input and read its output.
    /// - Throws: when the process cannot be started.
    package static func run(_ process: Process) throws -> (input: Pipe, output: Pipe, errors: Pipe) {
        try withLock {
            let pipes = (input: Pipe(), output: Pipe(), errors: Pipe())
            process.standardInput = pipes.input
            process.standardOutput = pipes.output
            process.standardError = pipes.errors
            try process.run()
            return pipes
        }
    }
}
