import CArchive
import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a zip package once, applying the package policy, and hands what passes to a ``PackageSink``.
///
/// Two steps, one pass over the data: the central directory is checked first (names exactly as stored,
/// encryption and method flags, overlapping entries, declared sizes and counts), so a hostile archive is
/// refused before a single byte is decompressed; then libarchive streams every entry, verifying CRCs and
/// counting the bytes it actually decompresses against the budgets. HTML, CSS and JavaScript are analysed
/// as they stream past. Runs on the calling thread (use ``BlockingWork``); polls `cancellation` between blocks.
struct ZipScanner {
    /// The zip file.
    let path: String
    let policy: Policy
    let cancellation: CancellationFlag
    /// Called after each block with the bytes decompressed so far and the total the zip declares.
    var progress: @Sendable (Int64, Int64) -> Void = { _, _ in }

    private static let blockSize = 64 << 10

    /// Scans the zip, feeding `sink`.
    ///
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/unreadable``) when the file cannot be opened or read,
    ///   (``ArchiveError/Code/notFileOrFolder``) when it is not a regular file; `CancellationError`; whatever
    ///   `sink` throws.
    func scan(into sink: inout some PackageSink) throws -> PackageScan {
        // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused just below); regular files
        // ignore the flag.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw ArchiveError.system(.unreadable, "open \(path)", path: path, errno: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw ArchiveError.system(.unreadable, "read \(path)", path: path, errno: errno)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw ArchiveError.notFileOrFolder(path, type: UInt32(info.st_mode & S_IFMT))
        }
        var scan = PackageScan(policy: policy)
        guard let directory = try readDirectory(fd: fd, size: UInt64(info.st_size), into: &scan) else { return scan }
        let refused = check(directory, into: &scan)
        let checksums = EntryChecksums(directory)
        if scan.shouldStop(for: sink) { return scan }
        try sink.begin(expectedBytes: scan.declaredBytes)
        try ParallelPlan.withWorkers(entries: directory.entryCount, bytes: scan.declaredBytes, policy: policy) {
            workers in
            if workers > 1 {
                try readInParallel(
                    fd: fd, directory: directory, workers: workers, skipping: refused, checksums: checksums,
                    into: &scan, sink: &sink)
            } else {
                try readEntries(
                    fd: fd, endRecordOffset: directory.endRecordOffset, skipping: refused, checksums: checksums,
                    into: &scan, sink: &sink)
            }
        }
        return scan
    }

    // MARK: - Central directory

    private func readDirectory(fd: Int32, size: UInt64, into scan: inout PackageScan) throws -> ZipDirectory? {
        switch ZipDirectory.read(fd: fd, size: size, maxEntries: policy.maxEntryCount) {
        case .success(let directory):
            scan.entryCount = directory.entryCount
            guard directory.entryCount <= policy.maxEntryCount else {
                scan.report(EntryRules.tooManyEntries(directory.entryCount, policy: policy))
                scan.isStopped = true
                return nil
            }
            return directory
        case .failure(.ioError(let number)):
            throw ArchiveError.system(.unreadable, "read \(path)", path: path, errno: number)
        case .failure(.notZip(let reason)):
            scan.report(Finding(.archiveNotZip, message: reason))
        case .failure(.truncated(let reason)):
            scan.report(Finding(.archiveTruncated, message: reason))
        case .failure(.corrupt(let reason)):
            scan.report(Finding(.archiveCorrupt, message: reason))
        }
        scan.isStopped = true
        return nil
    }

    /// The findings of the rules that need only the central directory (names, declared types, flags and
    /// methods, declared sizes, layout), as a scan of the whole zip reports them.
    func directoryFindings(_ directory: ZipDirectory) -> [Finding] {
        var scan = PackageScan(policy: policy)
        scan.entryCount = directory.entryCount
        _ = check(directory, into: &scan)
        return scan.findings
    }

    /// Checks every record and the layout; returns the paths of the entries refused for what they
    /// declare, which the data pass then skips (libarchive would read them as something else).
    private func check(_ directory: ZipDirectory, into scan: inout PackageScan) -> Set<String> {
        var names = PathIndex()
        var refused: Set<String> = []
        for record in directory.records {
            if let path = check(record, names: &names, into: &scan) { refused.insert(path) }
        }
        // A total past 2^64 is past any budget: it counts as the largest.
        let declaredTotal = Checked.sum(directory.records.map(\.uncompressedSize))?.value ?? .max
        scan.declaredBytes = Int64(clamping: declaredTotal)
        if declaredTotal > UInt64(policy.maxTotalSize) {
            let declared = ByteCount.format(scan.declaredBytes)
            scan.report(
                Finding(
                    .budgetTotalSize,
                    message:
                        "the entries declare \(declared) in total (budget \(ByteCount.format(policy.maxTotalSize)))",
                    fix: "Shrink the media or raise --max-size above \(declared)."))
            scan.isStopped = true
        }
        checkLayout(directory, into: &scan)
        return refused
    }

    /// The rules one central-directory record can break on its own: its name, declared type, flags, method
    /// and declared size.
    ///
    /// - Returns: the entry's path when its declared type, its encryption or its compression method refuses
    ///   it: such an entry's data is never decoded (a refused method's decoder may trust hostile parameters,
    ///   such as an LZMA dictionary size of gigabytes).
    private func check(_ record: ZipDirectory.Record, names: inout PathIndex, into scan: inout PackageScan) -> String? {
        let name = EntryName(raw: record.name, policy: policy)
        scan.report(name.findings)
        let typeFinding = DeclaredEntryType(record).finding(path: name.display)
        if let typeFinding { scan.report(typeFinding) }
        if !name.path.isEmpty { scan.report(names.insert(name.path, isDirectory: name.isDirectory)) }
        if let junk = JunkNames.finding(name.components) { scan.report(junk) }
        let refusesData = typeFinding != nil || record.isEncrypted || (record.method != 0 && record.method != 8)
        if record.isEncrypted {
            scan.report(Finding(.archiveEncrypted, path: name.display, message: "the entry is encrypted"))
        } else if record.method != 0 && record.method != 8 {
            let method = Self.methodName(record.method)
            scan.report(
                Finding(
                    .archiveMethod, path: name.display,
                    message: "the entry is compressed with \(method), not store or deflate"))
        }
        if record.uncompressedSize.value > UInt64(policy.maxFileSize) {
            let declared = ByteCount.format(Int64(clamping: record.uncompressedSize.value))
            scan.report(
                Finding(
                    .budgetFileSize, path: name.display,
                    message: "the entry declares \(declared) (per-file budget \(ByteCount.format(policy.maxFileSize)))")
            )
        }
        return refusesData ? name.path : nil
    }

    /// Entries whose stored data overlaps another's (or the directory) are the core of zip bombs and of
    /// "hard links" by shared local headers.
    private func checkLayout(_ directory: ZipDirectory, into scan: inout PackageScan) {
        let records = directory.records.sorted { $0.localHeaderOffset < $1.localHeaderOffset }
        for (index, record) in records.enumerated() {
            let display = EntryName.displayString(record.name)
            // The smallest the entry can occupy: a 30-byte local header, its name, its compressed data.
            let end = record.localHeaderOffset.plus(30 + record.name.count)?.plus(record.compressedSize)
            let next = index + 1 < records.count ? records[index + 1] : nil
            if let next, next.localHeaderOffset == record.localHeaderOffset {
                scan.report(
                    Finding(
                        .entryHardlink, path: EntryName.displayString(next.name),
                        message: "the entry shares its stored data with '\(display)'"))
            } else if end == nil {
                scan.report(
                    Finding(.archiveCorrupt, path: display, message: "the entry's declared size runs past any file"))
            } else if let end, end > (next?.localHeaderOffset ?? directory.directoryOffset) {
                let other = next.map { "'\(EntryName.displayString($0.name))'" } ?? "the central directory"
                scan.report(Finding(.archiveOverlap, path: display, message: "the entry's data overlaps \(other)"))
            }
        }
    }

    /// A zip compression method's name, for messages.
    static func methodName(_ method: UInt16) -> String {
        switch method {
        case 9: "Deflate64 (method 9)"
        case 12: "bzip2 (method 12)"
        case 14: "LZMA (method 14)"
        case 93: "Zstandard (method 93)"
        case 95: "xz (method 95)"
        case 98: "PPMd (method 98)"
        default: "compression method \(method)"
        }
    }

    // MARK: - Entry data

    /// Reads the entries whose position (in libarchive's order) falls in `share`, skipping the others, with
    /// a libarchive reader of its own over the file up to its end record (``ZipView``).
    func readEntries(
        fd: Int32, endRecordOffset: UInt64, share: Range<Int> = 0..<Int.max, skipping refused: Set<String>,
        checksums: EntryChecksums, into scan: inout PackageScan, sink: inout some PackageSink
    ) throws {
        let reader: ArchiveReader
        do {
            reader = try ArchiveReader(
                fileDescriptor: fd, endRecordOffset: endRecordOffset, blockSize: Self.blockSize, path: path)
        } catch let failure as ArchiveReader.OpenFailure {
            scan.report(Self.finding(forLibarchiveMessage: failure.message, path: nil))
            scan.isStopped = true
            return
        }
        var position = -1
        while !shouldStop(&scan, sink: sink, before: position + 1) {
            try cancellation.check()
            let (status, header) = reader.nextHeader()
            position += 1
            scan.entryIndex = position
            if status == .eof { break }
            guard let header else {
                scan.report(Self.finding(forLibarchiveMessage: reader.errorMessage, path: nil))
                scan.isStopped = true
                break
            }
            if position < share.lowerBound { continue }  // another worker's: libarchive skips its data
            if position >= share.upperBound { break }
            let name = EntryName(raw: header.pathname, policy: policy)
            if status != .ok {
                scan.report(Self.finding(forLibarchiveMessage: reader.errorMessage, path: name.display))
            }
            guard status != .failed, name.findings.isEmpty, !name.path.isEmpty else {
                scan.report(name.findings)
                continue
            }
            if refused.contains(name.path) { continue }  // reported from the central directory
            let entry = EntryData(header: header, reader: reader, fd: fd, checksums: checksums)
            try readEntry(entry, name: name, into: &scan, sink: &sink)
        }
    }

    /// Whether reading stops before the entry at `entry`: this scan stopped (then every worker of the
    /// package is told), or another worker stopped the package at an earlier entry.
    private func shouldStop(_ scan: inout PackageScan, sink: some PackageSink, before entry: Int) -> Bool {
        if scan.shouldStop(for: sink) {
            scan.shared?.stop(at: scan.entryIndex)
            return true
        }
        return scan.shared?.isStopped(before: entry) ?? false
    }

    /// The entry being read: its header, the reader positioned at its data, the file and the CRCs to check.
    private struct EntryData {
        let header: ArchiveReader.Header
        let reader: ArchiveReader
        let fd: Int32
        let checksums: EntryChecksums
    }

    private func readEntry(
        _ entry: EntryData, name: EntryName, into scan: inout PackageScan, sink: inout some PackageSink
    ) throws {
        let header = entry.header
        let path = name.path
        switch header.fileType {
        case UInt32(SCLM_AE_IFDIR):
            scan.index(path, isDirectory: true)
            try sink.directory(path)
        case UInt32(SCLM_AE_IFREG) where header.hardlinkTarget == nil:
            scan.index(path, isDirectory: false)
            if header.isEncrypted {
                scan.report(Finding(.archiveEncrypted, path: path, message: "the entry is encrypted"))
                return
            }
            try readFile(path, entry: entry, into: &scan, sink: &sink)
        case UInt32(SCLM_AE_IFLNK):
            scan.report(EntryRules.symbolicLink(path: path, target: header.symlinkTarget ?? ""))
        default:
            if let target = header.hardlinkTarget {
                scan.report(EntryRules.hardLink(path: path, target: target))
            } else {
                scan.report(EntryRules.device(path: path, type: header.fileType))
            }
        }
    }

    private func readFile(
        _ path: String, entry: EntryData, into scan: inout PackageScan, sink: inout some PackageSink
    ) throws {
        var analyzer = policy.checksContent ? ContentAnalyzer(path: path) : nil
        var fileBytes: Int64 = 0
        var isComplete = false
        let reader = entry.reader
        let start = reader.position
        let declared = entry.checksums.entry(atDataPosition: start)
        if let declared, let finding = EntryChecksums.localHeaderFinding(for: declared, fd: entry.fd, path: path) {
            scan.report(finding)
        }
        // Deflated data is inflated by ISA-L, about twice as fast as libarchive's zlib (DeflateReader).
        let inflater = declared.flatMap {
            DeflateReader(fd: entry.fd, dataStart: start, entry: $0, blockSize: Self.blockSize)
        }
        var crc: UInt32 = 0
        try sink.beginFile(path, modificationTime: entry.header.modificationTime)
        reading: while true {
            try cancellation.check()
            let block = inflater?.next() ?? reader.readBlock()
            if block.status == .eof {
                isComplete = true
                break
            }
            guard !block.status.isFailure else {
                scan.report(
                    inflater?.failure(path: path) ?? Self.finding(forLibarchiveMessage: reader.errorMessage, path: path)
                )
                if block.status == .fatal { scan.isStopped = true }
                break
            }
            guard block.offset == fileBytes else {
                scan.report(Finding(.archiveCorrupt, path: path, message: "the entry's data is out of order"))
                break
            }
            fileBytes += Int64(block.bytes.count)
            if let exceeded = scan.count(
                block.bytes.count, path: path, fileBytes: fileBytes,
                compressedBytes: inflater?.consumed ?? reader.position - start)
            {
                scan.report(exceeded)
                break reading
            }
            crc = EntryChecksums.update(crc, with: block.bytes)
            analyzer?.consume(block.bytes)
            try sink.write(block.bytes)
            progress(scan.totalByteCount, scan.declaredBytes)
            if block.status == .warn {
                scan.report(Self.finding(forLibarchiveMessage: reader.errorMessage, path: path))
            }
            if shouldStop(&scan, sink: sink, before: scan.entryIndex) { break }
        }
        if isComplete, let declared, let finding = EntryChecksums.dataFinding(for: declared, computed: crc, path: path)
        {
            scan.report(finding)
        }
        guard isComplete, !shouldStop(&scan, sink: sink, before: scan.entryIndex) else { return }
        try sink.endFile()
        if var analyzer { scan.add(analyzer.finish()) }
    }

    /// The rule behind a libarchive error message (libarchive reports zip problems as text only).
    static func finding(forLibarchiveMessage message: String, path: String?) -> Finding {
        let rule: Rule
        switch message {
        case let text where text.contains("Inconsistent"): rule = .archiveCorrupt
        case let text where text.contains("CRC"): rule = .archiveCRC
        case let text where text.lowercased().contains("truncated") || text.contains("Premature end"):
            rule = .archiveTruncated
        case let text where text.contains("ncrypt") || text.contains("assphrase"): rule = .archiveEncrypted
        case let text where text.contains("compression method"): rule = .archiveMethod
        case let text where text.contains("Pathname cannot be converted"): rule = .pathInvalidUTF8
        default: rule = .archiveCorrupt
        }
        return Finding(rule, path: path, message: "libarchive: \(message)")
    }
}

/// Names that mark operating-system or version-control clutter rather than content.
enum JunkNames {
    private static let names: Set<String> = [
        "__macosx", ".ds_store", "thumbs.db", "desktop.ini", ".git", ".svn", ".hg", ".gitignore", ".idea", ".vscode",
    ]

    /// The path up to and including the first clutter component of `components`, if any.
    private static func junkPath(_ components: [String]) -> String? {
        guard let index = components.firstIndex(where: { names.contains($0.lowercased()) || $0.hasPrefix("._") })
        else { return nil }
        return components[...index].joined(separator: "/")
    }

    /// The CONTENT-JUNK finding for `components`, if they hold a clutter component.
    static func finding(_ components: [String]) -> Finding? {
        junkPath(components).map { junk in
            Finding(.contentJunk, path: junk, message: "'\(junk)' is operating-system or version-control clutter")
        }
    }
}
