#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a zip's central directory declares an entry to be, where libarchive would report something safer.
///
/// libarchive 3.6 reads the Unix mode from the same central directory, but turns a FIFO into a regular
/// file, and it ignores the PKWARE Unix extra field (0x000d) that names a hard link's target. Another
/// unpacker (a tablet's, `unzip`, PKWARE's) may create exactly what the archive declares, so the policy
/// judges the declaration, not libarchive's reading of it:
///
/// - **special**: the Unix mode's type is anything but none, regular file, folder or symbolic link —
///   a FIFO, socket, character or block device (``Rule/entrySpecial``);
/// - **hard link**: the record carries a 0x000d field with variable data (the link target) and its
///   mode is not a symbolic link or a device, for which that data is the symlink target or the device
///   numbers (``Rule/entryHardlink``). Only the central directory's copy of the field is read: it is
///   the copy libarchive and sclm's own extraction read.
///
/// Symbolic links are left to libarchive, which reports them (``Rule/entrySymlink``).
enum DeclaredEntryType: Equatable {
    /// A regular file, folder or symbolic link, or no Unix information at all.
    case ordinary
    /// A FIFO, socket or device, with the Unix file type bits (`S_IFIFO`, …).
    case special(UInt32)
    /// A hard link to the (raw) name in the 0x000d field.
    case hardLink([UInt8])

    /// The type `record` declares.
    init(_ record: ZipDirectory.Record) {
        let type = (record.unixMode ?? 0) & UInt32(S_IFMT)
        let ordinary: Set<UInt32> = [0, UInt32(S_IFREG), UInt32(S_IFDIR), UInt32(S_IFLNK)]
        if !ordinary.contains(type) {
            self = .special(type)
        } else if let target = record.unixExtraData, !target.isEmpty, type != UInt32(S_IFLNK) {
            self = .hardLink(target)
        } else {
            self = .ordinary
        }
    }

    /// The finding for the entry displayed as `path`, or `nil` for an ordinary entry.
    func finding(path: String) -> Finding? {
        switch self {
        case .ordinary:
            nil
        case .special(let type):
            Finding(
                .entrySpecial, path: path,
                message: "the entry's Unix mode declares a \(EntryRules.typeName(type)), not a file or folder")
        case .hardLink(let target):
            Finding(
                .entryHardlink, path: path,
                message: "the entry is a hard link to '\(EntryName.displayString(target))' (PKWARE Unix extra field)")
        }
    }
}
