/// One recorded file of an installed revision: what a delta update compares the next revision's central
/// directory with. `SCLMArchive` records it from the unpacked files (``PackageManifest``) and `SCLMStore` keeps it
/// in `installed_files`; both see this one type.
///
/// `size` and `crc32` describe the content the file had when it was recorded; `inode`, `modifiedNanoseconds`
/// and `changedNanoseconds` are what detects a later change cheaply: a file whose `stat` no longer matches all
/// of them (and the size) is hashed again before its CRC-32 is trusted.
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
}
