import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the browser is confined: its own user (Chromium's sandbox refuses to run as root) and its own
/// empty network namespace (``BrowserNamespace``).
///
/// As root, the browser runs as `nobody` through `setpriv` (util-linux), with the sandbox on; without
/// `setpriv` or a `nobody` user it runs with `--no-sandbox` (and a warning). Whenever `setpriv` exists it
/// also sets the browser's parent-death signal, so the browser dies with sclm. When no network namespace
/// can be made the browser runs in sclm's, with ``BrowserOptions/networkOffFlags`` only (and a warning).
struct BrowserSandbox {
    /// Prepended to the command line (`unshare … setpriv …`), or empty.
    var prefix: [String]
    /// Extra browser flags (`--no-sandbox`), or empty.
    var flags: [String]
    /// The user the profile folder must belong to, when that is not us.
    var owner: (uid: uid_t, gid: gid_t)?
    /// Whether the browser has a network namespace of its own.
    var isolatesNetwork: Bool
    /// Logged once each: the sandbox is off, the network namespace could not be made.
    var warnings: [String]

    static let setpriv = "/usr/bin/setpriv"

    /// Logged when the browser shares sclm's network namespace.
    static let sharedNetworkWarning =
        "cannot give the browser a network namespace of its own (unshare is missing or refused): "
        + "it runs with switches that turn its networking off instead"

    /// The confinement for this process.
    static func current() -> BrowserSandbox {
        var sandbox = user()
        if let prefix = BrowserNamespace.prefix(user: sandbox.prefix, isRoot: geteuid() == 0) {
            sandbox.prefix = prefix
            sandbox.isolatesNetwork = true
        } else {
            sandbox.warnings.append(sharedNetworkWarning)
        }
        return sandbox
    }

    /// The user part: `setpriv` to `nobody` as root, else only the parent-death signal.
    private static func user() -> BrowserSandbox {
        let hasSetpriv = access(setpriv, X_OK) == 0
        let deathSignal = [setpriv, "--pdeathsig", "KILL", "--"]
        guard geteuid() == 0 else {
            return BrowserSandbox(
                prefix: hasSetpriv ? deathSignal : [], flags: [], owner: nil, isolatesNetwork: false, warnings: [])
        }
        if hasSetpriv, let nobody = getpwnam("nobody") {
            let uid = nobody.pointee.pw_uid
            let gid = nobody.pointee.pw_gid
            return BrowserSandbox(
                prefix: [setpriv, "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--pdeathsig", "KILL", "--"],
                flags: [], owner: (uid, gid), isolatesNetwork: false, warnings: [])
        }
        return BrowserSandbox(
            prefix: [], flags: ["--no-sandbox"], owner: nil, isolatesNetwork: false,
            warnings: ["running as root without setpriv or a nobody user: the browser runs with --no-sandbox"])
    }
}
