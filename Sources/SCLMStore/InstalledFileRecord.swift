/// One regular file of a presentation's installed revision, stored in `installed_files` (the manifest a
/// delta update compares the next revision's central directory with).
///
/// `size` and `crc32` describe the content the file had when it was recorded; `inode`, `modifiedNanoseconds`
/// and `changedNanoseconds` are what detects a later change cheaply: a file whose `stat` no longer matches all
/// of them (and the size) is hashed again before its CRC-32 is trusted.
package struct InstalledFileRecord: Sendable, Equatable {
    /// The path inside `sources/`, as the zip names it (`img/a.png`).
    package var path: String
    /// The file's size in bytes.
    package var size: Int64
    /// The CRC-32 of the file's bytes.
    package var crc32: UInt32
    /// The file's inode number.
    package var inode: UInt64
    /// `st_mtim` in nanoseconds since the epoch.
    package var modifiedNanoseconds: Int64
    /// `st_ctim` in nanoseconds since the epoch.
    package var changedNanoseconds: Int64

    /// Creates a record.
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

    /// The table manifests are stored in.
    static let table = "installed_files"

    /// Reads a record from an `installed_files` row.
    ///
    /// - Throws: ``StoreError`` (`.decoding`) naming a missing or mistyped column.
    init(row: Row) throws {
        let columns = ColumnReader(row, table: Self.table)
        self.init(
            path: try columns.text("path"), size: try columns.int64("size"),
            crc32: UInt32(truncatingIfNeeded: try columns.int64("crc32")),
            inode: UInt64(bitPattern: try columns.int64("inode")), modifiedNanoseconds: try columns.int64("mtimeNs"),
            changedNanoseconds: try columns.int64("ctimeNs"))
    }
}
