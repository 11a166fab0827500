import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Small POSIX file helpers that the standard library lacks: modes, atomic replace, fsync.
package enum FileSystem {
    /// `path` made absolute against the current directory, with `.` and `..` components resolved.
    package static func absolutePath(_ path: String) -> String {
        let base = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var parts: [Substring] = []
        for part in base.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Whether something exists at `path` (without following a final symlink).
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Whether `path` is a directory (following symlinks).
    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The permission bits of `path`, or `nil` if it does not exist.
    package static func mode(of path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    /// The size of the file at `path`, or `nil` if it does not exist.
    package static func size(of path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// Creates `path` and its missing parents with `mode` (an existing folder is left as it is).
    ///
    /// - Throws: `SCLMError` (`.storage`) when a component cannot be created or is not a folder.
    package static func makeDirectory(_ path: String, mode: mode_t = 0o700) throws {
        if isDirectory(path) { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeDirectory(parent, mode: mode) }
        if mkdir(path, mode) != 0 && errno != EEXIST {
            throw storageError("create folder \(path)", errno: errno)
        }
        if !isDirectory(path) {
            throw SCLMError(.storage, "cannot create folder \(path): a file is in the way; move it and retry")
        }
    }

    /// Whether this process may create and change files in `path` (`access(2)` with `W_OK`): false on a
    /// read-only mount (`EROFS`) or without write permission.
    package static func isWritable(_ path: String) -> Bool {
        access(path, W_OK) == 0
    }

    /// Sets the permission bits of `path`.
    ///
    /// - Throws: `SCLMError` (`.storage`).
    package static func setMode(_ path: String, _ mode: mode_t) throws {
        if chmod(path, mode) != 0 { throw storageError("set permissions of \(path)", errno: errno) }
    }

    /// Writes all of `bytes` to `fd`, retrying short writes, `EINTR` and `EAGAIN` (a non-blocking pipe).
    ///
    /// - Returns: 0, or the `errno` of the `write(2)` that failed.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard var pointer = bytes.baseAddress else { return 0 }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(fd, pointer, remaining)
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return errno
            }
            pointer += written
            remaining -= written
        }
        return 0
    }

    /// Replaces the file at `path` with `data` atomically: a temporary file with `mode` in the same folder
    /// is written, fsynced (unless `durable` is false) and renamed over `path`, so readers see the old or
    /// the new content, never half.
    ///
    /// - Throws: `SCLMError` (`.storage`), leaving the old file untouched.
    package static func writeAtomically(_ data: Data, to path: String, mode: mode_t = 0o600, durable: Bool = true)
        throws
    {
        // A fresh name made with O_EXCL (mkstemp): a file or symlink planted under a predictable name by
        // someone who can write to the folder is never opened, followed or truncated.
        var template = Array("\(path).tmp-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else { throw storageError("write \(path)", errno: errno) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure = data.withUnsafeBytes { writeAll(fd, $0) }
        if failure == 0, fchmod(fd, mode) != 0 || (durable && fsync(fd) != 0) { failure = errno }
        close(fd)
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw storageError("write \(path)", errno: failure)
        }
        if durable { syncDirectory(containing: path) }
    }

    /// Flushes the file at `path` to disk (`fsync`).
    ///
    /// - Throws: `SCLMError` (`.storage`).
    package static func syncFile(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw storageError("open \(path)", errno: errno) }
        defer { close(fd) }
        if fsync(fd) != 0 { throw storageError("flush \(path) to disk", errno: errno) }
    }

    /// Flushes the folder entry of `path` to disk, so a completed rename survives a crash.
    package static func syncDirectory(containing path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let fd = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Removes `path` and everything below it; a missing path is not an error.
    ///
    /// - Throws: `SCLMError` (`.storage`).
    package static func removeTree(_ path: String) throws {
        guard exists(path) else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw SCLMError(.storage, "cannot remove \(path): \(error.localizedDescription)")
        }
    }

    /// A storage error for a failed system call, with `strerror` text.
    package static func storageError(_ action: String, errno code: Int32) -> SCLMError {
        let reason = String(cString: strerror(code))
        let hint = code == ENOSPC ? "; free some disk space and retry" : code == EACCES ? "; check permissions" : ""
        return SCLMError(.storage, "cannot \(action): \(reason)\(hint)", systemError: code)
    }

    /// Whether `code` says the disk (or the quota, or the file-size limit) has no room for more bytes:
    /// `ENOSPC`, `EDQUOT` or `EFBIG`.
    package static func isOutOfSpace(_ code: Int32?) -> Bool {
        code.map { [ENOSPC, EDQUOT, EFBIG].contains($0) } ?? false
    }
}
