import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The central directory of a zip file: every entry as the archive declares it, read before any data.
///
/// libarchive is the decoder, but it normalises what it reports (a Windows name `img\a.png` becomes
/// `img/a.png`, a name with a NUL is cut short, two entries sharing one local header are silently
/// merged). The policy needs the names and flags exactly as stored, so this reads only the directory
/// records (no decompression) with `pread(2)`: end-of-central-directory (plus the ZIP64 locator), then
/// each `PK\1\2` record. Memory is bounded by the directory size, itself bounded by the entry budget.
struct ZipDirectory {
    /// One central-directory record.
    struct Record {
        let name: [UInt8]
        let flags: UInt16
        let method: UInt16
        /// The CRC-32 of the entry's uncompressed data.
        let crc32: UInt32
        let compressedSize: Checked<UInt64>
        let uncompressedSize: Checked<UInt64>
        /// Where the entry's local header starts in the file (any prepended bytes already added).
        let localHeaderOffset: Checked<UInt64>
        /// "Version made by": the upper byte names the host system (3 is Unix).
        let versionMadeBy: UInt16
        /// The external file attributes (host-specific; on Unix the mode is in the upper 16 bits).
        let externalAttributes: UInt32
        /// The variable data of the PKWARE Unix extra field (0x000d), when the record carries one: the
        /// name a hard or symbolic link points to, or a device's major and minor numbers.
        let unixExtraData: [UInt8]?

        /// General-purpose flag bit 0 (traditional or AES encryption) or bit 6 (strong encryption).
        var isEncrypted: Bool { flags & 0x0041 != 0 }

        /// The Unix mode (type and permission bits) the record declares, read as libarchive reads it: the
        /// upper 16 bits of the external attributes when "version made by" names Unix, else `nil`.
        var unixMode: UInt32? { versionMadeBy >> 8 == 3 ? externalAttributes >> 16 : nil }
    }

    /// Why a file cannot be read as a zip.
    enum Failure: Error, Equatable {
        case notZip(String)
        case truncated(String)
        case corrupt(String)
        case ioError(Int32)
    }

    /// The number of entries the archive declares.
    let entryCount: Int
    /// Where the central directory starts in the file.
    let directoryOffset: Checked<UInt64>
    /// Where the end-of-central-directory record starts in the file (its comment, if any, follows it).
    let endRecordOffset: UInt64
    /// The records, in directory order; empty when the entry count exceeded the limit given to ``read(fd:size:maxEntries:)``.
    let records: [Record]

    private static let endRecordSize = 22
    private static let maxCommentSize = 0xFFFF
    private static let maxDirectorySize: UInt64 = 64 << 20

    /// Reads the directory of the zip open on `fd` (`size` bytes long).
    ///
    /// When the archive declares more than `maxEntries` entries only the count is read.
    static func read(fd: Int32, size: UInt64, maxEntries: Int) -> Result<ZipDirectory, Failure> {
        Result { try readDirectory(fd: fd, size: size, maxEntries: maxEntries) }.mapError {
            $0 as? Failure ?? .ioError(EIO)
        }
    }

    private static func readDirectory(fd: Int32, size: UInt64, maxEntries: Int) throws -> ZipDirectory {
        if size == 0 { throw Failure.notZip("the file is empty") }
        let tailSize = Int(min(size, UInt64(endRecordSize + maxCommentSize)))
        let tailStart = Checked(size - UInt64(tailSize))
        let tail = try readBytes(fd: fd, at: tailStart, count: tailSize)
        guard let end = findEndRecord(in: tail) else {
            let head = try readBytes(fd: fd, at: Checked(0), count: Int(min(size, 4)))
            if head == [0x50, 0x4B, 0x03, 0x04] {
                throw Failure.truncated(
                    "the file starts like a zip but its central directory is missing (it was cut off)")
            }
            throw Failure.notZip("the file has no zip signature")
        }
        if tail.uint16(at: end + 4) != 0 || tail.uint16(at: end + 6) != 0 {
            throw Failure.corrupt("split (multi-volume) zip archives are not supported")
        }
        let endOffset = try tailStart.plus(end).orCorrupt("end record")
        var bounds = DirectoryBounds(
            count: Checked(UInt64(tail.uint16(at: end + 10))), size: Checked(UInt64(tail.uint32(at: end + 12))),
            offset: Checked(UInt64(tail.uint32(at: end + 16))), end: endOffset)
        if bounds.count.value == 0xFFFF || bounds.size.value == 0xFFFF_FFFF || bounds.offset.value == 0xFFFF_FFFF {
            bounds = try readZip64End(fd: fd, endOffset: bounds.end)
        }
        // Bytes prepended to the archive (a self-extractor stub) shift every offset by the same amount.
        guard let start = bounds.end.minus(bounds.size) else {
            throw Failure.truncated("the central directory extends past the file")
        }
        guard let shift = start.minus(bounds.offset) else {
            throw Failure.truncated("the central directory points past the file")
        }
        guard bounds.count.value <= UInt64(maxEntries) else {
            return ZipDirectory(
                entryCount: Int(clamping: bounds.count.value), directoryOffset: start, endRecordOffset: endOffset.value,
                records: [])
        }
        guard bounds.size.value <= maxDirectorySize else {
            throw Failure.corrupt("the central directory is implausibly large")
        }
        let bytes = try readBytes(fd: fd, at: start, count: Int(bounds.size.value))
        let records = try parseRecords(bytes, count: Int(bounds.count.value), shift: shift)
        return ZipDirectory(
            entryCount: records.count, directoryOffset: start, endRecordOffset: endOffset.value, records: records)
    }

    /// What an end record (or its ZIP64 form) declares: the entry count, the directory's size and offset,
    /// and where the directory must end (where the end record starts).
    private struct DirectoryBounds {
        var count: Checked<UInt64>
        var size: Checked<UInt64>
        var offset: Checked<UInt64>
        var end: Checked<UInt64>
    }

    /// The offset of the end-of-central-directory record in `tail`, searching backwards.
    private static func findEndRecord(in tail: [UInt8]) -> Int? {
        guard tail.count >= endRecordSize else { return nil }
        var index = tail.count - endRecordSize
        while index >= 0 {
            if tail[index] == 0x50, tail[index + 1] == 0x4B, tail[index + 2] == 0x05, tail[index + 3] == 0x06,
                index + endRecordSize + Int(tail.uint16(at: index + 20)) <= tail.count
            {
                return index
            }
            index -= 1
        }
        return nil
    }

    private static func readZip64End(fd: Int32, endOffset: Checked<UInt64>) throws -> DirectoryBounds {
        guard let locatorOffset = endOffset.minus(20) else { throw Failure.corrupt("the ZIP64 end record is missing") }
        let locator = try readBytes(fd: fd, at: locatorOffset, count: 20)
        guard locator.uint32(at: 0) == 0x0706_4B50 else { throw Failure.corrupt("the ZIP64 end locator is missing") }
        let recordOffset = Checked(locator.uint64(at: 8))
        guard let recordEnd = recordOffset.plus(56), recordEnd <= locatorOffset else {
            throw Failure.corrupt("the ZIP64 end record points past the file")
        }
        let record = try readBytes(fd: fd, at: recordOffset, count: 56)
        guard record.uint32(at: 0) == 0x0606_4B50 else { throw Failure.corrupt("the ZIP64 end record is damaged") }
        return DirectoryBounds(
            count: Checked(record.uint64(at: 32)), size: Checked(record.uint64(at: 40)),
            offset: Checked(record.uint64(at: 48)), end: recordOffset)
    }

    private static func parseRecords(_ bytes: [UInt8], count: Int, shift: Checked<UInt64>) throws -> [Record] {
        var records: [Record] = []
        records.reserveCapacity(count)
        var offset = 0
        for _ in 0..<count {
            guard offset + 46 <= bytes.count, bytes.uint32(at: offset) == 0x0201_4B50 else {
                throw Failure.corrupt("central directory record \(records.count + 1) is damaged")
            }
            let nameLength = Int(bytes.uint16(at: offset + 28))
            let extraLength = Int(bytes.uint16(at: offset + 30))
            let commentLength = Int(bytes.uint16(at: offset + 32))
            let next = offset + 46 + nameLength + extraLength + commentLength
            guard next <= bytes.count else {
                throw Failure.corrupt("central directory record \(records.count + 1) is cut short")
            }
            var compressed = UInt64(bytes.uint32(at: offset + 20))
            var uncompressed = UInt64(bytes.uint32(at: offset + 24))
            var local = UInt64(bytes.uint32(at: offset + 42))
            let extra = Array(bytes[(offset + 46 + nameLength)..<(offset + 46 + nameLength + extraLength)])
            applyZip64(extra, uncompressed: &uncompressed, compressed: &compressed, local: &local)
            guard let localHeaderOffset = Checked(local).plus(shift) else {
                throw Failure.corrupt("central directory record \(records.count + 1) puts its entry past the file")
            }
            records.append(
                Record(
                    name: Array(bytes[(offset + 46)..<(offset + 46 + nameLength)]), flags: bytes.uint16(at: offset + 8),
                    method: bytes.uint16(at: offset + 10), crc32: bytes.uint32(at: offset + 16),
                    compressedSize: Checked(compressed), uncompressedSize: Checked(uncompressed),
                    localHeaderOffset: localHeaderOffset, versionMadeBy: bytes.uint16(at: offset + 4),
                    externalAttributes: bytes.uint32(at: offset + 38), unixExtraData: unixExtraData(extra)))
            offset = next
        }
        return records
    }

    /// Replaces 0xFFFFFFFF fields with their values from the ZIP64 extra field (id 0x0001), in the order
    /// APPNOTE 4.5.3 gives: uncompressed size, compressed size, local header offset.
    private static func applyZip64(
        _ extra: [UInt8], uncompressed: inout UInt64, compressed: inout UInt64, local: inout UInt64
    ) {
        guard let (start, end) = extraField(0x0001, in: extra) else { return }
        var field = start
        if uncompressed == 0xFFFF_FFFF, field + 8 <= end { uncompressed = extra.uint64(at: field); field += 8 }
        if compressed == 0xFFFF_FFFF, field + 8 <= end { compressed = extra.uint64(at: field); field += 8 }
        if local == 0xFFFF_FFFF, field + 8 <= end { local = extra.uint64(at: field) }
    }

    /// The variable data of the PKWARE Unix extra field (APPNOTE 4.5.7, id 0x000d): after atime and mtime
    /// (4 bytes each), uid and gid (2 bytes each) come `TSize - 12` bytes of link target or device numbers.
    /// `nil` without the field; a field too short for its fixed part counts as absent.
    private static func unixExtraData(_ extra: [UInt8]) -> [UInt8]? {
        guard let (start, end) = extraField(0x000d, in: extra), end - start >= 12 else { return nil }
        return Array(extra[(start + 12)..<end])
    }

    /// The data bounds of the first extra field with `id` in a record's extra block (`id`, `size`, data…).
    private static func extraField(_ id: UInt16, in extra: [UInt8]) -> (start: Int, end: Int)? {
        var offset = 0
        while offset + 4 <= extra.count {
            let end = min(extra.count, offset + 4 + Int(extra.uint16(at: offset + 2)))
            if extra.uint16(at: offset) == id { return (offset + 4, end) }
            offset = end
        }
        return nil
    }

    /// The CRC-32 the local header at `offset` declares, or `nil` when no local header can be read there
    /// (libarchive reports that entry).
    static func localHeaderCRC(fd: Int32, at offset: Checked<UInt64>) -> UInt32? {
        guard let header = try? readBytes(fd: fd, at: offset, count: 30), header.uint32(at: 0) == 0x0403_4B50 else {
            return nil
        }
        return header.uint32(at: 14)
    }

    /// `count` bytes at `offset`; a position beyond what `pread(2)` can address is a corrupt archive.
    private static func readBytes(fd: Int32, at offset: Checked<UInt64>, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            guard let position = offset.plus(done)?.exactly(off_t.self) else {
                throw Failure.corrupt("the zip points to a position no file can have")
            }
            let result = bytes.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress?.advanced(by: done), count - done, position)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw Failure.ioError(errno)
            }
            if result == 0 { throw Failure.truncated("the file ends inside the zip's directory") }
            done += result
        }
        return bytes
    }
}

private extension Optional {
    /// The value, or a corrupt-archive failure naming `what` when the checked operation overflowed.
    func orCorrupt(_ what: String) throws -> Wrapped {
        guard let value = self else { throw ZipDirectory.Failure.corrupt("the zip's \(what) lies past any file") }
        return value
    }
}

private extension [UInt8] {
    /// The little-endian 16-bit value at `offset`.
    func uint16(at offset: Int) -> UInt16 { UInt16(self[offset]) | UInt16(self[offset + 1]) << 8 }
    /// The little-endian 32-bit value at `offset`.
    func uint32(at offset: Int) -> UInt32 { UInt32(uint16(at: offset)) | UInt32(uint16(at: offset + 2)) << 16 }
    /// The little-endian 64-bit value at `offset`.
    func uint64(at offset: Int) -> UInt64 { UInt64(uint32(at: offset)) | UInt64(uint32(at: offset + 4)) << 32 }
}
