import SCLMCore

/// What a delta update fetches and what it takes from the installed revision, decided from the new
/// revision's central directory alone (read with `Range` requests) and the installed revision's manifest.
///
/// An entry is *reused* when the installed revision has a regular file at the same path with the same size
/// and CRC-32 (as ``PackageManifest/current(of:recorded:)`` vouches for it now); every other file is
/// *fetched*. An entry's bytes run from its local header to the next entry's local header (offsets sorted;
/// the last one ends where the central directory starts), which covers the local extra field and a data
/// descriptor whatever their length. The fetched extents are coalesced when less than ``maxGap`` apart (a
/// small gap costs less than another request) and cut into requests of at most ``maxRequest`` bytes. Folder
/// entries are not fetched: a full unpack creates them empty, and so does the delta update.
///
/// The fetched bytes are written at their own offsets into a sparse copy of the package, and
/// ``directoryTail(at:)`` appends a central directory of the fetched entries only: a smaller zip whose
/// entries are the changed ones, which the normal scanner unpacks with every rule and CRC check.
package struct DeltaPlan: Sendable {
    /// A byte range of the package: `start..<end`.
    package struct ByteRange: Sendable, Equatable {
        package let start: UInt64
        package let end: UInt64

        /// The range `start..<end`.
        package init(start: UInt64, end: UInt64) {
            self.start = start
            self.end = end
        }

        /// Its length.
        package var count: UInt64 { end - start }
    }

    /// Extents closer than this are fetched as one.
    package static let maxGap: UInt64 = 64 << 10
    /// The most bytes one request asks for (each is held in memory until written).
    package static let maxRequest: UInt64 = 8 << 20

    /// The package's size.
    package let packageBytes: UInt64
    /// The entries whose bytes are fetched, in offset order.
    let fetched: [ZipDirectory.Record]
    /// Paths of the regular files taken from the installed revision.
    package let reused: [String]
    /// Paths of the folder entries.
    package let folders: [String]
    /// The requests, in offset order.
    package let ranges: [ByteRange]
    /// What the rules that need only the directory found (none refuses the package).
    package let findings: [Finding]
    /// The regular files of the new revision, as its directory declares them (the manifest to record).
    package let declaredFiles: [PackageManifest.DeclaredFile]

    /// Files fetched.
    package var fetchedFiles: Int { fetched.count }

    /// Bytes the requests ask for.
    package var fetchBytes: UInt64 { ranges.reduce(0) { $0 + $1.count } }

    /// Plans the update of a package of `size` bytes whose directory is `directory`, from the files of the
    /// installed revision (`installed`, by path).
    ///
    /// - Throws: ``DeltaFallback`` when a full download is the better way (or the only one that reports the
    ///   problem): the directory breaks the package policy, the layout is unusual, or more than half the
    ///   package would be fetched.
    package static func make(
        _ directory: ZipDirectory, size: UInt64, installed: [String: PackageManifest.Content], policy: Policy
    ) throws(DeltaFallback) -> DeltaPlan {
        guard directory.records.count == directory.entryCount, directory.entryCount > 0 else {
            throw DeltaFallback("the new revision declares \(directory.entryCount) entries")
        }
        guard directory.prependedBytes.value == 0 else {
            throw DeltaFallback("the new revision's zip has bytes before its first entry")
        }
        let findings = ZipScanner(path: "", policy: policy, cancellation: CancellationFlag())
            .directoryFindings(directory)
        if let refusing = findings.first(where: policy.refuses) {
            throw DeltaFallback("the new revision's directory breaks the package policy (\(refusing.rule.id))")
        }
        let sorted = directory.records.sorted { $0.localHeaderOffset < $1.localHeaderOffset }
        var fetched: [(record: ZipDirectory.Record, extent: ByteRange)] = []
        var (reused, folders): ([String], [String]) = ([], [])
        for (index, record) in sorted.enumerated() {
            let name = EntryName(raw: record.name, policy: policy)
            if name.isDirectory {
                folders.append(name.path)
                continue
            }
            let content = PackageManifest.Content(
                size: Int64(clamping: record.uncompressedSize.value), crc32: record.crc32)
            if installed[name.path] == content {
                reused.append(name.path)
                continue
            }
            let end = index + 1 < sorted.count ? sorted[index + 1].localHeaderOffset : directory.directoryOffset
            guard record.localHeaderOffset < end else {
                throw DeltaFallback("the new revision's entries overlap")
            }
            fetched.append((record, ByteRange(start: record.localHeaderOffset.value, end: end.value)))
        }
        let ranges = coalesce(fetched.map(\.extent))
        let plan = DeltaPlan(
            packageBytes: size, fetched: fetched.map(\.record), reused: reused, folders: folders, ranges: ranges,
            findings: findings, declaredFiles: PackageManifest.declaredFiles(in: directory))
        guard plan.fetchBytes <= size / 2 else {
            throw DeltaFallback(
                "\(ByteCount.format(Int64(clamping: plan.fetchBytes))) of \(ByteCount.format(Int64(clamping: size))) changed"
            )
        }
        return plan
    }

    /// `extents` (sorted, disjoint) merged across gaps of at most ``maxGap`` and cut at ``maxRequest``.
    package static func coalesce(_ extents: [ByteRange]) -> [ByteRange] {
        var merged: [ByteRange] = []
        for extent in extents {
            if let last = merged.last, extent.start - last.end <= maxGap {
                merged[merged.count - 1] = ByteRange(start: last.start, end: extent.end)
            } else {
                merged.append(extent)
            }
        }
        return merged.flatMap { range in
            stride(from: range.start, to: range.end, by: Int(maxRequest)).map {
                ByteRange(start: $0, end: min(range.end, $0 + maxRequest))
            }
        }
    }

    /// The bytes to write at `offset` (the package's size) behind the fetched entries: a central directory
    /// of the fetched entries (their records exactly as stored, offsets unchanged) and its end records
    /// (ZIP64 ones when a count, size or offset needs them).
    package func directoryTail(at offset: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        for record in fetched { bytes += record.raw }
        let directorySize = UInt64(bytes.count)
        let count = UInt64(fetched.count)
        let needsZip64 = count >= 0xFFFF || offset >= 0xFFFF_FFFF || directorySize >= 0xFFFF_FFFF
        if needsZip64 {
            let recordOffset = offset + directorySize
            bytes.append(le: 0x0606_4B50, 4)
            bytes.append(le: 44, 8)
            bytes.append(le: 45, 2)
            bytes.append(le: 45, 2)
            bytes.append(le: 0, 4)
            bytes.append(le: 0, 4)
            bytes.append(le: count, 8)
            bytes.append(le: count, 8)
            bytes.append(le: directorySize, 8)
            bytes.append(le: offset, 8)
            bytes.append(le: 0x0706_4B50, 4)
            bytes.append(le: 0, 4)
            bytes.append(le: recordOffset, 8)
            bytes.append(le: 1, 4)
        }
        bytes.append(le: 0x0605_4B50, 4)
        bytes.append(le: 0, 4)
        bytes.append(le: needsZip64 ? 0xFFFF : count, 2)
        bytes.append(le: needsZip64 ? 0xFFFF : count, 2)
        bytes.append(le: needsZip64 ? 0xFFFF_FFFF : directorySize, 4)
        bytes.append(le: needsZip64 ? 0xFFFF_FFFF : offset, 4)
        bytes.append(le: 0, 2)
        return bytes
    }
}

extension [UInt8] {
    /// Appends the low `width` bytes of `value`, little-endian.
    fileprivate mutating func append(le value: UInt64, _ width: Int) {
        for index in 0..<width { append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }
}
