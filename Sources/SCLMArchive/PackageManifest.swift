import CArchive
import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a delta update knows of the installed revision: each regular file's path, size and CRC-32, with the
/// inode and times that tell cheaply whether the file changed since it was recorded.
///
/// An install records the CRC-32 the zip declares (the extraction verified every file against it) and the
/// `stat` of the installed file. Before a delta update trusts a recorded CRC, ``current(of:recorded:)``
/// compares the file's `stat` with the record: any difference (a hand edit, a restore from a backup, a file
/// replaced) and the file is hashed again (ISA-L CRC-32), so an edited file is never taken for the new
/// revision's. A revision installed without a manifest has every file hashed.
package enum PackageManifest {
    /// A regular file as the zip declares it.
    package struct DeclaredFile: Sendable, Equatable {
        package let path: String
        package let size: Int64
        package let crc32: UInt32
    }

    /// A file's content as it is on disk now.
    package struct Content: Sendable, Equatable {
        package let size: Int64
        package let crc32: UInt32

        /// A file of `size` bytes with CRC-32 `crc32`.
        package init(size: Int64, crc32: UInt32) {
            self.size = size
            self.crc32 = crc32
        }
    }

    private static let blockSize = 256 << 10

    /// The regular files the zip at `path` declares, from its central directory (no data is read).
    ///
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/unreadable``) when the zip cannot be read.
    package static func declaredFiles(ofZipAt path: String) throws -> [DeclaredFile] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ArchiveError.system(.unreadable, "open \(path)", path: path, errno: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw ArchiveError.system(.unreadable, "read \(path)", path: path, errno: errno)
        }
        switch ZipDirectory.read(fd: fd, size: UInt64(info.st_size), maxEntries: Policy.standard.maxEntryCount) {
        case .success(let directory): return declaredFiles(in: directory)
        case .failure(let failure):
            throw ArchiveError(.unreadable, "cannot read the directory of \(path): \(failure)", archivePath: path)
        }
    }

    /// The regular files `directory` declares.
    static func declaredFiles(in directory: ZipDirectory) -> [DeclaredFile] {
        directory.records.compactMap { record in
            let name = EntryName(raw: record.name, policy: .standard)
            guard !name.isDirectory, !name.path.isEmpty else { return nil }
            return DeclaredFile(
                path: name.path, size: Int64(clamping: record.uncompressedSize.value), crc32: record.crc32)
        }
    }

    /// The manifest of `files` as installed in `folder`: each file's `stat` with the declared size and CRC-32;
    /// a file that cannot be inspected is left out (a later delta update then fetches it).
    package static func record(_ files: [DeclaredFile], in folder: String) -> [ManifestEntry] {
        files.compactMap { file in
            guard let info = regularFileStat(folder + "/" + file.path), Int64(info.st_size) == file.size else {
                return nil
            }
            return ManifestEntry(path: file.path, crc32: file.crc32, stat: info)
        }
    }

    /// What each file of the installed revision in `folder` holds now, by path: from `recorded` where the
    /// file's `stat` still matches its record, hashed otherwise; without a record, every regular file found
    /// in `folder` (hashed). Files that are gone or not regular are absent.
    ///
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/unreadable``) when a file cannot be read.
    package static func current(of folder: String, recorded: [ManifestEntry]?) throws -> [String: Content] {
        var contents: [String: Content] = [:]
        let entries: [(path: String, record: ManifestEntry?)] =
            try recorded.map { $0.map { ($0.path, $0) } } ?? regularFiles(in: folder).map { ($0, nil) }
        for entry in entries {
            let path = folder + "/" + entry.path
            guard let info = regularFileStat(path) else { continue }
            if let record = entry.record, record.matches(info) {
                contents[entry.path] = Content(size: record.size, crc32: record.crc32)
            } else {
                contents[entry.path] = Content(size: Int64(info.st_size), crc32: try crc32(ofFileAt: path))
            }
        }
        return contents
    }

    /// The CRC-32 of the file at `path`.
    ///
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/unreadable``).
    package static func crc32(ofFileAt path: String) throws -> UInt32 {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw ArchiveError.system(.unreadable, "open \(path)", path: path, errno: errno) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: blockSize)
        var crc: UInt32 = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ArchiveError.system(.unreadable, "read \(path)", path: path, errno: errno)
            }
            if count == 0 { return crc }
            crc = buffer.withUnsafeBytes {
                EntryChecksums.update(crc, with: UnsafeRawBufferPointer(rebasing: $0[..<count]))
            }
        }
    }

    /// The `lstat` of `path` when it is a regular file.
    static func regularFileStat(_ path: String) -> stat? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return info
    }

    /// The paths of the regular files under `folder`, relative to it (links and other types are skipped).
    private static func regularFiles(in folder: String, prefix: String = "") throws -> [String] {
        guard let stream = opendir(prefix.isEmpty ? folder : folder + "/" + prefix) else {
            throw ArchiveError.system(.unreadable, "list \(folder)/\(prefix)", path: folder, errno: errno)
        }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        closedir(stream)
        var files: [String] = []
        for name in names {
            let relative = prefix.isEmpty ? name : prefix + "/" + name
            var info = stat()
            guard lstat(folder + "/" + relative, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: files += try regularFiles(in: folder, prefix: relative)
            case S_IFREG: files.append(relative)
            default: continue
            }
        }
        return files
    }
}
