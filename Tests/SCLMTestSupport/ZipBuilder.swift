import CArchive
import Foundation

/// Builds zip files at test time with libarchive's writer: regular files (stored or deflated), folders,
/// symbolic links, and large runs of zeros streamed without holding them in memory.
///
/// ```swift
/// var zip = ZipBuilder()
/// zip.file("index.html", "<html>…</html>")
/// zip.symlink("escape", to: "/etc")
/// try zip.write(to: folder.appending("package.zip"))
/// ```
/// For what libarchive refuses to write (bad CRCs, encryption flags, non-UTF-8 names, shared headers),
/// edit the result with ``ZipBytes``.
package struct ZipBuilder {
    /// How an entry's data is stored.
    package enum Compression: String, Sendable {
        case store, deflate
    }

    private enum Content {
        case bytes([UInt8])
        case zeros(Int)
        case directory
        case symlink(String)
    }

    private struct Entry {
        let path: String
        let content: Content
        let compression: Compression
    }

    private var entries: [Entry] = []

    /// An empty archive.
    package init() {}

    /// Adds a regular file holding `text` (UTF-8).
    package mutating func file(_ path: String, _ text: String, compression: Compression = .deflate) {
        entries.append(Entry(path: path, content: .bytes(Array(text.utf8)), compression: compression))
    }

    /// Adds a regular file holding `bytes`.
    package mutating func file(_ path: String, bytes: [UInt8], compression: Compression = .deflate) {
        entries.append(Entry(path: path, content: .bytes(bytes), compression: compression))
    }

    /// Adds a regular file of `count` zero bytes, written in chunks (for size and ratio budgets).
    package mutating func zeros(_ path: String, count: Int, compression: Compression = .deflate) {
        entries.append(Entry(path: path, content: .zeros(count), compression: compression))
    }

    /// Adds a folder entry.
    package mutating func directory(_ path: String) {
        entries.append(Entry(path: path, content: .directory, compression: .store))
    }

    /// Adds a symbolic link to `target`.
    package mutating func symlink(_ path: String, to target: String) {
        entries.append(Entry(path: path, content: .symlink(target), compression: .store))
    }

    /// Adds every file under `folder` (recursively, in sorted order), named relative to it: how a
    /// presentation folder becomes its package.
    ///
    /// - Throws: when the folder cannot be listed or a file read.
    package mutating func folder(contentsOf folder: String, compression: Compression = .deflate) throws {
        let manager = FileManager.default
        for relative in (manager.subpaths(atPath: folder) ?? []).sorted() {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: folder + "/" + relative, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                directory(relative + "/")
            } else {
                let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + relative))
                file(relative, bytes: Array(data), compression: compression)
            }
        }
    }

    /// Writes the archive to `path`.
    ///
    /// - Throws: ``ZipBuilderError`` when libarchive refuses an entry.
    package func write(to path: String) throws {
        guard let archive = archive_write_new() else { throw ZipBuilderError("archive_write_new failed") }
        defer { archive_write_free(archive) }
        try check(archive, archive_write_set_format_zip(archive), "set zip format")
        try check(archive, archive_write_open_filename(archive, path), "open \(path)")
        guard let entry = archive_entry_new() else { throw ZipBuilderError("archive_entry_new failed") }
        defer { archive_entry_free(entry) }
        for item in entries {
            archive_entry_clear(entry)
            try add(item, entry: entry, archive: archive)
        }
        try check(archive, archive_write_close(archive), "close \(path)")
    }

    private func add(_ item: Entry, entry: OpaquePointer, archive: OpaquePointer) throws {
        let compression =
            item.compression == .store
            ? archive_write_zip_set_compression_store(archive) : archive_write_zip_set_compression_deflate(archive)
        try check(archive, compression, "set compression")
        archive_entry_set_pathname(entry, item.path)
        archive_entry_set_mtime(entry, 1_700_000_000, 0)
        switch item.content {
        case .bytes(let bytes):
            archive_entry_set_filetype(entry, UInt32(SCLM_AE_IFREG))
            archive_entry_set_perm(entry, 0o644)
            archive_entry_set_size(entry, Int64(bytes.count))
            try check(archive, archive_write_header(archive, entry), "write header of \(item.path)")
            try bytes.withUnsafeBytes { try writeData(archive, $0, path: item.path) }
        case .zeros(let count):
            archive_entry_set_filetype(entry, UInt32(SCLM_AE_IFREG))
            archive_entry_set_perm(entry, 0o644)
            archive_entry_set_size(entry, Int64(count))
            try check(archive, archive_write_header(archive, entry), "write header of \(item.path)")
            let chunk = [UInt8](repeating: 0, count: 1 << 20)
            var remaining = count
            while remaining > 0 {
                let size = min(remaining, chunk.count)
                try chunk.withUnsafeBytes {
                    try writeData(archive, UnsafeRawBufferPointer(rebasing: $0[..<size]), path: item.path)
                }
                remaining -= size
            }
        case .directory:
            archive_entry_set_filetype(entry, UInt32(SCLM_AE_IFDIR))
            archive_entry_set_perm(entry, 0o755)
            try check(archive, archive_write_header(archive, entry), "write header of \(item.path)")
        case .symlink(let target):
            archive_entry_set_filetype(entry, UInt32(SCLM_AE_IFLNK))
            archive_entry_set_perm(entry, 0o777)
            archive_entry_set_symlink(entry, target)
            try check(archive, archive_write_header(archive, entry), "write header of \(item.path)")
        }
    }

    private func writeData(_ archive: OpaquePointer, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        guard !bytes.isEmpty else { return }
        let written = archive_write_data(archive, bytes.baseAddress, bytes.count)
        guard written == bytes.count else {
            throw ZipBuilderError("write data of \(path): \(String(cString: archive_error_string(archive)))")
        }
    }

    private func check(_ archive: OpaquePointer, _ status: Int32, _ action: String) throws {
        guard status == ARCHIVE_OK else {
            let message = archive_error_string(archive).map { String(cString: $0) } ?? "status \(status)"
            throw ZipBuilderError("\(action): \(message)")
        }
    }
}

/// A zip could not be built or edited.
package struct ZipBuilderError: Error, CustomStringConvertible {
    package let description: String

    init(_ description: String) { self.description = description }
}
