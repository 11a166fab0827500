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

    /// Replaces the file at `path` with `data` atomically: a new temporary file in the same folder gets `mode`
    /// and `data`, is fsynced (unless `durable` is false) and renamed over `path`, so readers see the old or the
    /// new content, never half.
    ///
    /// The folder may be writable by others (a metrics textfile folder): the temporary file gets a fresh random
    /// name and is created with `O_EXCL | O_NOFOLLOW`, so nothing planted there is opened, followed or truncated.
    ///
    /// - Throws: `SCLMError` (`.storage`), leaving the old file untouched and no temporary file behind.
    package static func writeAtomically(_ data: Data, to path: String, mode: mode_t = 0o600, durable: Bool = true)
        throws
    {
        let (fd, temporary) = try createTemporaryFile(beside: path)
        var failure = fchmod(fd, mode) == 0 ? 0 : errno
        if failure == 0 { failure = data.withUnsafeBytes { writeAll(fd, $0) } }
        if failure == 0, durable, fsync(fd) != 0 { failure = errno }
        // close(2) can report a write that failed late (NFS, a full quota); after EINTR the fd is closed anyway.
        if close(fd) != 0, failure == 0, errno != EINTR { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw storageError("write \(path)", errno: failure)
        }
        if durable { syncDirectory(containing: path) }
    }

    /// How many fresh names ``createTemporaryFile(beside:)`` tries before it gives up: each is taken only by
    /// chance (1 in 62^12) or by a planted file, so a few suffice.
    private static let temporaryFileAttempts = 16

    /// Creates a new empty file `<path>.tmp-<12 random letters and digits>` (mode 0600, write-only, close-on-exec)
    /// with `O_CREAT | O_EXCL | O_NOFOLLOW`, as `mkstemp(3)` does: a taken name, a symlink included, is never
    /// opened, and another fresh name is tried instead.
    ///
    /// - Returns: the open file descriptor and the file's path.
    /// - Throws: `SCLMError` (`.storage`) when the file cannot be created.
    private static func createTemporaryFile(beside path: String) throws -> (fd: Int32, path: String) {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
        var random = SystemRandomNumberGenerator()
        for _ in 0..<temporaryFileAttempts {
            let suffix = (0..<12).map { _ in alphabet[Int.random(in: alphabet.indices, using: &random)] }
            let temporary = "\(path).tmp-" + String(decoding: suffix, as: UTF8.self)
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 { return (fd, temporary) }
            if errno != EEXIST { throw storageError("write \(path)", errno: errno) }
        }
        throw SCLMError(
            .storage,
            "cannot write \(path): \(temporaryFileAttempts) fresh temporary names beside it were all taken; "
                + "remove the files named like \((path as NSString).lastPathComponent).tmp-* in its folder",
            systemError: EEXIST)
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
