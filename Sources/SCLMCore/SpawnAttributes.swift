#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `posix_spawn` attributes for a child that starts like a fresh process.
///
/// The signals a host ignores or handles (SIGPIPE, SIGINT, SIGTERM, SIGHUP) are reset to their defaults
/// in the child and no signal is blocked; optionally the child leads a new process group, so one
/// `kill(-pid, …)` reaches everything it starts.
package enum SpawnAttributes {
    /// Runs `body` with the attributes, destroyed afterwards.
    package static func with<T>(newProcessGroup: Bool = false, _ body: (inout posix_spawnattr_t) throws -> T) rethrows
        -> T
    {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGPIPE, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        if newProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        return try body(&attributes)
    }
}
