import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension DeltaPlan {
    /// Checks that every fetched entry's local header (in the partial file at `partialPath`) agrees with the
    /// central directory: signature, name, method and CRC-32 (the data descriptor's CRC-32 when general
    /// purpose bit 3 defers it there). Bytes fetched from the wrong place, or a zip whose local headers
    /// contradict its directory, end the delta path; the full download then reports what is wrong.
    ///
    /// - Throws: ``DeltaFallback``.
    package func verifyFetched(partialAt partialPath: String) throws(DeltaFallback) {
        let fd = open(partialPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DeltaFallback("cannot read \(partialPath)") }
        defer { close(fd) }
        let source = FileBytes(fd: fd)
        for record in fetched {
            guard Self.agrees(record, in: source) else {
                throw DeltaFallback(
                    "the fetched bytes of '\(EntryName.displayString(record.name))' disagree with the directory")
            }
        }
    }

    private static func agrees(_ record: ZipDirectory.Record, in source: FileBytes) -> Bool {
        guard let header = try? source.bytes(at: record.localHeaderOffset, count: 30),
            header.uint32(at: 0) == 0x0403_4B50, header.uint16(at: 8) == record.method,
            let name = try? source.bytes(
                at: record.localHeaderOffset.plus(30) ?? Checked(.max), count: record.name.count),
            name == record.name
        else { return false }
        guard header.uint16(at: 6) & 0x0008 != 0 else { return header.uint32(at: 14) == record.crc32 }
        let dataStart = record.localHeaderOffset.plus(30 + Int(header.uint16(at: 26)) + Int(header.uint16(at: 28)))
        guard let descriptor = dataStart?.plus(record.compressedSize),
            let bytes = try? source.bytes(at: descriptor, count: 8)
        else { return false }
        // The descriptor's signature is optional: the CRC-32 follows it, or comes first.
        return bytes.uint32(at: 0) == 0x0807_4B50
            ? bytes.uint32(at: 4) == record.crc32 : bytes.uint32(at: 0) == record.crc32
    }
}
