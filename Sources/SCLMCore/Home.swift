import Foundation

/// The sclm home folder (`SCLM_HOME`) and the paths inside it (docs/data.md).
///
/// ```
/// sclm.db        config.json        cookies.txt
/// content/<clientId>/<presentationId>/sources/
/// cache/<presentationId>_rev<revision>.zip(.part)
/// locks/
/// ```
package struct Home: Sendable, Equatable {
    /// The absolute path of the home folder.
    package let root: String

    /// Creates a home rooted at `root` (made absolute against the current directory).
    package init(root: String) {
        self.root = FileSystem.absolutePath(root)
    }

    /// Resolves the home: `--home` wins, then `SCLM_HOME`, then `$XDG_DATA_HOME/sclm`,
    /// then `~/.local/share/sclm`.
    package static func resolve(explicit: String?, environment: [String: String]) -> Home {
        if let explicit, !explicit.isEmpty { return Home(root: explicit) }
        if let home = environment["SCLM_HOME"], !home.isEmpty { return Home(root: home) }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return Home(root: xdg + "/sclm") }
        let user = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return Home(root: user + "/.local/share/sclm")
    }

    /// The SQLite database.
    package var databasePath: String { root + "/sclm.db" }
    /// The configuration file.
    package var configPath: String { root + "/config.json" }
    /// libcurl's cookie jar (Netscape format).
    package var cookieJarPath: String { root + "/cookies.txt" }
    /// The root of unpacked content.
    package var contentDirectory: String { root + "/content" }
    /// Downloads in progress or kept for resume.
    package var cacheDirectory: String { root + "/cache" }
    /// Per-presentation lock files used to keep concurrent syncs apart.
    package var lockDirectory: String { root + "/locks" }

    /// What `sclm play` keeps of a presentation's browser storage (`localStorage`, IndexedDB, cookies).
    package func browserStorageDirectory(presentationId: Int64) -> String {
        "\(root)/browser/\(presentationId)"
    }

    /// The folder that holds one presentation's unpacked package and its staging siblings.
    package func presentationDirectory(clientId: Int64, presentationId: Int64) -> String {
        "\(contentDirectory)/\(clientId)/\(presentationId)"
    }

    /// The unpacked package of one presentation; `index.html` is its start slide.
    package func sourcesDirectory(clientId: Int64, presentationId: Int64) -> String {
        presentationDirectory(clientId: clientId, presentationId: presentationId) + "/sources"
    }

    /// Creates the home and its folders with mode 0700 (an existing home is tightened to 0700).
    ///
    /// - Throws: `SCLMError` (`.storage`) naming the folder that could not be created.
    package func prepare() throws {
        try FileSystem.makeDirectory(root, mode: 0o700)
        try FileSystem.setMode(root, 0o700)
        for folder in [contentDirectory, cacheDirectory, lockDirectory] {
            try FileSystem.makeDirectory(folder, mode: 0o700)
        }
    }
}
