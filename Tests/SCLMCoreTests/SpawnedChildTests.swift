import SCLMCore
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Children spawned with pipes and readers, and descriptors closed only under no reader.
@Suite(.timeLimit(.minutes(1))) struct SpawnedChildTests {
    /// How a reader loop ended: bytes read, and the last `read(2)` result with its errno.
    final class ReadOutcome: Sendable {
        let state = Mutex<(bytes: Int, last: Int, error: Int32)>((0, 0, 0))

        /// Reads `descriptor` to its end, recording how it ended.
        func readToEnd(_ descriptor: Int32) {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                let error = errno
                state.withLock { $0 = ($0.bytes + max(count, 0), count, error) }
                if count < 0 && error == EINTR { continue }
                if count <= 0 { return }
            }
        }
    }

    @Test func killingAChildThatIsWritingJoinsItsReaderBeforeTheDescriptorCloses() async throws {
        let child = try SpawnedChild.spawn(
            "/bin/sh", arguments: ["/bin/sh", "-c", "exec yes"], environment: [],
            pipes: [.init(.fromChild, onto: 1)])
        let outcome = ReadOutcome()
        child.read(1, name: "test-reader") { outcome.readToEnd($0) }
        let end = child.end(1)
        while outcome.state.withLock({ $0.bytes }) == 0 { await Task.yield() }
        kill(child.pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
        #expect(await child.closeEnds())
        // The reader saw the end of the pipe, not a descriptor closed under it (EBADF).
        #expect(outcome.state.withLock { $0.last } == 0)
        #expect(fcntl(end, F_GETFD) == -1)
    }

    @Test func aReaderStillRunningKeepsItsDescriptorOpenUntilItEnds() async throws {
        // The child leaves a grandchild holding its stdout open and says the grandchild's pid.
        let child = try SpawnedChild.spawn(
            "/bin/sh", arguments: ["/bin/sh", "-c", "sleep 60 & echo $!"], environment: [],
            pipes: [.init(.fromChild, onto: 1)])
        let text = Mutex<[UInt8]>([])
        child.read(1, name: "test-reader") { descriptor in
            var byte: UInt8 = 0
            while read(descriptor, &byte, 1) == 1 { text.withLock { $0.append(byte) } }
        }
        let end = child.end(1)
        var status: Int32 = 0
        while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
        #expect(!(await child.closeEnds(patience: .milliseconds(50))))
        #expect(fcntl(end, F_GETFD) != -1)
        let grandchild = try #require(pid_t(String(decoding: text.withLock { $0 }, as: UTF8.self).filter(\.isNumber)))
        kill(grandchild, SIGKILL)
        #expect(await child.closeEnds(patience: .seconds(30)))
        #expect(fcntl(end, F_GETFD) == -1)
    }

    @Test func aChildGetsItsEnvironmentAndPipesAndNothingElse() async throws {
        // A pipe opened without close-on-exec, as a library or another thread might: still not inherited.
        var leaked: [Int32] = [-1, -1]
        try #require(pipe(&leaked) == 0)
        defer { for end in leaked { close(end) } }
        let child = try SpawnedChild.spawn(
            "/bin/sh", arguments: ["/bin/sh", "-c", #"echo "$X"; ls /proc/self/fd | sort -n | tr '\n' ' '; cat"#],
            environment: ["X=seen"], pipes: [.init(.toChild, onto: 0), .init(.fromChild, onto: 1)])
        let text = Mutex<[UInt8]>([])
        child.read(1, name: "test-reader") { descriptor in
            var byte: UInt8 = 0
            while read(descriptor, &byte, 1) == 1 { text.withLock { $0.append(byte) } }
        }
        let parentEnds: Set<Int32> = [child.end(0), child.end(1)]
        let input = Array("piped\n".utf8)
        #expect(input.withUnsafeBytes { FileSystem.writeAll(child.end(0), $0) } == 0)
        child.closeEnd(0)
        var status: Int32 = 0
        while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
        #expect(await child.closeEnds())
        let lines = String(decoding: text.withLock { $0 }, as: UTF8.self).split(separator: "\n")
        #expect(lines.first == "seen" && lines.last?.hasSuffix("piped") == true, "\(lines)")
        // Only 0–2 and the one `ls` opens on /proc/self/fd: no parent end, nothing leaked.
        let open = Set(lines.dropFirst().first?.split(separator: " ").compactMap { Int32($0) } ?? [])
        #expect(open.isSuperset(of: [0, 1, 2]) && open.isDisjoint(with: parentEnds), "\(open) \(parentEnds)")
        #expect(open.isDisjoint(with: leaked) && open.filter { $0 > 2 }.count <= 1, "\(open) \(leaked)")
    }

    @Test func aProgramThatCannotStartLeavesNothingOpen() throws {
        #expect(throws: SpawnedChild.Failure.self) {
            try SpawnedChild.spawn(
                "/nonexistent/program", arguments: ["program"], environment: [], pipes: [.init(.fromChild, onto: 1)])
        }
    }
}
