import SCLMArchive
import SCLMCore

/// What the content plan of one sync writes to the home's disk, checked once before any download: a plan that
/// cannot fit fetches nothing (rather than filling `cache/` with zips that can never be unpacked).
///
/// Each presentation counts what it still has to download (its package less the bytes already cached, and its
/// media files) and what it unpacks, at least its package's size (an unpack checks the exact size again);
/// everything is counted whole, as if the presentations were installed together and no old revision were freed.
/// On top comes the ``DiskReserve`` of the largest package.
struct SpacePlan: Sendable, Equatable {
    /// One presentation of the plan.
    struct Item: Sendable, Equatable {
        /// The package's size as the server announces it.
        var packageBytes: Int64
        /// The package's bytes already in `cache/` (a complete zip or a partial download).
        var cachedBytes: Int64
        /// The media files' sizes.
        var mediaBytes: Int64
    }

    /// Bytes still to download.
    var downloadBytes: Int64 = 0
    /// Bytes unpacked, at least.
    var unpackBytes: Int64 = 0
    /// Bytes kept free besides.
    var reserveBytes: Int64 = 0

    /// Everything the plan needs free (saturating: hostile sizes need more than any disk has).
    var neededBytes: Int64 { Checked.sum([downloadBytes, unpackBytes, reserveBytes].map(Checked.init))?.value ?? .max }

    /// The plan for `items` under `reserve`.
    init(_ items: [Item], reserve: DiskReserve) {
        var largest: Int64 = 0
        for item in items {
            let package = max(0, item.packageBytes)
            let media = max(0, item.mediaBytes)
            let download = Checked(max(0, package - min(package, max(0, item.cachedBytes)))).plus(media)?.value ?? .max
            let unpack = Checked(package).plus(media)?.value ?? .max
            downloadBytes = Checked(downloadBytes).plus(download)?.value ?? .max
            unpackBytes = Checked(unpackBytes).plus(unpack)?.value ?? .max
            largest = max(largest, unpack)
        }
        reserveBytes = items.isEmpty ? 0 : reserve.bytes(forPackageOf: largest)
    }

    /// The bytes missing when `freeBytes` are free, or `nil` when the plan fits.
    func shortfall(freeBytes: Int64) -> Int64? {
        freeBytes >= neededBytes ? nil : neededBytes - freeBytes
    }

    /// The error every presentation of a plan that does not fit fails with, naming what is missing.
    func refusal(in folder: String, freeBytes: Int64, reserve: DiskReserve, missing: Int64) -> SyncError {
        SyncError(
            .noSpace, subject: folder,
            detail: "this sync needs \(ByteCount.format(neededBytes)) (downloads \(ByteCount.format(downloadBytes)), "
                + "unpacked at least \(ByteCount.format(unpackBytes)), \(ByteCount.format(reserveBytes)) kept free "
                + "by \(reserve.origin)), \(ByteCount.format(freeBytes)) free: \(ByteCount.format(missing)) missing; "
                + "nothing was downloaded. Free some space, lower sync.diskReserve or sync fewer presentations "
                + "(--presentation)")
    }
}
