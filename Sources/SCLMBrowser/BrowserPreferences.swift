import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The preferences a new profile starts with (`Default/Preferences`): no network prediction (prefetch,
/// preconnect, DNS prefetch, prerender) and WebRTC with no UDP outside a proxy — the settings with no
/// command-line switch, which matter when the browser shares sclm's network namespace.
enum BrowserPreferences {
    static let text =
        #"{"net":{"network_prediction_options":2},"webrtc":{"ip_handling_policy":"disable_non_proxied_udp"}}"#

    /// Writes them into `profile` unless it has preferences already; `owner` gets the new files.
    static func write(into profile: String, owner: (uid: uid_t, gid: gid_t)?) {
        let folder = profile + "/Default"
        let file = folder + "/Preferences"
        guard !FileManager.default.fileExists(atPath: file) else { return }
        mkdir(folder, 0o700)
        _ = FileManager.default.createFile(
            atPath: file, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        if let owner {
            for path in [folder, file] { _ = chown(path, owner.uid, owner.gid) }
        }
    }
}
