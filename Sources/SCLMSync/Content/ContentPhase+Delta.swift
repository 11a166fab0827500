import SCLMArchive
import SCLMAuth
import SCLMCore
import SCLMStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a presentation's new revision got its bytes.
enum InstallMethod: Sendable {
    /// A delta update staged the new revision.
    case delta(StagedContent, DeltaSummary)
    /// A full download follows, for `reason`; `fetched` bytes were received on the way, and `announced`
    /// says whether `started` was already emitted.
    case full(reason: String, fetched: Int64, announced: Bool)

    /// The `delta` object of the `installed` event.
    var summary: DeltaSummary? {
        if case .delta(_, let summary) = self { summary } else { nil }
    }

    /// The `full` reason of the `installed` event.
    var fullReason: String? {
        if case .full(let reason, _, _) = self { reason } else { nil }
    }
}

extension ContentPhase {
    /// Updates the installed revision by delta when that can work: something is installed, `--full` is not
    /// given, no complete zip or full download is waiting in the cache. Otherwise, or when the delta path
    /// falls back (``DeltaFallback``), a full download follows, with the reason (logged with `-v`).
    ///
    /// - Throws: ``AuthError``, `CancellationError`, and errors of the content store or of fetching a link.
    func attemptDelta(
        _ job: ContentJob, target: String, folder: String, zip: String, part: String, slots: TransferSlots
    ) async throws -> InstallMethod {
        if let reason = reasonForFull(job, target: target, zip: zip, part: part) {
            return .full(reason: reason, fetched: 0, announced: false)
        }
        let id = job.presentationId
        let partial = cache.deltaPath(presentationId: id, revision: job.revision)
        let fetcher = makeFetcher(job, partialPath: partial)
        var announced = false
        do {
            let installed = try await installedContent(of: id, at: target)
            let update = DeltaUpdate(fetcher: fetcher, width: slots.width, policy: installer.policy)
            announced = true  // first thing in the slot
            let outcome = try await slots.withSlot {
                announce(job, cachedBytes: 0)
                return try await update.run(installed: installed)
            }
            switch outcome {
            case .whole(let received):
                try await Self.renameFile(partial, to: zip)
                return .full(reason: "the server ignores Range", fetched: received, announced: true)
            case .planned(let plan):
                let staged = try await unpackDelta(job, plan: plan, partial: partial, target: target, folder: folder)
                let summary = DeltaSummary(
                    fetchedBytes: fetcher.fetched.total, packageBytes: Int64(clamping: plan.packageBytes),
                    changedFiles: plan.fetchedFiles, reusedFiles: plan.reused.count)
                return .delta(staged, summary)
            }
        } catch let fallback as DeltaFallback {
            unlink(partial)
            downloader.logger?.debug(
                "presentation \(id): a full download instead of a delta update: \(fallback.reason)")
            return .full(reason: fallback.reason, fetched: fetcher.fetched.total, announced: announced)
        }
    }

    /// Why a delta update is not even tried, or `nil` to try one.
    private func reasonForFull(_ job: ContentJob, target: String, zip: String, part: String) -> String? {
        if forcesFull { return "sync --full" }
        if !installer.supportsDelta { return "the installer has no delta path" }
        if job.summary.installedRevision == nil { return "nothing installed yet" }
        let size = job.package?.fileSize ?? 0
        if size <= 0 { return "the server gave no package size" }
        if size <= Int64(DeltaFetcher.tailBytes) { return "the package is no larger than its first range request" }
        if hasUsableZip(job, at: zip) { return "the package is in the cache" }
        if (FileSystem.size(of: part) ?? 0) > 0 { return "a full download is under way" }
        if !FileSystem.isDirectory(target) { return "the installed revision is missing" }
        return nil
    }

    private func makeFetcher(_ job: ContentJob, partialPath: String) -> DeltaFetcher {
        let (id, service, events) = (job.presentationId, self.service, self.events)
        let size = job.package?.fileSize ?? 0
        return DeltaFetcher(
            transport: downloader.transport, retrier: downloader.retrier, logger: downloader.logger,
            route: downloader.route,
            links: LinkSource { try await ContentPhase.packageLink(id, service: service) },
            progress: { bytes in
                events.emit(.progress(.init(presentationId: id, phase: .download, bytes: bytes, totalBytes: size)))
            }, partialPath: partialPath, size: UInt64(size))
    }

    /// What each installed file holds now, from the manifest where the files' `stat` still matches it
    /// (hashed otherwise, and every file when no manifest was recorded).
    ///
    /// - Throws: ``DeltaFallback`` when the installed revision cannot be read.
    private func installedContent(of id: Int64, at target: String) async throws -> [String: PackageManifest.Content] {
        let recorded = try await store.read { db in try db.installedFiles(ofPresentation: id) }
        do {
            return try await BlockingWork.file("sclm.manifest") {
                try PackageManifest.current(of: target, recorded: recorded)
            }
        } catch let error as ArchiveError {
            throw DeltaFallback("the installed revision cannot be read (\(error.message))")
        }
    }

    /// Builds the new revision from the partial zip and the installed files, under the mark of an unpack in
    /// progress; a failure of the delta path's own making (bytes that do not unpack) is a fallback.
    private func unpackDelta(
        _ job: ContentJob, plan: DeltaPlan, partial: String, target: String, folder: String
    ) async throws -> StagedContent {
        let installer = self.installer
        do {
            return try await markedUnpack(job, creating: folder, dropping: partial) { progress in
                let (staged, reuse) = try await installer.unpackDelta(
                    partialZipAt: partial, plan: plan, stagingFor: target, progress: progress)
                let methods = reuse.map { "\($0.value) by \($0.key.rawValue)" }.sorted().joined(separator: ", ")
                downloader.logger?.debug("presentation \(job.presentationId): reused files: \(methods)")
                return staged
            }
        } catch let error as SyncError {
            throw DeltaFallback("the fetched entries do not unpack (\(error.userMessage))")
        }
    }
}
