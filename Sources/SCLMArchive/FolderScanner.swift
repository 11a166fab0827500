import CArchive
import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads an unpacked package folder with the same rules as a zip: names as raw bytes (so invalid UTF-8
/// and control characters are caught), entry types without following symlinks, budgets and content.
///
/// The walk uses `openat`/`fstatat` relative to open folder descriptors with `O_NOFOLLOW`, in byte order of
/// the names (deterministic output), and never leaves the folder. Clutter folders (`.git`, `__MACOSX`) are
/// reported once and not descended into. Runs on the calling thread; polls `cancellation` between files.
struct FolderScanner {
    /// The folder.
    let path: String
    let policy: Policy
    let cancellation: CancellationFlag

    private static let blockSize = 256 << 10

    /// Scans the folder.
    ///
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/unreadable``) when a file or folder cannot be read;
    ///   `CancellationError`.
    func scan() throws -> PackageScan {
        var sink = DiscardingSink()
        return try scan(into: &sink)
    }

    /// Scans the folder, handing every file that passes the policy to `sink` (which may stop the scan at
    /// the first refusing error).
    ///
    /// - Throws: as ``scan()``; whatever `sink` throws.
    func scan(into sink: inout some PackageSink) throws -> PackageScan {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw ArchiveError.system(.unreadable, "open folder \(path)", path: path, errno: errno) }
        defer { close(fd) }
        var scan = PackageScan(policy: policy)
        var buffer = [UInt8](repeating: 0, count: Self.blockSize)
        try walk(fd, prefix: [], depth: 0, into: &scan, sink: &sink, buffer: &buffer)
        return scan
    }

    private func walk(
        _ folder: Int32, prefix: [UInt8], depth: Int, into scan: inout PackageScan, sink: inout some PackageSink,
        buffer: inout [UInt8]
    ) throws {
        for name in try names(in: folder, at: prefix) {
            try cancellation.check()
            guard !scan.shouldStop(for: sink) else { return }
            scan.entryCount += 1
            if scan.entryCount > policy.maxEntryCount {
                scan.report(EntryRules.tooManyEntries(nil, policy: policy))
                scan.isStopped = true
                return
            }
            var info = stat()
            guard Self.withCString(name, { fstatat(folder, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0 else {
                throw ArchiveError.system(.unreadable, "read \(display(prefix + name))", path: path, errno: errno)
            }
            let isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
            let entry = EntryName(raw: prefix + name + (isDirectory ? [UInt8(ascii: "/")] : []), policy: policy)
            scan.report(entry.findings)
            scan.report(scan.contentIndex.insert(entry.path, isDirectory: isDirectory))
            if let junk = JunkNames.finding(entry.components) {
                scan.report(junk)
                continue
            }
            try visit(
                entry, info: info, in: folder, name: name, depth: depth, into: &scan, sink: &sink, buffer: &buffer)
        }
    }

    private func visit(
        _ entry: EntryName, info: stat, in folder: Int32, name: [UInt8], depth: Int, into scan: inout PackageScan,
        sink: inout some PackageSink, buffer: inout [UInt8]
    ) throws {
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            guard depth < policy.maxDepth else { return }  // already reported as BUDGET-DEPTH
            let child = Self.withCString(name) {
                sclm_archive_openat(folder, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)
            }
            guard child >= 0 else {
                throw ArchiveError.system(.unreadable, "open folder \(entry.display)", path: path, errno: errno)
            }
            defer { close(child) }
            try walk(child, prefix: entry.raw, depth: depth + 1, into: &scan, sink: &sink, buffer: &buffer)
        case S_IFREG:
            try readFile(entry, in: folder, name: name, into: &scan, sink: &sink, buffer: &buffer)
        case S_IFLNK:
            var target = [UInt8](repeating: 0, count: 4096)
            let length = Self.withCString(name) { readlinkat(folder, $0, &target, target.count) }
            let text = length > 0 ? EntryName.displayString(Array(target.prefix(length))) : "?"
            scan.report(EntryRules.symbolicLink(path: entry.display, target: text))
        default:
            scan.report(EntryRules.device(path: entry.display, type: UInt32(info.st_mode & S_IFMT)))
        }
    }

    private func readFile(
        _ entry: EntryName, in folder: Int32, name: [UInt8], into scan: inout PackageScan,
        sink: inout some PackageSink, buffer: inout [UInt8]
    ) throws {
        let fd = Self.withCString(name) { sclm_archive_openat(folder, $0, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0) }
        guard fd >= 0 else { throw ArchiveError.system(.unreadable, "open \(entry.display)", path: path, errno: errno) }
        defer { close(fd) }
        var analyzer = policy.checksContent && entry.findings.isEmpty ? ContentAnalyzer(path: entry.path) : nil
        var fileBytes: Int64 = 0
        let feedsSink = entry.findings.isEmpty
        if feedsSink { try sink.beginFile(entry.path, modificationTime: nil) }
        while true {
            try cancellation.check()
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ArchiveError.system(.unreadable, "read \(entry.display)", path: path, errno: errno)
            }
            if count == 0 { break }
            fileBytes += Int64(count)
            if let exceeded = scan.count(count, path: entry.display, fileBytes: fileBytes, compressedBytes: nil) {
                scan.report(exceeded)
                return
            }
            try buffer.withUnsafeBytes { all in
                let block = UnsafeRawBufferPointer(rebasing: all[..<count])
                analyzer?.consume(block)
                if feedsSink { try sink.write(block) }
            }
        }
        if feedsSink { try sink.endFile() }
        if var analyzer { scan.files.append(analyzer.finish()) }
    }

    /// The entry names of `folder` (without `.` and `..`), sorted by bytes.
    private func names(in folder: Int32, at prefix: [UInt8]) throws -> [[UInt8]] {
        let copy = dup(folder)
        guard copy >= 0, let stream = fdopendir(copy) else {
            let number = errno
            if copy >= 0 { close(copy) }
            throw ArchiveError.system(.unreadable, "list \(display(prefix))", path: path, errno: number)
        }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(name)
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Calls `body` with `name` as a NUL-terminated C string (names are raw bytes, not necessarily UTF-8).
    private static func withCString<T>(_ name: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        body(name.map { CChar(bitPattern: $0) } + [0])
    }

    private func display(_ raw: [UInt8]) -> String {
        raw.isEmpty ? path : path + "/" + EntryName.displayString(raw)
    }
}
