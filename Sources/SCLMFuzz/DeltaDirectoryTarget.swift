import SCLMArchive
import SCLMCore

/// The delta path's reading of a remote zip: the input is the new revision's zip, served as a delta update
/// fetches it (its last 96 KiB, then each span the directory points to), parsed by `ZipDirectory.parse` from
/// the fetched ranges and planned by `DeltaPlan.make` against an installed revision holding every other entry.
enum DeltaDirectoryTarget {
    static func fuzz(_ bytes: [UInt8]) {
        guard let directory = directory(of: bytes) else { return }
        var installed: [String: PackageManifest.Content] = [:]
        for (index, record) in directory.records.enumerated() where index.isMultiple(of: 2) {
            installed[String(decoding: record.name, as: UTF8.self)] = PackageManifest.Content(
                size: Int64(clamping: record.uncompressedSize.value), crc32: record.crc32)
        }
        _ = try? DeltaPlan.make(directory, size: UInt64(bytes.count), installed: installed, policy: .standard)
    }

    /// The directory as the delta path parses it: the tail first, then up to three more spans it asks for.
    private static func directory(of bytes: [UInt8]) -> ZipDirectory? {
        let size = UInt64(bytes.count)
        var ranges = FetchedRanges(size: size)
        let tail = min(bytes.count, 96 << 10)
        ranges.add(Array(bytes[(bytes.count - tail)...]), at: size - UInt64(tail))
        for _ in 0..<4 {
            do {
                return try ZipDirectory.parse(ranges, size: size, maxEntries: Policy.standard.maxEntryCount)
            } catch let missing as ZipBytesMissing {
                guard let start = Int(exactly: missing.offset), start < bytes.count, missing.count >= 0 else {
                    return nil
                }
                ranges.add(Array(bytes[start..<(start + min(missing.count, bytes.count - start))]), at: missing.offset)
            } catch {
                return nil
            }
        }
        return nil
    }
}
