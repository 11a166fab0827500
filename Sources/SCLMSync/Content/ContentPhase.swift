import Foundation
import SCLMArchive
import SCLMAuth
import SCLMCore
import SCLMHTTP
import SCLMStore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The content phase of a sync: download, verify and install the planned presentations, at
/// most `width` transfers at a time, each under its presentation lock.
///
/// Per presentation: take the lock (or report it busy), count an unpack an earlier run left unfinished
/// (``UnpackAttempts``; a revision interrupted too often in a row is given up, its zip dropped), repair what
/// an interrupted install left, mark it downloading, fetch a fresh `sas` and download the package into the
/// cache (resuming), check its size, mark the unpack as in progress (durably), unpack it under the package
/// policy into a staging folder beside `sources` and clear the mark, add the media files the package lacks,
/// swap the folder in with `rename(2)`, then record the revision in one transaction and drop the cached zip.
/// Presentations left mid-unpack by an earlier run are worked on only once all the others are done, so a
/// package that kills sclm cannot starve them. Cache files no download can use any more are swept first (a
/// part of a revision still wanted stays, to be resumed). A failure of one presentation leaves its previous
/// revision untouched and never stops the others; an ``AuthError`` or a cancellation stops the phase, with
/// `.part` files kept for the next run and every touched presentation's state put back.
///
/// A presentation holds one of the `width` transfer slots (``TransferSlots``) only while it downloads; up to
/// `width` more are unpacked and flushed meanwhile, so the disk and the network both stay busy.
struct ContentPhase: Sendable {
    let store: ContentStore
    let home: Home
    let service: SyncService
    let downloader: BlobDownloader
    let installer: any PackageInstaller
    let clock: any WallClock
    let events: ContentEventSink
    /// Always download whole packages (`sync --full`), never a delta update.
    var forcesFull = false

    var cache: PackageCache { PackageCache(home: home) }

    /// Runs the plan.
    ///
    /// - Throws: ``AuthError``, `CancellationError`.
    func run(_ plan: ContentPlan, width: Int) async throws -> ContentReport {
        var report = ContentReport()
        report.upToDate = plan.upToDate
        let waves = [plan.downloads, plan.interrupted]
        let ids = waves.joined().map(\.presentationId)
        let bytes = try await store.read { db in
            try ids.reduce(Int64(0)) { total, id in
                // The server's sizes: a sum past Int64 (two hostile packages) shows as the largest, not a trap.
                Checked(total).plus(max(0, try db.contentPackage(ofPresentation: id)?.fileSize ?? 0))?.value ?? .max
            }
        }
        events.emit(
            .planned(
                .init(
                    presentations: ids.count, bytes: bytes, skipped: plan.skipped.count,
                    upToDate: plan.upToDate.count)))
        for summary in plan.skipped {
            report.skipped.append(summary.presentationId)
            events.emit(
                .skipped(
                    .init(
                        presentationId: summary.presentationId, name: summary.name, reason: "the server marks it skip"))
            )
        }
        // Before any download: the space stale files hold (an old revision's part, a zip of a presentation
        // since installed) is what the new downloads, and the database, may need.
        report.removedCacheFiles = await removeStaleCacheFiles()
        if !plan.retried.isEmpty {
            try await store.write { db in try db.forgetUnpackInterruptions(presentationIds: plan.retried) }
        }
        for summary in plan.givenUp {
            failed(summary, Self.givenUp(summary), downloaded: 0).add(to: &report)
        }
        if let refusal = try await spaceRefusal(for: Array(waves.joined())) {
            for summary in waves.joined() { failed(summary, refusal, downloaded: 0).add(to: &report) }
            return report
        }
        let slots = TransferSlots(width)
        for wave in waves {
            let outcomes = try await concurrentMap(wave, width: 2 * max(1, width)) { summary in
                try await self.process(summary, slots: slots)
            }
            for outcome in outcomes { outcome.add(to: &report) }
        }
        return report
    }

    /// Why the whole plan cannot fit in the home's free space (``SpacePlan``), or `nil` when it fits or the free
    /// space cannot be asked.
    ///
    /// - Throws: ``StoreError``.
    private func spaceRefusal(for summaries: [PresentationSummary]) async throws -> SyncError? {
        guard !summaries.isEmpty, let free = DiskReserve.freeBytes(at: home.root) else { return nil }
        let jobs = try await store.read { db in
            try summaries.compactMap { try ContentJob.load($0.presentationId, from: db) }
        }
        let items = jobs.map { job in
            SpacePlan.Item(
                packageBytes: job.package?.fileSize ?? 0, cachedBytes: cachedBytes(of: job),
                mediaBytes: job.mediaFiles.reduce(Int64(0)) { Checked($0).plus(max(0, $1.fileSize))?.value ?? .max })
        }
        let reserve = installer.policy.diskReserve
        let space = SpacePlan(items, reserve: reserve)
        guard let missing = space.shortfall(freeBytes: free) else { return nil }
        return space.refusal(in: home.root, freeBytes: free, reserve: reserve, missing: missing)
    }

    /// The bytes of `job`'s package already in the cache: a complete zip, else a partial download.
    private func cachedBytes(of job: ContentJob) -> Int64 {
        let zip = cache.packagePath(presentationId: job.presentationId, revision: job.revision)
        if hasUsableZip(job, at: zip) { return FileSystem.size(of: zip) ?? 0 }
        return FileSystem.size(of: cache.packagePartPath(presentationId: job.presentationId, revision: job.revision))
            ?? 0
    }

    // MARK: - One presentation

    private func process(_ summary: PresentationSummary, slots: TransferSlots) async throws -> JobOutcome {
        let id = summary.presentationId
        let lock: PresentationLock
        do {
            guard let acquired = try PresentationLock.acquire(id, in: home) else {
                events.emit(
                    .busy(.init(presentationId: id, name: summary.name, reason: "another sclm process is syncing it")))
                return .busy(id)
            }
            lock = acquired
        } catch {
            return failed(summary, error, downloaded: 0)
        }
        defer { lock.release() }
        // Another process may have installed it (or the catalog changed) since the plan was made.
        guard let job = try await store.read({ db in try ContentJob.load(id, from: db) }) else { return .gone }
        guard job.summary.needsContent, !job.summary.skip else { return .upToDate(id) }
        var downloaded: Int64 = 0
        do {
            try await countEarlierUnpack(of: job)
            try await store.write { db in try db.markDownloading(presentationId: id) }
            let installed = try await install(job, slots: slots, downloaded: &downloaded)
            events.emit(.installed(installed))
            return .installed(installed)
        } catch let error as AuthError {
            await settle(id, error: nil)
            throw error
        } catch is CancellationError {
            await settle(id, error: nil)
            throw CancellationError()
        } catch {
            let outcome = failed(summary, error, downloaded: downloaded)
            await settle(id, error: error.userMessage)
            return outcome
        }
    }

    private func install(_ job: ContentJob, slots: TransferSlots, downloaded: inout Int64) async throws
        -> InstalledPresentation
    {
        let started = ContinuousClock.now
        let id = job.presentationId
        let folder = home.presentationDirectory(clientId: job.clientId, presentationId: id)
        let target = home.sourcesDirectory(clientId: job.clientId, presentationId: id)
        do {
            if FileSystem.isDirectory(folder) {
                let installer = self.installer
                try await BlockingWork.file("sclm.repair") { try installer.repair(target: target) }
            }
        } catch {
            throw SyncError(.installFailed, subject: "presentation \(id)", cause: error)
        }
        let zip = cache.packagePath(presentationId: id, revision: job.revision)
        let part = cache.packagePartPath(presentationId: id, revision: job.revision)
        let method = try await attemptDelta(job, target: target, folder: folder, zip: zip, part: part, slots: slots)
        let staged: StagedContent
        switch method {
        case .delta(let content, let summary):
            downloaded += summary.fetchedBytes
            staged = content
        case .full(_, let fetched, let announced):
            downloaded += fetched
            downloaded += try await download(job, zip: zip, part: part, slots: slots, announcing: !announced)
            // A package without media files to fetch needs its zip no more once it is read: deleted before the
            // flush, it is never written to disk. (With media files it stays until the install is recorded, so
            // a failed media download does not cost the package again.)
            staged = try await unpack(
                zip, into: target, creating: folder, of: job, removingZip: job.mediaFiles.isEmpty)
        }
        let media: (count: Int, bytes: Int64)
        do {
            media =
                job.mediaFiles.isEmpty
                ? (0, 0) : try await slots.withSlot { try await installMediaFiles(job, into: staged.stagingPath) }
            try await swap(staged, of: id)
        } catch {
            await Self.removeTree(staged.stagingPath)
            throw error
        }
        downloaded += media.bytes
        let now = Timestamp.string(from: clock.now)
        let manifest = await Self.manifest(of: staged)
        let isStored = try await withCancellationShield { [store] in
            try await store.write { db in
                try db.recordInstall(
                    presentationId: id, revision: job.revision, installedAt: now,
                    mediaFileIds: job.mediaFiles.map(\.mediaFileId), findings: staged.findings, manifest: manifest)
            }
        }
        unlink(zip)
        guard isStored else {
            await Self.removeTree(folder)
            throw SyncError(
                .installFailed, subject: "presentation \(id)", detail: "it was removed from the catalog meanwhile")
        }
        return InstalledPresentation(
            presentationId: id, name: job.summary.name, revision: job.revision,
            previousRevision: job.summary.installedRevision, path: target, files: staged.fileCount,
            unpackedBytes: staged.byteCount, downloadedBytes: downloaded, mediaFilesDownloaded: media.count,
            seconds: (ContinuousClock.now - started).inSeconds, findings: PackageFindingCounts(staged.findings),
            delta: method.summary, full: method.fullReason)
    }

    /// Downloads the package into the cache (unless a complete zip is there), holding a transfer slot;
    /// announces the presentation (`started`) unless the delta path already did.
    ///
    /// - Returns: bytes received.
    private func download(_ job: ContentJob, zip: String, part: String, slots: TransferSlots, announcing: Bool)
        async throws -> Int64
    {
        // The first download link is asked for before a transfer slot is free, so the request overlaps the
        // downloads running; should it fail, the download asks again itself and reports what fails.
        let (id, service) = (job.presentationId, self.service)
        let early = hasUsableZip(job, at: zip) ? nil : try? await ContentPhase.packageLink(id, service: service)
        return try await slots.withSlot {
            if announcing {
                announce(job, cachedBytes: FileSystem.size(of: zip) ?? FileSystem.size(of: part) ?? 0)
            }
            return try await fetchPackage(job, zip: zip, part: part, firstLink: early)
        }
    }

    /// Emits `started` for `job`.
    func announce(_ job: ContentJob, cachedBytes: Int64) {
        events.emit(
            .started(
                .init(
                    presentationId: job.presentationId, clientId: job.clientId, name: job.summary.name,
                    revision: job.revision, installedRevision: job.summary.installedRevision,
                    bytes: job.package?.fileSize ?? 0, cachedBytes: cachedBytes)))
    }

    /// The manifest of the staged package as installed now (after the swap: the `stat` that a later delta
    /// update compares), or `nil` when the package's files are unknown.
    private static func manifest(of staged: StagedContent) async -> [ManifestEntry]? {
        let (files, target) = (staged.declaredFiles, staged.targetPath)
        guard !files.isEmpty else { return nil }
        return try? await BlockingWork.file("sclm.manifest") {
            PackageManifest.record(files, in: target)
        }
    }

    // MARK: - Steps

    /// Counts the unpack an earlier run left unfinished, if any (this run holds the lock, so the process that
    /// set the mark is gone: killed, crashed or powered off), and gives the revision up once its unpack was
    /// interrupted ``UnpackAttempts/limit`` times in a row: its cached zip is dropped.
    ///
    /// - Throws: ``SyncError`` (`.unpackInterrupted`) for a revision given up; ``StoreError``.
    private func countEarlierUnpack(of job: ContentJob) async throws {
        let id = job.presentationId
        var attempts = job.summary.unpack
        if attempts.unpacking != nil {
            attempts = try await store.write { db in try db.countInterruptedUnpack(presentationId: id) } ?? attempts
        }
        guard attempts.hasGivenUp(on: job.revision) else { return }
        unlink(cache.packagePath(presentationId: id, revision: job.revision))
        throw Self.givenUp(job.summary)
    }

    /// Why a presentation's revision is no longer tried.
    private static func givenUp(_ summary: PresentationSummary) -> SyncError {
        SyncError(.unpackInterrupted, subject: "revision \(summary.revision) of presentation \(summary.presentationId)")
    }

    /// Whether a complete zip of this revision is already cached (the size the server announces, if any).
    func hasUsableZip(_ job: ContentJob, at zip: String) -> Bool {
        guard let size = FileSystem.size(of: zip) else { return false }
        return job.package.map { $0.fileSize <= 0 || $0.fileSize == size } ?? true
    }

    /// Downloads the package unless a complete zip of this revision is already cached, starting from
    /// `firstLink` when one was fetched ahead (renewals ask the API again).
    ///
    /// - Returns: bytes received.
    private func fetchPackage(_ job: ContentJob, zip: String, part: String, firstLink: BlobLink?) async throws
        -> Int64
    {
        if hasUsableZip(job, at: zip) { return 0 }
        unlink(zip)
        let id = job.presentationId
        let subject = "the package of presentation \(id)"
        let (service, events) = (self.service, self.events)
        let unused = Mutex(firstLink)
        let received = try await downloader.download(
            subject, to: part,
            link: {
                if let link = unused.withLock({ $0.take() }) { return link }
                return try await ContentPhase.packageLink(id, service: service)
            }
        ) { update, link in
            events.emit(
                .progress(
                    .init(presentationId: id, phase: .download, bytes: update.fileBytes, totalBytes: link.fileSize)))
        }
        do {
            try await Self.move(part, to: zip, describedAs: "rename \(part)")
        } catch {
            throw SyncError(.downloadFailed, subject: subject, cause: error)
        }
        return received
    }

    /// Unpacks the package into a staging folder, between setting the mark of an unpack in progress
    /// (durably) and clearing it: an unpack that ends, however, clears it and the interruptions in a row; a
    /// cancellation clears the mark only; a kill or a crash leaves it for the next run to count.
    private func unpack(
        _ zip: String, into target: String, creating folder: String, of job: ContentJob, removingZip: Bool
    ) async throws -> StagedContent {
        let installer = self.installer
        return try await markedUnpack(job, creating: folder, dropping: zip) { progress in
            try await installer.unpack(zipAt: zip, stagingFor: target, removingZip: removingZip, progress: progress)
        }
    }

    /// Runs `work` (an unpack into a staging folder, given a progress callback) under the mark of an unpack
    /// in progress; a refused or damaged package's `zip` is dropped.
    func markedUnpack(
        _ job: ContentJob, creating folder: String, dropping zip: String,
        _ work: @escaping @Sendable (@escaping @Sendable (Int64, Int64) -> Void) async throws -> StagedContent
    ) async throws -> StagedContent {
        let (id, revision, events) = (job.presentationId, job.revision, self.events)
        let (hook, cancellation) = (UnpackTestHook.current, CancellationFlag())
        do {
            try FileSystem.makeDirectory(folder, mode: 0o700)
            try await store.writeDurably { db in try db.markUnpacking(presentationId: id, revision: revision) }
        } catch {
            throw error is CancellationError
                ? error : SyncError(.installFailed, subject: "presentation \(id)", cause: error)
        }
        do {
            let staged = try await withTaskCancellationHandler {
                try await work { written, expected in
                    events.emit(
                        .progress(.init(presentationId: id, phase: .unpack, bytes: written, totalBytes: expected)))
                    hook?.fire(presentationId: id, cancellation: cancellation)
                }
            } onCancel: {
                cancellation.cancel()
            }
            await clearUnpackMark(of: id, ended: true)
            return staged
        } catch is CancellationError {
            await clearUnpackMark(of: id, ended: false)
            throw CancellationError()
        } catch {
            await clearUnpackMark(of: id, ended: true)
            // A zip that could not be unpacked (refused, damaged, or no room to unpack it) is not kept: it would
            // hold its space in cache/ for good. The next sync fetches it again, in case the server fixed it.
            unlink(zip)
            throw SyncError(.installFailed, subject: "presentation \(id)", cause: error)
        }
    }

    private func swap(_ staged: StagedContent, of id: Int64) async throws {
        let installer = self.installer
        do {
            // rename(2) and the fsyncs of the crash-safe swap block: they run off the cooperative pool.
            try await BlockingWork.file("sclm.swap") { try installer.swap(staged) }
        } catch {
            throw SyncError(.installFailed, subject: "presentation \(id)", cause: error)
        }
    }

    /// Puts every media file into the staging folder's `mediafiles/`: kept when the package brought it
    /// with the right size, downloaded otherwise.
    ///
    /// - Returns: media files downloaded and bytes received.
    private func installMediaFiles(_ job: ContentJob, into staging: String) async throws -> (count: Int, bytes: Int64) {
        let id = job.presentationId
        let (service, events) = (self.service, self.events)
        var count = 0
        var bytes: Int64 = 0
        let folder = staging + "/mediafiles"
        for media in job.mediaFiles {
            let subject = "media file \(media.mediaFileId) of presentation \(id)"
            let step = MediaFileStep.decide(fileName: media.fileName, fileSize: media.fileSize) { name in
                Self.existing(at: folder + "/" + name)
            }
            let destination: String
            switch step {
            case .keep: continue
            case .refuse(let detail): throw SyncError(.badPackage, subject: subject, detail: detail)
            case .download(let name): destination = folder + "/" + name
            }
            let part = cache.mediaPartPath(presentationId: id, mediaFileId: media.mediaFileId, revision: media.revision)
            let mediaId = media.mediaFileId
            bytes += try await downloader.download(
                subject, to: part, link: { try await ContentPhase.mediaLink(mediaId, of: id, service: service) }
            ) { update, link in
                events.emit(
                    .progress(
                        .init(presentationId: id, phase: .media, bytes: update.fileBytes, totalBytes: link.fileSize)))
            }
            do {
                try await BlockingWork.file("sclm.media-move") {
                    try FileSystem.makeDirectory(folder, mode: 0o755)
                    try FileSystem.syncFile(part)
                }
                try await Self.move(part, to: destination, describedAs: "move \(part) to \(destination)")
            } catch {
                throw SyncError(.installFailed, subject: subject, cause: error)
            }
            count += 1
        }
        return (count, bytes)
    }

    /// What is at `path` now, for ``MediaFileStep``.
    private static func existing(at path: String) -> MediaFileStep.Existing {
        guard FileSystem.exists(path) else { return .nothing }
        return FileSystem.isDirectory(path) ? .folder : .file(size: FileSystem.size(of: path))
    }

    /// `rename(2)`s `source` over `destination` off the cooperative pool.
    static func renameFile(_ source: String, to destination: String) async throws {
        try await move(source, to: destination, describedAs: "rename \(source)")
    }

    static func packageLink(_ id: Int64, service: SyncService) async throws -> BlobLink {
        let package = try await service.contentPackage(ofPresentation: id)
        return try link(
            package.sas, size: package.fileSize, blobId: package.blobId,
            subject: "the package of presentation \(id)")
    }

    static func mediaLink(_ id: Int64, of presentationId: Int64, service: SyncService) async throws -> BlobLink {
        let media = try await service.mediaFile(id, of: presentationId)
        return try link(
            media.sas, size: media.fileSize, blobId: media.blobId,
            subject: "media file \(id) of presentation \(presentationId)")
    }

    private static func link(_ sas: String?, size: Int64, blobId: String?, subject: String) throws -> BlobLink {
        guard let sas, let url = URL(string: sas), url.isHTTP else {
            throw SyncError(.badPackage, subject: subject, detail: "the server gave no usable download URL (sas)")
        }
        return BlobLink(url: url, fileSize: size, blobId: blobId)
    }

    // MARK: - Blocking file work (off the cooperative pool)

    /// `rename(2)`s `source` over `destination`.
    ///
    /// - Throws: `SCLMError` (`.storage`) named by `description`.
    private static func move(_ source: String, to destination: String, describedAs description: String)
        async throws
    {
        try await BlockingWork.file("sclm.rename") {
            guard rename(source, destination) == 0 else { throw FileSystem.storageError(description, errno: errno) }
        }
    }

    /// Removes `path` and what it holds, best effort (a leftover is cleaned by the next sync).
    private static func removeTree(_ path: String) async {
        _ = try? await BlockingWork.file("sclm.remove") { try FileSystem.removeTree(path) }
    }

    // MARK: - Bookkeeping

    private func failed(_ summary: PresentationSummary, _ error: any Error, downloaded: Int64) -> JobOutcome {
        let failure = SyncFailure(presentationId: summary.presentationId, error: error)
        events.emit(
            .failed(
                .init(
                    presentationId: summary.presentationId, name: summary.name, category: failure.category,
                    message: failure.message)))
        return .failed(failure, downloaded: downloaded)
    }

    /// Clears the mark of an unpack in progress (``Database/clearUnpackMark(presentationId:ended:)``), even
    /// while cancelled; best effort: a mark left set costs one interruption counted too many.
    private func clearUnpackMark(of id: Int64, ended: Bool) async {
        _ = try? await withCancellationShield { [store] in
            try await store.write { db in try db.clearUnpackMark(presentationId: id, ended: ended) }
        }
    }

    /// Puts the presentation's state back after a failure or a cancellation, even while cancelled.
    private func settle(_ id: Int64, error: String?) async {
        _ = try? await withCancellationShield { [store] in
            try await store.write { db in try db.settleSyncState(presentationId: id, error: error) }
        }
    }

    /// Removes cache files no future download can use: old revisions, installed or `skip` presentations,
    /// presentations the server no longer lists. Files of presentations locked by another process are left
    /// to it.
    ///
    /// - Returns: how many files were removed.
    private func removeStaleCacheFiles() async -> Int {
        let cache = self.cache
        let entries = cache.entries()
        guard !entries.isEmpty,
            case let (stored, owners)? = try? await store.read({ db in
                (try db.presentationSummaries(), try db.mediaFileOwners())
            })
        else { return 0 }
        let presentations = Dictionary(stored.map { ($0.presentationId, $0) }, uniquingKeysWith: { first, _ in first })
        var removed = 0
        for (presentationId, files) in Dictionary(grouping: entries, by: \.presentationId) {
            let stale = files.filter {
                !PackageCache.isWanted($0, presentation: presentations[presentationId], mediaOwners: owners)
            }
            guard !stale.isEmpty, let lock = try? PresentationLock.acquire(presentationId, in: home) else { continue }
            stale.forEach(cache.remove)
            removed += stale.count
            lock.release()
        }
        return removed
    }
}

/// How one presentation's job ended.
private enum JobOutcome: Sendable {
    case installed(InstalledPresentation)
    case failed(SyncFailure, downloaded: Int64)
    case busy(Int64)
    case upToDate(Int64)
    /// No longer stored when its lock was taken (removed by a concurrent sync).
    case gone

    func add(to report: inout ContentReport) {
        switch self {
        case .installed(let installed):
            report.installed.append(installed)
            report.downloadedBytes += installed.downloadedBytes
        case .failed(let failure, let downloaded):
            report.failures.append(failure)
            report.downloadedBytes += downloaded
        case .busy(let id): report.busy.append(id)
        case .upToDate(let id): report.upToDate.append(id)
        case .gone: break
        }
    }
}
