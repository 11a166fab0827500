import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The sibling paths used while replacing a target folder.
struct InstallPaths {
    /// The folder being replaced (no trailing slash).
    let target: String
    /// Its parent folder.
    let parent: String
    /// Where the previous content waits while the new one is renamed in: `<parent>/.<name>.old`.
    let old: String
    /// The name prefix of staging folders: `.<name>.staging-`.
    let stagingPrefix: String

    init(target path: String) {
        var target = path
        while target.count > 1, target.hasSuffix("/") { target.removeLast() }
        let name = PackagePath.fileName(of: target)
        let parent = PackagePath.directory(of: target)
        self.target = target
        self.parent = parent.isEmpty ? (target.hasPrefix("/") ? "/" : ".") : parent
        self.old = self.parent + "/." + name + ".old"
        self.stagingPrefix = "." + name + ".staging-"
    }

    /// A fresh, unused staging path.
    func newStagingPath() -> String {
        let suffix = (0..<8).map { _ in String(UInt8.random(in: 0...15), radix: 16) }.joined()
        return parent + "/" + stagingPrefix + suffix
    }
}

extension PackageExtractor {
    /// Swaps a staged package in as `targetPath` with `rename(2)`, so readers see the old content or the
    /// new, never a mix.
    ///
    /// Steps, each followed by an fsync of the parent folder: (1) finish any interrupted earlier install
    /// (``repairInterruptedInstall(at:)``); (2) rename `target` → `.<name>.old` (if there is a target);
    /// (3) rename staging → `target`; (4) remove `.<name>.old`. A crash leaves one of these states, and the
    /// next install (or an explicit repair) resolves it:
    ///
    /// | on disk after a crash | meaning | repair |
    /// | --- | --- | --- |
    /// | `target`, no `.old` | before step 2 or after step 4 | remove leftover staging folders |
    /// | `.old`, no `target` | between steps 2 and 3 | rename `.old` back to `target` (roll back) |
    /// | `.old` and `target` | between steps 3 and 4 | remove `.old` (roll forward) |
    ///
    /// Callers serialise installs of one target (docs/cli.md, `sclm sync` takes a per-presentation lock), and record the
    /// new revision in the database only after this returns.
    ///
    /// - Parameters:
    ///   - stagingPath: a folder made by ``extract(zipAt:stagingFor:progress:)`` for this target.
    ///   - targetPath: the folder to replace (or create).
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/installFailed``) when a rename fails; the target then
    ///   still holds the previous content (or is absent if there was none).
    package static func installStaging(_ stagingPath: String, as targetPath: String) throws {
        let paths = InstallPaths(target: targetPath)
        try repair(paths, keeping: PackagePath.fileName(of: stagingPath))
        var hasOld = false
        if FileSystem.exists(paths.target) {
            try move(paths.target, to: paths.old, paths: paths)
            hasOld = true
        }
        do {
            try move(stagingPath, to: paths.target, paths: paths)
        } catch {
            if hasOld { _ = rename(paths.old, paths.target) }
            throw error
        }
        if hasOld {
            // The install is complete; a leftover .old is removed by the next repair.
            try? FileSystem.removeTree(paths.old)
            FileSystem.syncDirectory(containing: paths.old)
        }
    }

    /// Resolves what an interrupted ``installStaging(_:as:)`` (or extraction) left next to `targetPath`:
    /// restores or removes `.<name>.old` (see the table there) and removes stale staging folders.
    ///
    /// Call it with the target's lock held (no extraction for this target may be running), e.g. when sync
    /// starts. Nothing happens when there is nothing to repair.
    ///
    /// - Throws: ``ArchiveError`` (``ArchiveError/Code/installFailed``).
    package static func repairInterruptedInstall(at targetPath: String) throws {
        try repair(InstallPaths(target: targetPath), keeping: nil)
    }

    private static func repair(_ paths: InstallPaths, keeping staging: String?) throws {
        if FileSystem.exists(paths.old) {
            if FileSystem.exists(paths.target) {
                try remove(paths.old)
            } else {
                try move(paths.old, to: paths.target, paths: paths)
            }
        }
        for name in try folderNames(in: paths.parent) where name.hasPrefix(paths.stagingPrefix) && name != staging {
            try remove(paths.parent + "/" + name)
        }
    }

    private static func move(_ source: String, to destination: String, paths: InstallPaths) throws {
        guard rename(source, destination) == 0 else {
            throw ArchiveError.system(
                .installFailed, "rename \(source) to \(destination)", path: paths.target, errno: errno)
        }
        FileSystem.syncDirectory(containing: destination)
    }

    private static func remove(_ path: String) throws {
        do {
            try FileSystem.removeTree(path)
        } catch {
            throw ArchiveError(.installFailed, "\(error.userMessage)", archivePath: path)
        }
        FileSystem.syncDirectory(containing: path)
    }

    private static func folderNames(in folder: String) throws -> [String] {
        guard let stream = opendir(folder) else {
            throw ArchiveError.system(.installFailed, "list \(folder)", path: folder, errno: errno)
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            names.append(
                withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        return names
    }
}
