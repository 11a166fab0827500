import CArchive

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The zip file as libarchive is shown it: the bytes up to the end of the end-of-central-directory record,
/// with the record's comment length read as 0, served by `pread(2)` through libarchive's client callbacks.
///
/// The format allows a zip comment of up to 65,535 bytes after the end record, but libarchive's seekable zip
/// reader looks for the record only in the last 16 KiB of the file and calls a zip with a longer comment
/// damaged. ``ZipDirectory`` finds the record in the last 65,557 bytes; this view ends the file right after
/// it, so libarchive finds it where it looks first (22 bytes from the end, with no comment), whatever the
/// comment was. The comment itself is never read (nothing in a package depends on it).
///
/// Reads go through `pread`, so several views may share one descriptor (each keeps its own position). They
/// start small after every seek (libarchive seeks to each entry's local header, and a parallel worker skips
/// the entries of the others by seeking: a whole block there would be read for a 30-byte header) and double
/// while reading goes on, up to the block size. One view belongs to one libarchive reader (``ArchiveReader``),
/// which calls it on its reading thread only.
final class ZipView {
    private let fd: Int32
    /// The length of the view: the end record's offset plus its 22 bytes.
    private let length: Int64
    /// Where the end record's 2-byte comment length lies in the file.
    private let commentLengthOffset: Int64
    private let blockSize: Int
    private let buffer: UnsafeMutableRawPointer
    private var position: Int64 = 0
    /// The size of the next read: ``firstReadSize`` after a seek, doubling up to `blockSize`.
    private var readSize: Int

    /// The first read after a seek: a local header and the start of the entry's data.
    private static let firstReadSize = 16 << 10

    /// A view of the zip open on `fd` that ends with the end record at `endRecordOffset`, read in blocks
    /// of up to `blockSize` bytes.
    init(fileDescriptor fd: Int32, endRecordOffset: UInt64, blockSize: Int) {
        self.fd = fd
        // The end record was read from the file, so its offset is far below Int64.max.
        length = Int64(clamping: endRecordOffset) &+ 22
        commentLengthOffset = length &- 2
        self.blockSize = max(blockSize, Self.firstReadSize)
        readSize = Self.firstReadSize
        buffer = .allocate(byteCount: self.blockSize, alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// Hands this view to `archive` as its client (read, seek, skip and close callbacks).
    ///
    /// The view must outlive the archive handle: libarchive keeps an unretained pointer to it.
    func install(on archive: OpaquePointer) -> Int32 {
        let client = Unmanaged.passUnretained(self).toOpaque()
        for status in [
            archive_read_set_callback_data(archive, client),
            archive_read_set_read_callback(archive) { archive, client, block in
                ZipView.from(client).read(archive, into: block)
            },
            archive_read_set_seek_callback(archive) { _, client, offset, whence in
                ZipView.from(client).seek(to: offset, whence: whence)
            },
            archive_read_set_skip_callback(archive) { _, client, request in ZipView.from(client).skip(request) },
            archive_read_set_close_callback(archive) { _, _ in ARCHIVE_OK },
        ] where status != ARCHIVE_OK {
            return status
        }
        return ARCHIVE_OK
    }

    private static func from(_ client: UnsafeMutableRawPointer?) -> ZipView {
        // libarchive passes back the pointer given to archive_read_set_callback_data: never nil.
        Unmanaged<ZipView>.fromOpaque(client.unsafelyUnwrapped).takeUnretainedValue()
    }

    /// The next block of the view: its byte count (0 at the end), or `ARCHIVE_FATAL` with the error set.
    private func read(_ archive: OpaquePointer?, into block: UnsafeMutablePointer<UnsafeRawPointer?>?) -> Int {
        block?.pointee = UnsafeRawPointer(buffer)
        let wanted = Int(clamping: max(0, min(Int64(readSize), length - position)))
        guard wanted > 0 else { return 0 }
        readSize = min(readSize * 2, blockSize)
        var count: Int
        repeat {
            count = pread(fd, buffer, wanted, off_t(position))
        } while count < 0 && errno == EINTR
        guard count >= 0 else {
            sclm_archive_set_read_error(archive, errno)
            return Int(ARCHIVE_FATAL)
        }
        hideComment(count: count)
        position += Int64(count)
        return count
    }

    /// Zeroes the bytes of the comment length that the block just read (`count` bytes at `position`) holds.
    private func hideComment(count: Int) {
        for offset in commentLengthOffset..<length where offset >= position && offset < position + Int64(count) {
            buffer.storeBytes(of: 0, toByteOffset: Int(offset - position), as: UInt8.self)
        }
    }

    /// Moves to `offset` from the start, the current position or the end (`whence`); the new position, or
    /// `ARCHIVE_FATAL` for a position before the start (or one that overflows).
    private func seek(to offset: Int64, whence: Int32) -> Int64 {
        let base: Int64
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END: base = length
        default: return Int64(ARCHIVE_FATAL)
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, target >= 0 else { return Int64(ARCHIVE_FATAL) }
        position = target
        readSize = Self.firstReadSize
        return target
    }

    /// Skips up to `request` bytes without reading them; how many were skipped (fewer at the end of the view).
    private func skip(_ request: Int64) -> Int64 {
        let skipped = max(0, min(request, length - position))
        position += skipped
        readSize = Self.firstReadSize
        return skipped
    }
}
