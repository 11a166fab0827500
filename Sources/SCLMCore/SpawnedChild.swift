import CSpawn
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process started by `posix_spawn` with pipes mapped onto its descriptors: the one place sclm
/// spawns the browser and external bridge modules.
///
/// Every pipe end is close-on-exec (``ChildPipes``); the child gets only the ends mapped onto its own
/// descriptors, its signals reset (``SpawnAttributes``), and stdin `/dev/null` unless a pipe is mapped
/// onto 0. The parent keeps the other end of each pipe, found by the child's descriptor with
/// ``end(_:)``. Readers of those ends are started with ``read(_:name:_:)`` and the child owns them:
/// ``closeEnds(patience:)`` first joins every reader, so no descriptor is closed under a live reader.
package final class SpawnedChild: Sendable {
    /// Which way a pipe carries bytes.
    package enum Direction: Sendable {
        /// The parent writes, the child reads.
        case toChild
        /// The child writes, the parent reads.
        case fromChild
    }

    /// One pipe: its direction and the child's descriptors it is mapped onto (stdout and stderr may share).
    package struct Pipe: Sendable {
        package let direction: Direction
        package let childDescriptors: [Int32]

        /// A pipe carrying bytes `direction`, mapped onto `childDescriptors` in the child.
        package init(_ direction: Direction, onto childDescriptors: Int32...) {
            self.direction = direction
            self.childDescriptors = childDescriptors
        }
    }

    /// Why a child could not be started.
    package struct Failure: Error, Sendable {
        /// Whether the pipes (rather than the program) failed.
        package let isPipeFailure: Bool
        /// The system error's text.
        package let reason: String
    }

    /// The child's process id.
    package let pid: pid_t
    private let ends: [Int32: Int32]
    private let state = Mutex<(readers: [(reader: ReaderThread, end: Int32)], closed: Set<Int32>)>(([], []))

    private init(pid: pid_t, ends: [Int32: Int32]) {
        self.pid = pid
        self.ends = ends
    }

    /// The parent's end of the pipe mapped onto the child's descriptor `childDescriptor`.
    package func end(_ childDescriptor: Int32) -> Int32 {
        guard let end = ends[childDescriptor] else { preconditionFailure("no pipe on \(childDescriptor)") }
        return end
    }

    /// Starts a reader thread running `loop` on the parent's end of the pipe on `childDescriptor`; the
    /// loop must return at end of file.
    package func read(_ childDescriptor: Int32, name: String, _ loop: @escaping @Sendable (Int32) -> Void) {
        let descriptor = end(childDescriptor)
        let reader = ReaderThread.start(name: name) { loop(descriptor) }
        state.withLock { $0.readers.append((reader, descriptor)) }
    }

    /// Closes the parent's end of the pipe on `childDescriptor` now (a child's stdin, to tell it the input
    /// ended), unless closed already; never one a reader reads.
    package func closeEnd(_ childDescriptor: Int32) {
        let descriptor = end(childDescriptor)
        let closes = state.withLock { state -> Bool in
            precondition(!state.readers.contains { $0.end == descriptor }, "a reader reads \(childDescriptor)")
            return state.closed.insert(descriptor).inserted
        }
        if closes { close(descriptor) }
    }

    /// Waits (up to `patience` each) for every reader to end, then closes the parent's ends. The end of a
    /// reader still running (a grandchild that left the process group may hold the pipe open) stays open
    /// rather than be closed under it, until a later call finds the reader ended; returns whether every
    /// end is closed.
    @discardableResult
    package func closeEnds(patience: Duration = .seconds(2)) async -> Bool {
        var live: Set<Int32> = []
        for (reader, end) in state.withLock({ $0.readers }) where !(await reader.join(within: patience)) {
            live.insert(end)
        }
        let closing = state.withLock { state -> Set<Int32> in
            let closing = Set(ends.values).subtracting(live).subtracting(state.closed)
            state.closed.formUnion(closing)
            return closing
        }
        for end in closing { close(end) }
        return live.isEmpty
    }

    /// Spawns `arguments` (the first is the program, run as `path`) with `environment` (`NAME=value`
    /// entries) and `pipes`, optionally leading a new process group.
    ///
    /// - Throws: ``Failure`` when a pipe cannot be made or the program cannot be started; nothing is left
    ///   open then.
    package static func spawn(
        _ path: String, arguments: [String], environment: [String], pipes: [Pipe], newProcessGroup: Bool = false
    ) throws(Failure) -> SpawnedChild {
        let highest = pipes.flatMap(\.childDescriptors).max() ?? 2
        let made: [(read: Int32, write: Int32)]
        do {
            made = try ChildPipes.make(pipes.count, lowest: max(3, highest + 1))
        } catch {
            throw Failure(isPipeFailure: true, reason: error.reason)
        }
        let childEnds = zip(pipes, made).map { $0.direction == .toChild ? $1.read : $1.write }
        let parentEnds = zip(pipes, made).map { $0.direction == .toChild ? $1.write : $1.read }
        var pid = pid_t()
        let code = withFileActions(pipes: pipes, childEnds: childEnds) { actions in
            withCStrings(arguments) { argv in
                withCStrings(environment) { envp in
                    SpawnAttributes.with(newProcessGroup: newProcessGroup) { attributes in
                        posix_spawn(&pid, path, &actions, &attributes, argv, envp)
                    }
                }
            }
        }
        for end in childEnds { close(end) }
        guard code == 0 else {
            for end in parentEnds { close(end) }
            throw Failure(isPipeFailure: false, reason: String(cString: strerror(code)))
        }
        var ends: [Int32: Int32] = [:]
        for (pipe, end) in zip(pipes, parentEnds) {
            for descriptor in pipe.childDescriptors { ends[descriptor] = end }
        }
        return SpawnedChild(pid: pid, ends: ends)
    }

    /// Runs `body` with file actions mapping each pipe's child end onto its descriptors (and `/dev/null`
    /// onto stdin when no pipe is) and closing every descriptor above them.
    private static func withFileActions(
        pipes: [Pipe], childEnds: [Int32], _ body: (inout posix_spawn_file_actions_t) -> Int32
    ) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if !pipes.contains(where: { $0.childDescriptors.contains(0) }) {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        for (pipe, end) in zip(pipes, childEnds) {
            for descriptor in pipe.childDescriptors { posix_spawn_file_actions_adddup2(&actions, end, descriptor) }
        }
        // Nothing else reaches the child, not even a descriptor someone opened without close-on-exec: a
        // pipe end a child holds by accident keeps its reader from ever seeing end of file.
        #if os(Linux)
            let highest = pipes.flatMap(\.childDescriptors).max() ?? 2
            _ = posix_spawn_file_actions_addclosefrom_np(&actions, max(3, highest + 1))
        #endif
        return body(&actions)
    }

    /// Runs `body` with `strings` as a `nil`-terminated array of C strings, freed afterwards.
    private static func withCStrings<T>(
        _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> T
    ) -> T {
        let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers)
    }
}
