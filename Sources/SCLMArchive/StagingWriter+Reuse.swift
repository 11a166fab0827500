import CArchive
import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a file of the installed revision was put into a delta update's staging folder.
package enum ReuseMethod: String, Sendable, Equatable {
    /// A reflink (`FICLONE`): a new file sharing the old one's data blocks (Btrfs, XFS).
    case reflink
    /// A hard link to the installed file (same inode).
    case hardLink
    /// A byte copy (no reflinks, and no hard links across the two folders).
    case copy
}

extension StagingWriter {
    /// Puts the installed file at `source` into the staging folder as `path` without copying its bytes where
    /// that is possible: a reflink, else a hard link, else a copy. Folders on the way are created as for an
    /// extracted file; the new name never follows a link (`O_EXCL|O_NOFOLLOW`, `linkat` without
    /// `AT_SYMLINK_FOLLOW`).
    ///
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/writeFailed``).
    mutating func reuse(_ path: String, from source: String) throws -> ReuseMethod {
        let parent = try folder(PackagePath.directory(of: path))
        let name = PackagePath.fileName(of: path)
        let input = open(source, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard input >= 0 else { throw failure("open the installed file for", path) }
        defer { close(input) }
        var output = sclm_archive_openat(parent, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw failure("create", path) }
        if sclm_archive_clone(output, input) == 0 {
            try closeReused(output, keepingTimeOf: input, path)
            return .reflink
        }
        close(output)
        unlinkat(parent, name, 0)
        if linkat(AT_FDCWD, source, parent, name, 0) == 0 {
            fileCount += 1
            return .hardLink
        }
        output = sclm_archive_openat(parent, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw failure("create", path) }
        try copy(input, to: output, path)
        try closeReused(output, keepingTimeOf: input, path)
        return .copy
    }

    private func copy(_ input: Int32, to output: Int32, _ path: String) throws {
        var buffer = [UInt8](repeating: 0, count: 256 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                close(output)
                throw failure("read the installed file for", path)
            }
            if count == 0 { return }
            let code = buffer.withUnsafeBytes {
                FileSystem.writeAll(output, UnsafeRawBufferPointer(rebasing: $0[..<count]))
            }
            guard code == 0 else {
                close(output)
                errno = code
                throw failure("write", path)
            }
        }
    }

    /// Gives `output` the modification time of `input` (the entry's time when it was unpacked) and closes it.
    private mutating func closeReused(_ output: Int32, keepingTimeOf input: Int32, _ path: String) throws {
        var info = stat()
        if fstat(input, &info) == 0 {
            var times = [info.st_mtim, info.st_mtim]
            _ = futimens(output, &times)
        }
        guard close(output) == 0 else { throw failure("write", path) }
        fileCount += 1
    }
}
