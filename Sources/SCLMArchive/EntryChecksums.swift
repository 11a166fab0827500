import CISAL
import SCLMCore

/// The CRC-32 every entry's data must have, and the check libarchive would otherwise make; also how each
/// entry's data is stored.
///
/// libarchive checks CRCs with zlib's table-driven `crc32`, which was two thirds of the CPU time of reading
/// a package of media. The reader turns that check off (libarchive's `ignorecrc32` option) and the scanner
/// checks every file here instead, with ISA-L's folded CRC-32 (about ten times faster), against the value
/// the central directory declares; the local header's CRC must agree with it, as libarchive demands. An
/// entry is found by where its data starts: the last local header at or before that position.
struct EntryChecksums: Sendable {
    /// One entry: where its local header starts, the CRC-32 the central directory declares, and how its data
    /// is stored (for ``DeflateReader``).
    struct Entry: Sendable {
        let localHeaderOffset: Checked<UInt64>
        let crc32: UInt32
        /// The compressed size the central directory declares.
        let compressedSize: UInt64
        /// Whether the data is deflated (method 8) and not encrypted.
        let isDeflated: Bool
    }

    private let entries: [Entry]

    init(_ directory: ZipDirectory) {
        entries = directory.records.map {
            Entry(
                localHeaderOffset: $0.localHeaderOffset, crc32: $0.crc32, compressedSize: $0.compressedSize.value,
                isDeflated: $0.method == 8 && !$0.isEncrypted)
        }
        .sorted { $0.localHeaderOffset < $1.localHeaderOffset }
    }

    /// The entry whose data starts at `position` in the file, if any local header comes before it.
    func entry(atDataPosition position: Int64) -> Entry? {
        guard position >= 0 else { return nil }
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].localHeaderOffset.value <= UInt64(position) { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : entries[low - 1]
    }

    /// `crc` extended over `bytes` (start from 0).
    static func update(_ crc: UInt32, with bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        return crc32_gzip_refl(crc, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
    }

    /// ARCHIVE-CORRUPT when the entry's local header declares a CRC-32 other than the central directory's
    /// (a zero local CRC defers to the directory, as with a data descriptor), read through `fd`.
    static func localHeaderFinding(for entry: Entry, fd: Int32, path: String) -> Finding? {
        guard let local = ZipDirectory.localHeaderCRC(fd: fd, at: entry.localHeaderOffset), local != 0,
            local != entry.crc32
        else { return nil }
        return Finding(
            .archiveCorrupt, path: path,
            message: "the local header declares CRC-32 \(hex(local)), the central directory \(hex(entry.crc32))")
    }

    /// ARCHIVE-CRC when the entry's data, read whole, came to CRC-32 `computed` instead of the declared one.
    static func dataFinding(for entry: Entry, computed: UInt32, path: String) -> Finding? {
        guard computed != entry.crc32 else { return nil }
        return Finding(
            .archiveCRC, path: path,
            message: "the data's CRC-32 is \(hex(computed)), the zip declares \(hex(entry.crc32))")
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
