import SCLMArchive
import SCLMStore

extension InstalledFileRecord {
    /// The stored form of a manifest entry.
    init(_ entry: ManifestEntry) {
        self.init(
            path: entry.path, size: entry.size, crc32: entry.crc32, inode: entry.inode,
            modifiedNanoseconds: entry.modifiedNanoseconds, changedNanoseconds: entry.changedNanoseconds)
    }
}

extension ManifestEntry {
    /// The manifest entry a stored record describes.
    init(_ record: InstalledFileRecord) {
        self.init(
            path: record.path, size: record.size, crc32: record.crc32, inode: record.inode,
            modifiedNanoseconds: record.modifiedNanoseconds, changedNanoseconds: record.changedNanoseconds)
    }
}
