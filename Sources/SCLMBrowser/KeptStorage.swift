import Foundation
import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a browser keeps across runs for one presentation, as a tablet's WebView does: the parts of
/// Chromium's `Default` profile folder that hold what pages stored (`localStorage`, IndexedDB, cookies,
/// WebSQL, the file system API), never its caches.
///
/// ``restore(from:into:owner:)`` copies them into a fresh profile before the browser starts;
/// ``save(from:to:)`` copies them back once the browser has ended (closed cleanly first, so what the
/// page stored is on disk).
enum KeptStorage {
    /// The parts of `Default/` that are kept.
    static let parts = [
        "Local Storage", "IndexedDB", "Network", "Cookies", "Cookies-journal", "databases", "File System",
    ]

    /// Copies the kept parts of `kept` (if any) into `profile/Default`, owned by `owner` when given.
    ///
    /// - Throws: file errors.
    static func restore(from kept: String, into profile: String, owner: (uid: uid_t, gid: gid_t)?) throws {
        let target = profile + "/Default"
        try FileSystem.makeDirectory(target, mode: 0o700)
        for part in parts where FileManager.default.fileExists(atPath: kept + "/" + part) {
            try FileManager.default.copyItem(atPath: kept + "/" + part, toPath: target + "/" + part)
        }
        guard let owner else { return }
        _ = chown(target, owner.uid, owner.gid)
        let names = FileManager.default.enumerator(atPath: target)?.compactMap { $0 as? String } ?? []
        for name in names { _ = lchown(target + "/" + name, owner.uid, owner.gid) }
    }

    /// Replaces the kept parts in `kept` (a 0700 folder, made if missing) with those of `profile/Default`.
    ///
    /// - Throws: file errors.
    static func save(from profile: String, to kept: String) throws {
        try FileSystem.makeDirectory(kept, mode: 0o700)
        for part in parts {
            let source = profile + "/Default/" + part
            let target = kept + "/" + part
            if FileManager.default.fileExists(atPath: target) { try FileManager.default.removeItem(atPath: target) }
            if FileManager.default.fileExists(atPath: source) {
                try FileManager.default.copyItem(atPath: source, toPath: target)
            }
        }
    }
}
