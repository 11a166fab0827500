import Foundation
import SCLMCore
import SCLMStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The download cache in `SCLM_HOME/cache` (docs/data.md): packages and media files while they download,
/// each with a small resume record beside it, and completed packages until they are installed.
///
/// ```
/// 101_rev4.zip.part          the package of presentation 101 at revision 4, downloading
/// 101_rev4.zip.part.json     its ResumeRecord (ETag, size, blob id)
/// 101_rev4.zip               downloaded and size-checked, waiting to be installed
/// 101_rev4.zip.delta         a delta update to revision 4 in progress (changed entries only, sparse)
/// 101_media118_rev0.part     media file 118 of presentation 101 (+ .part.json)
/// ```
///
/// Every name starts with the presentation id, so a file is only ever touched under that presentation's
/// lock. A zip is removed once its presentation is installed: the installed folder is the copy that is
/// used, and a kiosk's disk should not hold every package twice.
package struct PackageCache: Sendable, Equatable {
    /// What a cache file is, parsed from its name.
    package struct Entry: Sendable, Equatable {
        /// The presentation the file belongs to.
        package var presentationId: Int64
        /// The media file, for a media download.
        package var mediaFileId: Int64?
        /// The presentation's revision (package) or the media file's revision.
        package var revision: Int64
        /// The file name.
        package var name: String

        /// Creates an entry.
        package init(presentationId: Int64, mediaFileId: Int64?, revision: Int64, name: String) {
            self.presentationId = presentationId
            self.mediaFileId = mediaFileId
            self.revision = revision
            self.name = name
        }
    }

    /// The cache folder.
    package let directory: String

    /// Creates the cache of `home`.
    package init(home: Home) { directory = home.cacheDirectory }

    /// Creates a cache in `directory`.
    package init(directory: String) { self.directory = directory }

    /// The completed package of a presentation revision.
    package func packagePath(presentationId: Int64, revision: Int64) -> String {
        "\(directory)/\(presentationId)_rev\(revision).zip"
    }

    /// The partial download of a presentation revision's package.
    package func packagePartPath(presentationId: Int64, revision: Int64) -> String {
        packagePath(presentationId: presentationId, revision: revision) + ".part"
    }

    /// The partial zip of a delta update to that revision (sparse: the changed entries at their offsets,
    /// then a directory of them).
    package func deltaPath(presentationId: Int64, revision: Int64) -> String {
        packagePath(presentationId: presentationId, revision: revision) + ".delta"
    }

    /// The partial download of a media file.
    package func mediaPartPath(presentationId: Int64, mediaFileId: Int64, revision: Int64) -> String {
        "\(directory)/\(presentationId)_media\(mediaFileId)_rev\(revision).part"
    }

    /// The resume record kept beside a partial download.
    package static func resumeRecordPath(forPart partPath: String) -> String { partPath + ".json" }

    /// The cache files (names that follow the scheme above; anything else is left alone).
    package func entries() -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap(PackageCache.parse).sorted { $0.name < $1.name }
    }

    /// Parses a cache file name: `<id>_rev<r>.zip[.part[.json]]`, `<id>_rev<r>.zip.delta` or `<id>_media<m>_rev<r>.part[.json]`.
    package static func parse(_ name: String) -> Entry? {
        let suffixes = [".zip", ".zip.part", ".zip.part.json", ".zip.delta", ".part", ".part.json"]
        guard let suffix = suffixes.filter({ name.hasSuffix($0) }).max(by: { $0.count < $1.count }) else {
            return nil
        }
        let parts = name.dropLast(suffix.count).split(separator: "_", omittingEmptySubsequences: false)
        let isPackage = suffix.hasPrefix(".zip")
        guard parts.count == (isPackage ? 2 : 3), let presentationId = Int64(parts[0]),
            let revision = number(parts[parts.count - 1], after: "rev")
        else { return nil }
        if isPackage { return Entry(presentationId: presentationId, mediaFileId: nil, revision: revision, name: name) }
        guard let mediaFileId = number(parts[1], after: "media") else { return nil }
        return Entry(presentationId: presentationId, mediaFileId: mediaFileId, revision: revision, name: name)
    }

    /// Whether a cache file can still serve the next download of its presentation: the presentation is
    /// stored, not `skip`, not installed at the server's revision, and the file is of that revision (a
    /// package) or of the stored revision of one of its media files. Everything else is stale.
    ///
    /// - Parameters:
    ///   - entry: the cache file.
    ///   - presentation: its presentation as stored, or `nil` when the server no longer lists it.
    ///   - mediaOwners: every stored media file's presentation and revision, by media file id.
    /// - Returns: `true` to keep the file, `false` when it is stale.
    package static func isWanted(
        _ entry: Entry, presentation: PresentationSummary?,
        mediaOwners: [Int64: (presentationId: Int64, revision: Int64)]
    ) -> Bool {
        guard let presentation, presentation.needsContent, !presentation.skip else { return false }
        guard let mediaFileId = entry.mediaFileId else { return entry.revision == presentation.revision }
        guard let owner = mediaOwners[mediaFileId] else { return false }
        return owner.presentationId == presentation.presentationId && owner.revision == entry.revision
    }

    /// Removes a cache file (missing is fine).
    package func remove(_ entry: Entry) {
        unlink(directory + "/" + entry.name)
    }

    /// Removes presentation `presentationId`'s content folder in `home`, then the cache files among
    /// `entries` that belong to it. The caller holds the presentation's ``PresentationLock``.
    ///
    /// - Throws: `SCLMError` (`.storage`) when the folder cannot be removed (the cache files then stay).
    package func removeContent(of presentationId: Int64, clientId: Int64, in home: Home, entries: [Entry]) throws {
        try FileSystem.removeTree(home.presentationDirectory(clientId: clientId, presentationId: presentationId))
        for entry in entries where entry.presentationId == presentationId { remove(entry) }
    }

    /// Removes a partial download and its resume record.
    package static func removePart(_ partPath: String) {
        unlink(partPath)
        unlink(resumeRecordPath(forPart: partPath))
    }

    private static func number(_ text: Substring, after prefix: String) -> Int64? {
        guard text.hasPrefix(prefix) else { return nil }
        return Int64(text.dropFirst(prefix.count))
    }
}
