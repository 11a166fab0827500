import CISAL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Inflates one deflated zip entry with ISA-L, reading its compressed bytes straight from the file.
///
/// libarchive inflates with zlib, which was two thirds of the CPU time of validating a package of scripts
/// and stylesheets; ISA-L's inflate is about twice as fast. libarchive still reads the entry's local header
/// (and every check it makes there); the scanner then takes the data from here instead, and libarchive
/// seeks past it to the next entry. The compressed bytes are the central directory's `compressedSize`
/// from where libarchive left off; reads use `pread`, so the descriptor may be shared.
///
/// The blocks have the shape of libarchive's (``ArchiveReader/Block``): `.ok` with bytes, `.eof` at the end of
/// the stream, `.failed` with ``failure(path:)`` for damaged or cut-off data. Not thread-safe: one reader
/// belongs to one reading loop.
final class DeflateReader {
    private let fd: Int32
    private let state: UnsafeMutableRawPointer
    private let blockSize: Int
    private let input: UnsafeMutableRawPointer
    private let output: UnsafeMutableRawPointer
    /// The next compressed byte to read from the file, and the compressed bytes not read yet.
    private var filePosition: Int64
    private var remaining: UInt64
    /// The input read but not consumed by the inflater, from `inputStart`.
    private var inputStart: UnsafePointer<UInt8>?
    private var inputCount: UInt32 = 0
    private var produced: Int64 = 0
    private var isFinished = false
    private var problem: (rule: Rule, message: String)?
    /// The compressed bytes consumed so far.
    private(set) var consumed: Int64 = 0

    /// A reader of `entry`'s data starting at `dataStart`, or `nil` when libarchive reads it as before: the
    /// entry is not deflated, declares no compressed bytes at all (an empty file some writers mark deflated),
    /// or memory is short.
    init?(fd: Int32, dataStart: Int64, entry: EntryChecksums.Entry, blockSize: Int) {
        guard entry.isDeflated, entry.compressedSize > 0, dataStart >= 0, let state = sclm_isal_inflate_new()
        else { return nil }
        self.fd = fd
        self.state = state
        self.blockSize = blockSize
        filePosition = dataStart
        remaining = entry.compressedSize
        input = .allocate(byteCount: blockSize, alignment: 16)
        output = .allocate(byteCount: blockSize, alignment: 16)
    }

    deinit {
        sclm_isal_inflate_free(state)
        input.deallocate()
        output.deallocate()
    }

    /// The next block of uncompressed data; its bytes are valid until the next call.
    func next() -> ArchiveReader.Block {
        while !isFinished {
            if inputCount == 0, remaining > 0, !refill() { return failed() }
            var written: UInt32 = 0
            var finished: Int32 = 0
            let before = inputCount
            let status = sclm_isal_inflate(
                state, &inputStart, &inputCount, output.assumingMemoryBound(to: UInt8.self), UInt32(blockSize),
                &written, &finished)
            consumed += Int64(before - inputCount)
            isFinished = finished != 0
            if status < 0 {
                problem = (.archiveCorrupt, "the entry's deflate data is damaged (ISA-L status \(status))")
                return failed()
            }
            if written > 0 {
                let block = ArchiveReader.Block(
                    status: .ok, bytes: UnsafeRawBufferPointer(start: output, count: Int(written)), offset: produced)
                produced += Int64(written)
                return block
            }
            if !isFinished, inputCount == 0, remaining == 0 {
                problem = (.archiveTruncated, "the entry's compressed data ends inside its deflate stream")
                return failed()
            }
            if inputCount == before, inputCount > 0 {
                // Neither input taken nor output made: never expected of ISA-L, but a loop on hostile input must end.
                problem = (.archiveCorrupt, "the entry's deflate data cannot be decoded")
                return failed()
            }
        }
        return ArchiveReader.Block(status: .eof, bytes: UnsafeRawBufferPointer(start: nil, count: 0), offset: produced)
    }

    /// The finding for the failure ``next()`` reported.
    func failure(path: String) -> Finding {
        let (rule, message) = problem ?? (.archiveCorrupt, "the entry's data could not be read")
        return Finding(rule, path: path, message: message)
    }

    /// Reads the next compressed block from the file; `false` (with ``problem`` set) when it cannot.
    private func refill() -> Bool {
        let wanted = Int(min(UInt64(blockSize), remaining))
        var count: Int
        repeat {
            count = pread(fd, input, wanted, off_t(filePosition))
        } while count < 0 && errno == EINTR
        guard count > 0 else {
            problem =
                count == 0
                ? (.archiveTruncated, "the file ends inside the entry's compressed data")
                : (.archiveCorrupt, "the entry's data could not be read: \(String(cString: strerror(errno)))")
            return false
        }
        filePosition += Int64(count)
        remaining -= UInt64(count)
        inputStart = UnsafePointer(input.assumingMemoryBound(to: UInt8.self))
        inputCount = UInt32(count)
        return true
    }

    private func failed() -> ArchiveReader.Block {
        ArchiveReader.Block(status: .failed, bytes: UnsafeRawBufferPointer(start: nil, count: 0), offset: produced)
    }
}
