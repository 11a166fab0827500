import CArchive
import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One recorded file of an installed revision (``PackageManifest``).
package struct ManifestEntry: Sendable, Equatable {
    /// The path inside the package (`img/a.png`).
    package var path: String
    /// The size in bytes.
    package var size: Int64
    /// The CRC-32 of the bytes.
    package var crc32: UInt32
    /// The inode number.
    package var inode: UInt64
    /// `st_mtim` in nanoseconds since the epoch.
    package var modifiedNanoseconds: Int64
    /// `st_ctim` in nanoseconds since the epoch.
    package var changedNanoseconds: Int64

    /// Creates an entry.
    package init(
        path: String, size: Int64, crc32: UInt32, inode: UInt64, modifiedNanoseconds: Int64, changedNanoseconds: Int64
    ) {
        self.path = path
        self.size = size
        self.crc32 = crc32
        self.inode = inode
        self.modifiedNanoseconds = modifiedNanoseconds
        self.changedNanoseconds = changedNanoseconds
    }

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
