import CArchive
import Foundation

/// A bzip2 stream of under 1 KiB that expands to more than a requested size of zeros: the payload of a
/// ratio bomb, made in well under a second.
///
/// bzip2 (level 9) packs about 44 MiB of zeros into one 32-byte block, and identical input gives
/// bit-identical blocks. So libarchive's bzip2 writer compresses one full block plus a short tail, and the
/// full block's bits are repeated as often as needed (blocks are bit-aligned, not byte-aligned), followed
/// by the tail block and an end-of-stream marker with the recomputed combined CRC
/// (`combined = rotl(combined, 1) ^ blockCRC`, per the bzip2 format).
package enum Bzip2Bomb {
    private static let blockMagic: UInt64 = 0x3141_5926_5359
    private static let endMagic: UInt64 = 0x1772_4538_5090
    /// More zeros than one level-9 block holds (45,899,235 with libbz2 1.0.x), so the sample has two blocks.
    private static let sampleSize = 46_000_000

    /// A stream that decompresses to at least `minimumSize` zero bytes, and the exact size it expands to.
    ///
    /// - Throws: ``ZipBuilderError`` when libarchive cannot compress or the block layout is unexpected.
    package static func stream(expandingToAtLeast minimumSize: Int64) throws -> (bytes: [UInt8], expandedSize: Int64) {
        let sample = try compress(zeros: sampleSize)
        let bits = Bits(bytes: Array(sample.dropFirst(4)))
        let starts = bits.positions(of: blockMagic)
        guard starts.count == 2, let end = bits.positions(of: endMagic).last else {
            throw ZipBuilderError("unexpected bzip2 block layout: \(starts.count) blocks")
        }
        let full = bits.slice(starts[0]..<starts[1])
        let tail = bits.slice(starts[1]..<end)
        let tailSize = try expandedSize(of: assemble([tail]))
        let blockSize = Int64(sampleSize - tailSize)
        let copies = Int((minimumSize + blockSize - 1) / blockSize)
        let stream = assemble(Array(repeating: full, count: copies) + [tail])
        return (stream, Int64(copies) * blockSize + Int64(tailSize))
    }

    /// Writes `base` plus an entry `name` holding a bzip2 stream that expands to at least `minimumSize`
    /// bytes, while the entry declares 1 KiB (method 12, stored as is): a ratio bomb in a zip.
    ///
    /// - Returns: the stream (its size and what it expands to).
    @discardableResult
    package static func writeZip(
        to path: String, expandingToAtLeast minimumSize: Int64, base: ZipBuilder = ZipBuilder(),
        entry name: String = "bomb.bin"
    ) throws -> (bytes: [UInt8], expandedSize: Int64) {
        let bomb = try stream(expandingToAtLeast: minimumSize)
        var builder = base
        builder.file(name, bytes: bomb.bytes, compression: .store)
        try builder.write(to: path)
        var bytes = try ZipBytes(contentsOf: path)
        try bytes.setMethod(12, declaredSize: 1024, onEntry: name)
        try bytes.write(to: path)
        return bomb
    }

    /// `blocks` (bit strings, each starting with the block magic and CRC) as a complete level-9 stream.
    private static func assemble(_ blocks: [[Bool]]) -> [UInt8] {
        var combined: UInt32 = 0
        var bits = Bits()
        for block in blocks {
            let crc = UInt32(Bits(bits: block).value(at: 48, width: 32))
            combined = (combined << 1 | combined >> 31) ^ crc
            bits.append(block)
        }
        bits.append(endMagic, width: 48)
        bits.append(UInt64(combined), width: 32)
        return Array("BZh9".utf8) + bits.bytes()
    }

    private static func compress(zeros count: Int) throws -> [UInt8] {
        guard let archive = archive_write_new() else { throw ZipBuilderError("archive_write_new failed") }
        defer { archive_write_free(archive) }
        var output = [UInt8](repeating: 0, count: 64 << 10)
        var used = 0
        guard archive_write_add_filter_bzip2(archive) == ARCHIVE_OK,
            archive_write_set_format_raw(archive) == ARCHIVE_OK,
            archive_write_set_filter_option(archive, "bzip2", "compression-level", "9") == ARCHIVE_OK,
            archive_write_open_memory(archive, &output, output.count, &used) == ARCHIVE_OK,
            let entry = archive_entry_new()
        else { throw ZipBuilderError("libarchive bzip2 writer: \(String(cString: archive_error_string(archive)))") }
        defer { archive_entry_free(entry) }
        archive_entry_set_filetype(entry, UInt32(SCLM_AE_IFREG))
        archive_entry_set_pathname(entry, "zeros")
        archive_entry_set_size(entry, Int64(count))
        guard archive_write_header(archive, entry) == ARCHIVE_OK else { throw ZipBuilderError("bzip2 header failed") }
        let chunk = [UInt8](repeating: 0, count: 1 << 20)
        var remaining = count
        while remaining > 0 {
            let size = min(remaining, chunk.count)
            guard archive_write_data(archive, chunk, size) == size else { throw ZipBuilderError("bzip2 write failed") }
            remaining -= size
        }
        guard archive_write_close(archive) == ARCHIVE_OK else { throw ZipBuilderError("bzip2 close failed") }
        return Array(output.prefix(used))
    }

    /// The size `stream` decompresses to, read with libarchive's bzip2 reader.
    package static func expandedSize(of stream: [UInt8]) throws -> Int {
        guard let archive = archive_read_new() else { throw ZipBuilderError("archive_read_new failed") }
        defer { archive_read_free(archive) }
        archive_read_support_filter_bzip2(archive)
        archive_read_support_format_raw(archive)
        var entry: OpaquePointer?
        return try stream.withUnsafeBytes { buffer in
            guard archive_read_open_memory(archive, buffer.baseAddress, buffer.count) == ARCHIVE_OK,
                archive_read_next_header(archive, &entry) == ARCHIVE_OK
            else { throw ZipBuilderError("bzip2 read failed: \(String(cString: archive_error_string(archive)))") }
            var total = 0
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let count = archive_read_data(archive, &chunk, chunk.count)
                guard count >= 0 else { throw ZipBuilderError("bzip2 decode failed") }
                if count == 0 { return total }
                total += count
            }
        }
    }
}

/// A growable bit string, most significant bit first (bzip2's bit order).
private struct Bits {
    private(set) var storage: [Bool] = []

    init() {}
    init(bits: [Bool]) { storage = bits }
    init(bytes: [UInt8]) {
        storage.reserveCapacity(bytes.count * 8)
        for byte in bytes { for shift in (0..<8).reversed() { storage.append(byte >> shift & 1 == 1) } }
    }

    func value(at offset: Int, width: Int) -> UInt64 {
        storage[offset..<(offset + width)].reduce(0) { $0 << 1 | ($1 ? 1 : 0) }
    }

    func positions(of pattern: UInt64) -> [Int] {
        guard storage.count >= 48 else { return [] }
        return (0...(storage.count - 48)).filter { value(at: $0, width: 48) == pattern }
    }

    func slice(_ range: Range<Int>) -> [Bool] { Array(storage[range]) }

    mutating func append(_ bits: [Bool]) { storage += bits }

    mutating func append(_ value: UInt64, width: Int) {
        for shift in (0..<width).reversed() { storage.append(value >> UInt64(shift) & 1 == 1) }
    }

    func bytes() -> [UInt8] {
        stride(from: 0, to: storage.count, by: 8).map { start in
            (0..<8).reduce(UInt8(0)) { byte, bit in
                byte << 1 | (start + bit < storage.count && storage[start + bit] ? 1 : 0)
            }
        }
    }
}
