import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the browser is confined: Chromium's sandbox refuses to run as root.
///
/// As root, the browser runs as `nobody` through `setpriv` (util-linux), with the sandbox on; without
/// `setpriv` or a `nobody` user it runs with `--no-sandbox` (and a warning). Whenever `setpriv` exists it
/// also sets the browser's parent-death signal, so the browser dies with sclm.
struct BrowserSandbox {
    /// Prepended to the command line (`setpriv …`), or empty.
    var prefix: [String]
    /// Extra browser flags (`--no-sandbox`), or empty.
    var flags: [String]
    /// The user the profile folder must belong to, when that is not us.
    var owner: (uid: uid_t, gid: gid_t)?
    /// Logged once when the sandbox is off.
    var warning: String?

    static let setpriv = "/usr/bin/setpriv"

    /// The confinement for this process.
    static func current() -> BrowserSandbox {
        let hasSetpriv = access(setpriv, X_OK) == 0
        let deathSignal = [setpriv, "--pdeathsig", "KILL"]
        guard geteuid() == 0 else {
            return BrowserSandbox(prefix: hasSetpriv ? deathSignal + ["--"] : [], flags: [], owner: nil, warning: nil)
        }
        if hasSetpriv, let nobody = getpwnam("nobody") {
            let uid = nobody.pointee.pw_uid
            let gid = nobody.pointee.pw_gid
            return BrowserSandbox(
                prefix: [setpriv, "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--pdeathsig", "KILL", "--"],
                flags: [], owner: (uid, gid), warning: nil)
        }
        return BrowserSandbox(
            prefix: [], flags: ["--no-sandbox"], owner: nil,
            warning: "running as root without setpriv or a nobody user: the browser runs with --no-sandbox")
    }
}
