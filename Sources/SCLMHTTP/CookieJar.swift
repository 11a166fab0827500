import Foundation
import SCLMCore
import Synchronization

/// libcurl's cookies kept in the sclm home in Netscape format, mode 0600.
///
/// StoryCLM-style backends set a session cookie before or with the first token response and expect it
/// back on later requests (as the StoryCLM mobile apps do), also in the next sclm
/// process. The file is read once per transport; whenever a response sets cookies, libcurl's cookie list
/// is written back atomically (a temporary file renamed over the jar), so a crash never leaves half a jar
/// and the file is never readable by other users.
final class CookieJar: Sendable {
    /// What the jar remembers between calls; the engine thread is its only user, and the lock keeps it
    /// safe without that being an invariant to uphold.
    private struct State {
        var lastWritten: String?
        var isLoaded = false
    }

    static let header = "# Netscape HTTP Cookie File\n# Written by sclm; mode 0600.\n"

    /// The jar file.
    let path: String
    private let logger: Logger?
    private let state: Mutex<State>

    /// Creates a jar stored at `path`.
    init(path: String, logger: Logger?) {
        self.path = path
        self.logger = logger
        state = Mutex(State(lastWritten: try? String(contentsOfFile: path, encoding: .utf8)))
    }

    /// The file libcurl should read cookies from: the jar the first time, then nothing ("" keeps the
    /// cookie engine on without reading).
    func pathToLoad() -> String {
        let wasLoaded = state.withLock { state in
            defer { state.isLoaded = true }
            return state.isLoaded
        }
        return !wasLoaded && FileSystem.exists(path) ? path : ""
    }

    /// Writes `lines` (libcurl's `CURLINFO_COOKIELIST`) to the jar when they changed.
    func persist(_ lines: [String]) {
        let text = CookieJar.header + lines.map { $0 + "\n" }.joined()
        state.withLock { state in
            guard text != state.lastWritten else { return }
            do {
                try FileSystem.writeAtomically(Data(text.utf8), to: path, mode: 0o600)
                state.lastWritten = text
            } catch {
                logger?.warning("cookies not saved: \(error.userMessage)")
            }
        }
    }
}
