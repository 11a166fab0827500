import CArchive

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A libarchive read handle over a zip file, streaming entries and their data.
///
/// Only the seekable zip reader is enabled: it takes sizes and types from the central directory, as
/// is recommended for downloaded files. Its CRC check is off: the caller checks CRCs (``EntryChecksums``).
/// The handle is freed in `deinit`; every libarchive return code is turned into an ``ArchiveStatus`` for
/// the caller to check. Not thread-safe: one handle belongs to one reading loop.
final class ArchiveReader {
    /// One entry's header, as libarchive reports it.
    struct Header {
        /// The (libarchive-normalised) pathname bytes.
        let pathname: [UInt8]
        /// `AE_IFREG`, `AE_IFDIR`, `AE_IFLNK`, … (masked with `AE_IFMT`).
        let fileType: UInt32
        /// The symlink target, for symbolic links.
        let symlinkTarget: String?
        /// The hard-link target, if libarchive reports one.
        let hardlinkTarget: String?
        /// Whether the entry's data is encrypted.
        let isEncrypted: Bool
        /// The modification time (seconds since 1970), when the archive records one.
        let modificationTime: Int?
    }

    /// One block of entry data; `bytes` is valid until the next call on the reader.
    struct Block {
        let status: ArchiveStatus
        let bytes: UnsafeRawBufferPointer
        let offset: Int64
    }

    private let handle: OpaquePointer
    /// What libarchive reads: the file up to its end record (``ZipView``); lives as long as the handle.
    private let view: ZipView
    private var entry: OpaquePointer?

    /// Opens the zip on `fd` (which stays owned by the caller, and may be shared: reads use `pread`) whose
    /// end-of-central-directory record lies at `endRecordOffset`, with reads of `blockSize` bytes.
    ///
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/libarchive``) when libarchive cannot be set up, or
    ///   ``ArchiveReader/OpenFailure`` with libarchive's message when the file is not readable as a zip.
    init(fileDescriptor fd: Int32, endRecordOffset: UInt64, blockSize: Int, path: String) throws {
        guard let handle = archive_read_new() else {
            throw ArchiveError(.libarchive, "libarchive could not allocate a reader", archivePath: path)
        }
        self.handle = handle
        view = ZipView(fileDescriptor: fd, endRecordOffset: endRecordOffset, blockSize: blockSize)
        try check(archive_read_support_format_zip_seekable(handle), "enable the zip reader", path: path)
        // The scanner checks every entry's CRC itself, much faster (EntryChecksums).
        try check(
            archive_read_set_format_option(handle, "zip", "ignorecrc32", "1"), "turn off its CRC check", path: path)
        try check(view.install(on: handle), "accept the file's reader", path: path)
        let status = ArchiveStatus(rawValue: archive_read_open1(handle))
        if status != .ok { throw OpenFailure(message: errorMessage) }
    }

    deinit {
        // archive_read_free also closes the reader; its status cannot be acted on during deinit.
        _ = archive_read_free(handle)
    }

    /// libarchive could not open the file as a zip.
    struct OpenFailure: Error {
        let message: String
    }

    /// Advances to the next entry: its header, or `nil` at the end, with the status to check.
    func nextHeader() -> (ArchiveStatus, Header?) {
        var next: OpaquePointer?
        let status = ArchiveStatus(rawValue: archive_read_next_header(handle, &next))
        entry = next
        guard status != .eof, !status.isFailure || status == .failed, let next else { return (status, nil) }
        let pathname = archive_entry_pathname(next).map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
        return (
            status,
            Header(
                pathname: pathname ?? [],
                fileType: UInt32(archive_entry_filetype(next)) & sclm_archive_ifmt(),
                symlinkTarget: archive_entry_symlink(next).map { String(cString: $0) },
                hardlinkTarget: archive_entry_hardlink(next).map { String(cString: $0) },
                isEncrypted: archive_entry_is_data_encrypted(next) != 0,
                modificationTime: archive_entry_mtime_is_set(next) != 0 ? Int(archive_entry_mtime(next)) : nil)
        )
    }

    /// The next block of the current entry's data (libarchive's buffer, not copied).
    func readBlock() -> Block {
        var buffer: UnsafeRawPointer?
        var size = 0
        var offset: Int64 = 0
        let status = ArchiveStatus(rawValue: archive_read_data_block(handle, &buffer, &size, &offset))
        let bytes = UnsafeRawBufferPointer(start: buffer, count: buffer == nil ? 0 : size)
        return Block(status: status, bytes: bytes, offset: offset)
    }

    /// How far libarchive has read into the file: the compressed bytes consumed so far.
    var position: Int64 { archive_filter_bytes(handle, 0) }

    /// libarchive's description of the last problem.
    var errorMessage: String {
        archive_error_string(handle).map { String(cString: $0) } ?? "unknown libarchive error"
    }

    private func check(_ code: Int32, _ action: String, path: String) throws {
        let status = ArchiveStatus(rawValue: code)
        guard status == .ok else {
            throw ArchiveError(.libarchive, "libarchive could not \(action): \(errorMessage)", archivePath: path)
        }
    }
}
