import Foundation

/// Runs the built `sclm` in a mount namespace of its own (`unshare -m`) in which a folder is mounted the way a
/// test needs: bind-mounted read-only, or replaced by a small tmpfs. The mounts vanish with the process and the
/// test's own view of the folder does not change.
///
/// Tests run as root here, and root ignores permission bits, so a mount is the honest way to get a read-only
/// or a nearly full home. It needs `CAP_SYS_ADMIN` and `unshare`; check ``isAvailable`` (e.g. in
/// `.enabled(if:)`).
package enum MountNamespace {
    /// What is mounted on the folder.
    package enum Mount: Sendable {
        /// The folder itself, read-only: every write fails with `EROFS`.
        case readOnly
        /// An empty tmpfs of this many MiB, mode 0700.
        case tmpfs(megabytes: Int)

        func command(on folder: String) -> String {
            let path = MountNamespace.quoted(folder)
            switch self {
            case .readOnly: return "mount --bind \(path) \(path) && mount -o remount,bind,ro \(path)"
            case .tmpfs(let megabytes): return "mount -t tmpfs -o size=\(megabytes)m,mode=0700 tmpfs \(path)"
            }
        }
    }

    /// Whether this process may create mount namespaces and mount in them.
    package static let isAvailable: Bool = {
        let folder = NSTemporaryDirectory()
        let result = try? ProcessRunner.run(
            "/usr/bin/unshare", ["-m", "--propagation", "private", "sh", "-c", Mount.readOnly.command(on: folder)])
        return result?.status == 0
    }()

    /// Mounts `mount` on `home`, runs `sclm --home HOME` with each of `before` (which must succeed, their output
    /// is dropped), then with `arguments`, whose outcome is returned.
    ///
    /// - Throws: when the process cannot be started.
    package static func sclm(
        _ arguments: [String], home: String, mount: Mount, before: [[String]] = [], environment: [String: String] = [:]
    ) async throws -> ProcessResult {
        let invocation = { (arguments: [String]) in
            ([ProcessRunner.sclmPath, "--home", home] + arguments).map(quoted).joined(separator: " ")
        }
        let script =
            ([mount.command(on: home)] + before.map { invocation($0) + " >/dev/null" } + [
                "exec " + invocation(arguments)
            ])
            .joined(separator: " && ")
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        try ProcessRunner.run(
                            "/usr/bin/unshare", ["-m", "--propagation", "private", "sh", "-c", script],
                            environment: environment)
                    })
            }.start()
        }
    }

    /// Runs `sclm` with `arguments` while each file of `files` reads as its replacement (a bind mount over it,
    /// such as a `/etc/resolv.conf` naming a resolver the test owns); `asNobody` runs it as the user
    /// `nobody` (65534), as an ordinary user would.
    ///
    /// - Throws: when the process cannot be started.
    package static func sclm(
        _ arguments: [String], replacing files: [String: String], asNobody: Bool = false,
        environment: [String: String] = [:], timeout: TimeInterval = 60
    ) async throws -> ProcessResult {
        let user = asNobody ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let command = (user + [ProcessRunner.sclmPath] + arguments).map(quoted).joined(separator: " ")
        let mounts = files.sorted { $0.key < $1.key }.map { "mount --bind \(quoted($0.value)) \(quoted($0.key))" }
        let script = (mounts + ["exec " + command]).joined(separator: " && ")
        return try await ProcessRunner.runInBackground(
            "/usr/bin/unshare", ["-m", "--propagation", "private", "sh", "-c", script], environment: environment,
            timeout: timeout)
    }

    /// `text` in single quotes for `sh`.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
