#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Pipes for talking to a child process: every end close-on-exec (a child gets only the ends mapped onto its
/// own descriptors) and at or above a chosen number (so mapping ends onto 3 and 4 never clobbers another).
package enum ChildPipes {
    /// Why the pipes could not be made: the system error's text.
    package struct Failure: Error, Sendable {
        package let reason: String
    }

    /// `count` pipes whose ends are at or above `lowest`. When one cannot be made, every end made so far is
    /// closed before the failure is thrown, so nothing leaks.
    package static func make(_ count: Int, lowest: Int32 = 3) throws(Failure) -> [(read: Int32, write: Int32)] {
        var made: [(read: Int32, write: Int32)] = []
        for _ in 0..<count {
            guard let ends = makeOne(lowest: lowest) else {
                let reason = String(cString: strerror(errno))
                for ends in made {
                    close(ends.read)
                    close(ends.write)
                }
                throw Failure(reason: reason)
            }
            made.append(ends)
        }
        return made
    }

    /// One pipe with both ends moved to close-on-exec descriptors at or above `lowest`; `nil` (errno set,
    /// nothing left open) when it cannot be made.
    private static func makeOne(lowest: Int32) -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        let moved = fds.map { fd -> Int32 in
            let high = fcntl(fd, F_DUPFD_CLOEXEC, lowest)
            let saved = errno
            close(fd)
            errno = saved
            return high
        }
        guard moved.allSatisfy({ $0 >= 0 }) else {
            let saved = errno
            for fd in moved where fd >= 0 { close(fd) }
            errno = saved
            return nil
        }
        return (moved[0], moved[1])
    }
}
