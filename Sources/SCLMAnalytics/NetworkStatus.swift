import Foundation

/// The network status StoryIoT records (`s-m-ns`), read from `/sys/class/net`.
///
/// StoryContent sends `Wi-Fi`, `Cellular` or `none`; StoryIoT also documents `lan`. sclm reports `Wi-Fi`
/// when a wireless interface is up, `LAN` when another non-loopback interface is up, else `none`.
enum NetworkStatus {
    /// The status of this machine now.
    static func current(root: String = "/sys/class/net") -> String {
        let manager = FileManager.default
        let interfaces = (try? manager.contentsOfDirectory(atPath: root)) ?? []
        var status = "none"
        for name in interfaces where name != "lo" {
            let operstate = (try? String(contentsOfFile: "\(root)/\(name)/operstate", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard operstate == "up" else { continue }
            if manager.fileExists(atPath: "\(root)/\(name)/wireless") { return "Wi-Fi" }
            status = "LAN"
        }
        return status
    }
}
