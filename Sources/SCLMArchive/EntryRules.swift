#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The entry-type and entry-count rules, written once for both readers of a package: ``ZipScanner`` (what the
/// archive holds) and ``FolderScanner`` (what an unpacked folder holds) report the same findings for the
/// same kind of entry.
enum EntryRules {
    /// ``Rule/entrySymlink`` for the entry at `path` linking to `target`, saying when the target leaves the
    /// package.
    static func symbolicLink(path: String, target: String) -> Finding {
        let escapes =
            target.hasPrefix("/") || PackagePath.resolve(target, from: PackagePath.directory(of: path)) == nil
        return Finding(
            .entrySymlink, path: path,
            message: "the entry is a symbolic link to '\(target)'" + (escapes ? ", outside the package" : ""))
    }

    /// ``Rule/entryHardlink`` for the entry at `path` linking to `target`.
    static func hardLink(path: String, target: String) -> Finding {
        Finding(.entryHardlink, path: path, message: "the entry is a hard link to '\(target)'")
    }

    /// ``Rule/entryDevice`` for the entry at `path` of Unix file type `type` (`S_IFCHR`, …).
    static func device(path: String, type: UInt32) -> Finding {
        Finding(.entryDevice, path: path, message: "the entry is a \(typeName(type))")
    }

    /// ``Rule/budgetEntryCount`` for a package of more than the policy's entries: `count` when it is known
    /// up front (a zip's central directory), `nil` when the reader stopped counting (a folder).
    static func tooManyEntries(_ count: Int?, policy: Policy) -> Finding {
        let limit = policy.maxEntryCount
        guard let count else {
            return Finding(
                .budgetEntryCount, message: "the package holds more than \(limit) entries",
                fix: "Bundle small files together or raise --max-entries.")
        }
        return Finding(
            .budgetEntryCount, message: "the package holds \(count) entries (budget \(limit))",
            fix: "Bundle small files together or raise --max-entries above \(count).")
    }

    /// A file type's name, for messages: `FIFO`, `socket`, `character device`, `block device`.
    static func typeName(_ type: UInt32) -> String {
        switch type {
        case UInt32(S_IFCHR): "character device"
        case UInt32(S_IFBLK): "block device"
        case UInt32(S_IFIFO): "FIFO"
        case UInt32(S_IFSOCK): "socket"
        default: "special file (type 0o\(String(type, radix: 8)))"
        }
    }
}
