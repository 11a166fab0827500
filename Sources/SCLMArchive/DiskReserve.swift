import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The disk space a sync leaves free besides what it downloads and unpacks (`sync.diskReserve`), so an install
/// never fills a disk to the last block: the database, the logs and the kiosk's sessions still have room.
///
/// Unset, the reserve is scaled to the package: its own size, at least ``minimumScaled`` (4 MiB) and at most
/// ``maximumScaled`` (64 MiB), so a small home can install a small package and a large package keeps a large
/// margin. A fixed value replaces that rule for every package.
package struct DiskReserve: Sendable, Equatable {
    /// The reserve in bytes for every package, or `nil` for one scaled to the package.
    package var fixedBytes: Int64?

    /// The smallest scaled reserve.
    package static let minimumScaled: Int64 = 4 << 20
    /// The largest scaled reserve.
    package static let maximumScaled: Int64 = 64 << 20

    /// The default: scaled to the package.
    package static let scaled = DiskReserve(fixedBytes: nil)

    /// A reserve of `fixedBytes` bytes, or scaled to the package when `nil`.
    package init(fixedBytes: Int64?) { self.fixedBytes = fixedBytes }

    /// A reserve of `megabytes` MiB (the setting's unit), or scaled when `nil`.
    package init(megabytes: Int?) {
        self.init(fixedBytes: megabytes.map { Checked(Int64($0)).times(1 << 20)?.value ?? .max })
    }

    /// The bytes to keep free besides a package of `packageBytes` bytes.
    package func bytes(forPackageOf packageBytes: Int64) -> Int64 {
        fixedBytes ?? min(max(packageBytes, Self.minimumScaled), Self.maximumScaled)
    }

    /// How the reserve is set, for messages: "sync.diskReserve" or "sync.diskReserve unset: the package's size,
    /// 4.0 MiB–64.0 MiB".
    package var origin: String {
        guard fixedBytes == nil else { return "sync.diskReserve" }
        return "sync.diskReserve unset: the package's size, "
            + "\(ByteCount.format(Self.minimumScaled))–\(ByteCount.format(Self.maximumScaled))"
    }

    /// The bytes an unprivileged writer may still use on the file system holding `path`, or `nil` when it cannot
    /// be asked (the caller then does not refuse for lack of space).
    package static func freeBytes(at path: String) -> Int64? {
        var space = statvfs()
        guard statvfs(path.isEmpty ? "." : path, &space) == 0 else { return nil }
        return Checked(UInt64(space.f_bavail)).times(space.f_frsize)?.exactly(Int64.self) ?? .max
    }
}
