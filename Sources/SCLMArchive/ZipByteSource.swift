import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where ``ZipDirectory`` reads a zip's bytes from: a local file (``FileBytes``) or the ranges fetched so far
/// of a remote one (``FetchedRanges``).
package protocol ZipByteSource {
    /// `count` bytes at `offset`.
    ///
    /// - Throws: ``ZipDirectory/Failure`` (a position no file can have, the end of the file, an I/O error),
    ///   or ``ZipBytesMissing`` when the bytes are not at hand yet.
    func bytes(at offset: Checked<UInt64>, count: Int) throws -> [UInt8]
}

/// The bytes ``FetchedRanges`` does not hold yet: fetch them and parse again.
package struct ZipBytesMissing: Error, Equatable {
    /// The first byte wanted.
    package let offset: UInt64
    /// How many.
    package let count: Int
}

/// A zip file open on a descriptor, read with `pread(2)`.
struct FileBytes: ZipByteSource {
    let fd: Int32

    /// `count` bytes at `offset`; a position beyond what `pread(2)` can address is a corrupt archive.
    func bytes(at offset: Checked<UInt64>, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            guard let position = offset.plus(done)?.exactly(off_t.self) else {
                throw ZipDirectory.Failure.corrupt("the zip points to a position no file can have")
            }
            let result = bytes.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress?.advanced(by: done), count - done, position)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw ZipDirectory.Failure.ioError(errno)
            }
            if result == 0 { throw ZipDirectory.Failure.truncated("the file ends inside the zip's directory") }
            done += result
        }
        return bytes
    }
}

/// The spans of a remote zip fetched so far (its tail, then the ZIP64 records or the central directory it
/// points to); asking for anything else throws ``ZipBytesMissing``.
package struct FetchedRanges: ZipByteSource, Sendable {
    /// The zip's size.
    package let size: UInt64
    private var spans: [(offset: UInt64, bytes: [UInt8])] = []

    /// No bytes yet of a zip of `size` bytes.
    package init(size: UInt64) {
        self.size = size
    }

    /// Adds `bytes` fetched at `offset`.
    package mutating func add(_ bytes: [UInt8], at offset: UInt64) {
        spans.append((offset, bytes))
    }

    package func bytes(at offset: Checked<UInt64>, count: Int) throws -> [UInt8] {
        guard let end = offset.plus(count) else {
            throw ZipDirectory.Failure.corrupt("the zip points to a position no file can have")
        }
        guard end.value <= size else {
            throw ZipDirectory.Failure.truncated("the zip's directory points past its end")
        }
        for span in spans {
            guard let start = offset.minus(span.offset)?.exactly(Int.self),
                let spanEnd = Checked(span.offset).plus(span.bytes.count),
                end <= spanEnd
            else { continue }
            return Array(span.bytes[start..<(start + count)])
        }
        throw ZipBytesMissing(offset: offset.value, count: count)
    }
}
