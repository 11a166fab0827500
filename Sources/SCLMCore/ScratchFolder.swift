import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Temporary folders that name the process that made them, so one left behind by a process that was
/// killed (`kill -9` skips every clean-up) is removed by the next one.
///
/// ``make(prefix:)`` creates `<tmp>/<prefix>XXXXXX` (mode 0700) holding `owner.pid`; it first removes the
/// folders with the same prefix whose owner is no longer running.
package enum ScratchFolder {
    /// The file inside each folder that holds its owner's process id.
    static let ownerFile = "owner.pid"

    /// Creates a fresh folder in `base` (by default `$TMPDIR`, else `/tmp`).
    ///
    /// - Throws: `SCLMError` (`.storage`) when it cannot be created.
    package static func make(prefix: String, in base: String = temporaryDirectory) throws -> String {
        sweep(base, prefix: prefix)
        var template = Array((base + "/" + prefix + "XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            let reason = String(cString: strerror(errno))
            throw SCLMError(.storage, "cannot create a temporary folder in \(base): \(reason)")
        }
        let path = String(cString: made)
        try? Data("\(getpid())\n".utf8).write(to: URL(fileURLWithPath: path + "/" + ownerFile))
        return path
    }

    /// `$TMPDIR`, else `/tmp`.
    package static var temporaryDirectory: String {
        guard let variable = ProcessInfo.processInfo.environment["TMPDIR"], !variable.isEmpty else { return "/tmp" }
        return variable
    }

    /// Removes the folders of `base` named `prefix…` whose owner process has exited.
    static func sweep(_ base: String, prefix: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        for name in names where name.hasPrefix(prefix) {
            let folder = base + "/" + name
            guard let text = try? String(contentsOfFile: folder + "/" + ownerFile, encoding: .utf8),
                let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0
            else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { try? FileManager.default.removeItem(atPath: folder) }
        }
    }
}
