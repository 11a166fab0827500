import CArchive
import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes checked entries into a fresh staging folder without ever following a link.
///
/// The folder is created only when the scanner has checked the central directory and calls
/// ``begin(expectedBytes:)``, so a package refused up front leaves no trace at all.
///
/// Every folder is created with `mkdirat` and opened with `O_DIRECTORY|O_NOFOLLOW` relative to its parent's
/// descriptor, starting from the staging root; every file is created with `O_CREAT|O_EXCL|O_NOFOLLOW`, so an
/// existing name (a duplicate, a planted link) fails instead of being written through. Files get mode 0644,
/// folders 0755 (less the umask), whatever the archive says. ``finish()`` flushes the whole tree to disk with
/// one `syncfs(2)` (one journal commit and one device flush instead of one fsync per file).
struct StagingWriter: PackageSink {
    /// The staging folder.
    let root: String
    /// Whether ``finish()`` flushes to disk.
    let isDurable: Bool
    private var rootFD: Int32 = -1
    private var folders: [String: Int32] = [:]
    private var file: Int32 = -1
    private var filePath = ""
    private var fileTime: Int?
    /// Regular files written.
    var fileCount = 0

    private static let maxOpenFolders = 64

    var stopsAtFirstError: Bool { true }

    /// Disk space left free on top of the package, so extraction never fills a disk to the last block.
    let reserve: DiskReserve

    /// A writer for the staging folder `root`, which must not exist yet; nothing is created until
    /// ``begin(expectedBytes:)``, which checks that the package and `reserve` fit.
    init(root: String, isDurable: Bool, reserve: DiskReserve) {
        self.root = root
        self.isDurable = isDurable
        self.reserve = reserve
    }

    /// Checks the free space for `expectedBytes` and creates the staging folder with mode 0755.
    ///
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/writeFailed``): not enough space, or the folder cannot
    ///   be created (it exists, the parent is missing or read-only).
    mutating func begin(expectedBytes: Int64) throws {
        let parent = PackagePath.directory(of: root)
        let kept = reserve.bytes(forPackageOf: expectedBytes)
        // A declared size near 2^63 (from the zip) needs more than any disk has.
        if let free = DiskReserve.freeBytes(at: parent), free < Checked(expectedBytes).plus(kept)?.value ?? .max {
            throw ArchiveError(
                .writeFailed,
                "not enough disk space in \(parent) to unpack \(ByteCount.format(expectedBytes)): "
                    + "\(ByteCount.format(free)) free, and sclm keeps \(ByteCount.format(kept)) free besides "
                    + "(\(reserve.origin)), so unpacking never fills the disk; free some space or lower "
                    + "sync.diskReserve, and retry",
                archivePath: root, systemError: ENOSPC)
        }
        guard mkdir(root, 0o755) == 0 else {
            throw ArchiveError.system(.writeFailed, "create staging folder \(root)", path: root, errno: errno)
        }
        rootFD = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard rootFD >= 0 else {
            let number = errno
            rmdir(root)
            throw ArchiveError.system(.writeFailed, "open staging folder \(root)", path: root, errno: number)
        }
    }

    /// A writer into the same staging folder, for another worker: its own descriptors, the same root.
    /// Folders two workers both create are tolerated (`EEXIST`); files are never shared (the central
    /// directory check refuses duplicate names before any data is read).
    ///
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/writeFailed``) when the root cannot be opened again.
    func makeWorker() throws -> StagingWriter {
        var worker = StagingWriter(root: root, isDurable: false, reserve: reserve)
        worker.rootFD = sclm_archive_openat(rootFD, ".", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)
        guard worker.rootFD >= 0 else {
            throw ArchiveError.system(.writeFailed, "open staging folder \(root)", path: root, errno: errno)
        }
        return worker
    }

    mutating func absorb(_ worker: inout StagingWriter) {
        fileCount += worker.fileCount
        worker.release()
    }

    mutating func directory(_ path: String) throws {
        _ = try folder(path)
    }

    mutating func beginFile(_ path: String, modificationTime: Int?) throws {
        let parent = try folder(PackagePath.directory(of: path))
        let name = PackagePath.fileName(of: path)
        let fd = sclm_archive_openat(parent, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("create", path) }
        file = fd
        filePath = path
        fileTime = modificationTime
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        let code = FileSystem.writeAll(file, bytes)
        guard code == 0 else {
            errno = code
            throw failure("write", filePath)
        }
    }

    mutating func endFile() throws {
        if let fileTime {
            var times = [timespec(tv_sec: fileTime, tv_nsec: 0), timespec(tv_sec: fileTime, tv_nsec: 0)]
            if futimens(file, &times) != 0 { throw failure("set the time of", filePath) }
        }
        let status = close(file)
        file = -1
        if status != 0 { throw failure("write", filePath) }
        fileCount += 1
    }

    /// Flushes everything written to disk and releases the descriptors.
    ///
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/writeFailed``) when the flush fails (e.g. an I/O error).
    mutating func finish() throws {
        if rootFD < 0 { try begin(expectedBytes: 0) }
        closeFolders()
        // syncfs writes every dirty inode of the file system, the staging root's entries included, and
        // commits the journal: an fsync of the root after it would only cost one more device flush.
        if isDurable, sclm_archive_syncfs(rootFD) != 0 {
            throw ArchiveError.system(.writeFailed, "flush staging folder \(root) to disk", path: root, errno: errno)
        }
        close(rootFD)
        rootFD = -1
    }

    /// Releases the descriptors and removes the staging folder with everything in it (if it was created).
    mutating func discard() {
        guard rootFD >= 0 else { return }
        release()
        try? FileSystem.removeTree(root)
    }

    /// Closes every descriptor (the current file, the folders, the root), leaving the files in place.
    private mutating func release() {
        if file >= 0 { close(file) }
        file = -1
        closeFolders()
        if rootFD >= 0 { close(rootFD) }
        rootFD = -1
    }

    /// The descriptor of folder `path` (relative; "" is the root), creating missing folders on the way.
    mutating func folder(_ path: String) throws -> Int32 {
        if path.isEmpty { return rootFD }
        if let fd = folders[path] { return fd }
        let parent = try folder(PackagePath.directory(of: path))
        let name = PackagePath.fileName(of: path)
        if mkdirat(parent, name, 0o755) != 0, errno != EEXIST { throw failure("create folder", path) }
        let fd = sclm_archive_openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)
        guard fd >= 0 else { throw failure("open folder", path) }
        if folders.count >= Self.maxOpenFolders { closeFolders() }
        folders[path] = fd
        return fd
    }

    private mutating func closeFolders() {
        for fd in folders.values { close(fd) }
        folders.removeAll(keepingCapacity: true)
    }

    func failure(_ action: String, _ path: String) -> ArchiveError {
        ArchiveError.system(.writeFailed, "\(action) \(root)/\(path)", path: root, errno: errno, entryPath: path)
    }
}
