import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether another user can reach a folder, judged from the modes of the folders on its path.
enum FolderAccess {
    /// Whether `uid`/`gid` (with no supplementary groups) may search `path` and every folder above it.
    static func canTraverse(_ path: String, uid: uid_t, gid: gid_t) -> Bool {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var folders = ["/"]
        for component in absolute.split(separator: "/") {
            folders.append((folders.count == 1 ? "" : folders[folders.count - 1]) + "/" + component)
        }
        return folders.allSatisfy { folder in
            var info = stat()
            guard stat(folder, &info) == 0 else { return false }
            let mode = info.st_mode
            if info.st_uid == uid { return mode & S_IXUSR != 0 }
            if info.st_gid == gid { return mode & S_IXGRP != 0 }
            return mode & S_IXOTH != 0
        }
    }
}
