import SCLMArchive
import SCLMCore

/// The fetching half of one delta update: the new revision's directory by `Range`, the plan against the
/// installed files, the changed entries' bytes, their local headers checked, and the partial zip completed
/// with a directory of the fetched entries, ready for ``PackageInstaller/unpackDelta(partialZipAt:plan:stagingFor:progress:)``.
struct DeltaUpdate: Sendable {
    /// How it ended.
    enum Outcome: Sendable {
        /// The partial zip is ready for the plan.
        case planned(DeltaPlan)
        /// The server ignored `Range`: the partial file holds the whole package (`received` bytes).
        case whole(received: Int64)
    }

    /// The most requests for the directory (tail, ZIP64 records, the directory itself) before giving up.
    private static let maxDirectoryRequests = 4

    let fetcher: DeltaFetcher
    /// Range requests in flight at once.
    let width: Int
    let policy: Policy

    /// Runs it against the installed files (by path, as ``PackageManifest/current(of:recorded:)`` gives them).
    ///
    /// - Throws: ``DeltaFallback``, `CancellationError`, what fetching a link throws.
    func run(installed: [String: PackageManifest.Content]) async throws -> Outcome {
        switch try await fetcher.start() {
        case .whole(let received):
            return .whole(received: received)
        case .tail(var ranges):
            let directory = try await readDirectory(&ranges)
            let plan = try DeltaPlan.make(directory, size: fetcher.size, installed: installed, policy: policy)
            let fetcher = self.fetcher
            _ = try await concurrentMap(plan.ranges, width: width) { range in try await fetcher.fetch(range).count }
            try plan.verifyFetched(partialAt: fetcher.partialPath)
            try fetcher.write(plan.directoryTail(at: fetcher.size), at: fetcher.size)
            return .planned(plan)
        }
    }

    /// Parses the directory from the ranges fetched, fetching what the parser still needs.
    private func readDirectory(_ ranges: inout FetchedRanges) async throws -> ZipDirectory {
        for _ in 0..<Self.maxDirectoryRequests {
            do {
                return try ZipDirectory.parse(ranges, size: fetcher.size, maxEntries: policy.maxEntryCount)
            } catch let missing as ZipBytesMissing {
                guard let end = Checked(missing.offset).plus(missing.count) else {
                    throw DeltaFallback("the new revision's directory points past any file")
                }
                let range = DeltaPlan.ByteRange(start: missing.offset, end: end.value)
                ranges.add(try await fetcher.fetch(range), at: missing.offset)
            } catch let failure as ZipDirectory.Failure {
                throw DeltaFallback("the new revision's directory does not parse (\(failure))")
            }
        }
        throw DeltaFallback("the new revision's directory was not found in \(Self.maxDirectoryRequests) requests")
    }
}
