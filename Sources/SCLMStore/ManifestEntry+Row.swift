import SCLMCore

/// A ``ManifestEntry`` as stored in `installed_files`, one row per file of a presentation's installed revision.
extension ManifestEntry {
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
