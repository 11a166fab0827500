import CArchive
import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a file's `stat` says about a ``ManifestEntry``.
extension ManifestEntry {
    init(path: String, crc32: UInt32, stat info: stat) {
        self.init(
            path: path, size: Int64(info.st_size), crc32: crc32, inode: UInt64(info.st_ino),
            modifiedNanoseconds: Self.nanoseconds(info.st_mtim), changedNanoseconds: Self.nanoseconds(info.st_ctim))
    }

    /// Whether the file's `stat` is still the recorded one (inode, size, modification and change times).
    func matches(_ info: stat) -> Bool {
        UInt64(info.st_ino) == inode && Int64(info.st_size) == size
            && Self.nanoseconds(info.st_mtim) == modifiedNanoseconds
            && Self.nanoseconds(info.st_ctim) == changedNanoseconds
    }

    private static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }
}
