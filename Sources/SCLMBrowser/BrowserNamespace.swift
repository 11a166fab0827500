import Foundation
import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The network namespace the browser runs in: one of its own with nothing in it (a loopback that is
/// down), so nothing the page does — prefetch, prerender, preconnect, DNS, WebRTC, workers, popups —
/// has anywhere to go. The package and the bridge reach the page over the DevTools pipe.
///
/// It is made by `unshare` (util-linux): as root directly (`unshare --net`, before `setpriv` drops to
/// the sandbox user), otherwise — and as root where that is refused, as in a container without
/// `CAP_SYS_ADMIN` — inside an unprivileged user namespace that maps only the browser's own user
/// (`unshare --user --map-current-user --net`), where the kernel allows one. Each way is tried once with
/// `/bin/true` before it is used; when none works the browser runs in sclm's namespace and
/// ``BrowserOptions/networkOffFlags`` are all that stop it.
enum BrowserNamespace {
    static let unshare = "/usr/bin/unshare"

    /// Runs as root, before the switch to the sandbox user.
    static let asRoot = [unshare, "--net", "--"]
    /// Runs as the browser's user, mapping only that user.
    static let asUser = [unshare, "--user", "--map-current-user", "--net", "--"]

    /// Finds the first way to make the namespace that works here.
    ///
    /// - Parameters:
    ///   - user: what runs the browser as its user (`setpriv …`), or empty.
    ///   - isRoot: whether sclm runs as root (only root can make a bare network namespace).
    /// - Returns: the prefix (with `user` inside it) that starts the browser in a namespace of its own,
    ///   or `nil` when none can be made.
    static func prefix(user: [String], isRoot: Bool) -> [String]? {
        guard access(unshare, X_OK) == 0 else { return nil }
        var candidates = [user + asUser]
        if isRoot { candidates.insert(asRoot + user, at: 0) }
        return candidates.first { succeeds($0 + ["/bin/true"]) }
    }

    /// Whether `argv` runs and exits 0 (its output discarded).
    private static func succeeds(_ argv: [String]) -> Bool {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var arguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in arguments { free(pointer) } }
        var environment: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), nil]
        defer { for pointer in environment { free(pointer) } }
        var pid = pid_t()
        let code = SpawnAttributes.with { attributes in
            posix_spawn(&pid, argv[0], &actions, &attributes, &arguments, &environment)
        }
        guard code == 0 else { return false }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return false }
        }
        return status == 0
    }
}
