import Foundation
import SCLMAuth
import SCLMCore
import SCLMHTTP
import SCLMStore

/// What `sclm sync` is asked to do.
package struct SyncOptions: Sendable, Equatable {
    /// Which clients.
    package var clients: ClientSelection
    /// Which presentations of those clients get content; empty means all of them.
    package var presentations: [Int64]
    /// Requests (metadata) or transfers (content) in flight at once.
    package var jobs: Int
    /// Stop after the metadata phase.
    package var metadataOnly: Bool
    /// Try again the revisions given up after their unpack was interrupted too often (``ContentPlan``).
    package var retry: Bool

    /// Creates options.
    package init(
        clients: ClientSelection = ClientSelection(), presentations: [Int64] = [], jobs: Int = 4,
        metadataOnly: Bool = false, retry: Bool = false
    ) {
        self.clients = clients
        self.presentations = presentations
        self.jobs = max(1, jobs)
        self.metadataOnly = metadataOnly
        self.retry = retry
    }
}

/// Keeps the local catalog in step with the server (docs/cli.md, `sclm sync`).
///
/// ``sync(_:events:)`` runs the metadata phase, then (unless `metadataOnly`) the content phase
/// (``ContentPhase``: download, verify, install each selected presentation that needs it), then lists
/// what is still not installed (``contentCandidates(clientIds:)``); the result is recorded in the
/// `lastSyncAt`/`lastSyncResult` preferences either way.
///
/// The metadata phase fetches the client list, then only presentations that are new or whose revision
/// moved, at most `jobs` at a time, with the slides and media files whose revision moved; it stores
/// everything in one transaction and removes what the server no longer lists (rows, then content
/// folders). A presentation that cannot be fetched, or whose record contradicts the listing (another id,
/// another client than the one whose listing carries it), is reported and keeps its stored state; the
/// others are stored; an ``AuthError`` or a cancellation stops the sync with nothing written.
package actor SyncManager {
    private let service: SyncService
    private let store: ContentStore
    private let home: Home
    private let transport: any HTTPTransport
    private let installer: any PackageInstaller
    private let retrier: Retrier
    private let clock: any WallClock
    private let logger: Logger?
    private let blobProxy: BlobProxy?

    /// Creates a manager.
    ///
    /// - Parameters:
    ///   - service: the content API.
    ///   - store: the database.
    ///   - home: where content, cache and locks live.
    ///   - transport: what downloads packages and media files from their signed URLs (no bearer token).
    ///   - installer: what unpacks and swaps in packages.
    ///   - retrier: how dropped or failed downloads are retried (they resume each time).
    ///   - clock: the current time, for `installedAt` and the sync preferences.
    ///   - logger: receives retries and removals.
    ///   - blobProxy: the site cache packages and media files are fetched through (`sync.blobProxy`), if any.
    package init(
        service: SyncService, store: ContentStore, home: Home, transport: any HTTPTransport,
        installer: any PackageInstaller, retrier: Retrier = Retrier(policy: RetryPolicy()),
        clock: any WallClock = SystemClock(),
        logger: Logger? = nil, blobProxy: BlobProxy? = nil
    ) {
        self.blobProxy = blobProxy
        self.service = service
        self.store = store
        self.home = home
        self.transport = transport
        self.installer = installer
        self.retrier = retrier
        self.clock = clock
        self.logger = logger
    }

    /// Runs a sync and records its result.
    ///
    /// - Parameters:
    ///   - options: what to sync.
    ///   - events: receives the content phase's events (from many threads; must be quick).
    /// - Returns: what the metadata and content phases did.
    /// - Throws: ``SyncError`` when the client list cannot be had or a `--presentation` is unknown,
    ///   ``AuthError``, ``StoreError``, `CancellationError`.
    package func sync(_ options: SyncOptions, events: @escaping @Sendable (ContentEvent) -> Void = { _ in })
        async throws
        -> SyncReport
    {
        do {
            let metadata = try await syncMetadata(options)
            let clientIds = Set(metadata.clientIds)
            var content: ContentReport?
            if !options.metadataOnly {
                content = try await syncContent(options, clientIds: clientIds, events: events)
            }
            let report = SyncReport(
                metadata: metadata, content: content, pendingContent: try await contentCandidates(clientIds: clientIds))
            await record(result: report.isSuccess ? "ok" : "failed")
            return report
        } catch {
            await record(result: error is CancellationError ? "cancelled" : "failed")
            throw error
        }
    }

    /// The metadata phase alone.
    ///
    /// - Throws: like ``sync(_:)``.
    package func syncMetadata(_ options: SyncOptions) async throws -> MetadataReport {
        let listing = try await service.clients()
        let (stored, storedClients) = try await store.read { db in
            (try db.presentationSummaries(), try db.primaryKeys(of: ClientRecord.self))
        }
        let plan = try MetadataPlan.make(
            listing: listing, selection: options.clients, stored: stored, storedClientIds: storedClients)
        if !plan.fetches.isEmpty {
            logger?.info("fetching \(plan.fetches.count) new or changed presentation(s), \(options.jobs) at a time")
        }
        let outcomes = try await fetch(plan.fetches, jobs: options.jobs)
        let fetched = outcomes.compactMap(\.fetched)
        let failures = outcomes.compactMap(\.failure)
        let update = MetadataUpdate(plan: plan, fetched: fetched, synchronizedAt: Timestamp.string(from: clock.now))
        do {
            try await store.write { db in try update.apply(to: db) }
        } catch let error as StoreError {
            throw SyncError(.writeFailed, subject: "the synced metadata", cause: error)
        }
        await removeContent(of: plan.removals)
        return MetadataReport(
            clientIds: plan.clients.map(\.id), presentations: plan.listedCount,
            added: fetched.filter(\.isNew).map(\.record.presentationId),
            updated: fetched.filter { !$0.isNew }.map(\.record.presentationId),
            removed: plan.removals.map(\.presentationId), unchanged: plan.unchangedCount + plan.flagUpdates.count,
            failures: failures)
    }

    /// The content phase alone, for the presentations of `clientIds` that `options` selects.
    ///
    /// - Throws: ``SyncError`` (`.unknownPresentation`), ``AuthError``, ``StoreError``, `CancellationError`.
    package func syncContent(
        _ options: SyncOptions, clientIds: Set<Int64>, events: @escaping @Sendable (ContentEvent) -> Void = { _ in }
    ) async throws -> ContentReport {
        let stored = try await store.read { db in try db.presentationSummaries() }
        let plan = try ContentPlan.make(
            stored: stored, clientIds: clientIds, presentationIds: options.presentations, retry: options.retry)
        let route = blobProxy.map(BlobRoute.init(proxy:))
        let phase = ContentPhase(
            store: store, home: home, service: service,
            downloader: BlobDownloader(transport: transport, retrier: retrier, logger: logger, route: route),
            installer: installer, clock: clock, events: ContentEventSink(events))
        var report = try await phase.run(plan, width: options.jobs)
        report.blobProxyFallback = route?.fallbackNotice
        return report
    }

    /// Presentations of `clientIds` whose content is not installed at the server's
    /// revision and that the server does not mark `skip`.
    ///
    /// - Throws: ``StoreError``.
    package func contentCandidates(clientIds: Set<Int64>) async throws -> [ContentCandidate] {
        try await store.read { db in
            try db.presentationSummaries().filter { summary in
                summary.needsContent && !summary.skip && clientIds.contains(summary.clientId)
            }.map { summary in
                ContentCandidate(
                    presentationId: summary.presentationId, clientId: summary.clientId, name: summary.name,
                    revision: summary.revision, installedRevision: summary.installedRevision,
                    syncState: summary.syncState,
                    package: try db.contentPackage(ofPresentation: summary.presentationId))
            }
        }
    }

    // MARK: - Fetching

    private func fetch(_ fetches: [MetadataPlan.Fetch], jobs: Int) async throws -> [FetchOutcome] {
        guard !fetches.isEmpty else { return [] }
        let known = try await store.read { db in
            (slides: try db.revisions(of: SlideRecord.self), media: try db.revisions(of: MediaFileRecord.self))
        }
        let service = self.service
        return try await concurrentMap(fetches, width: jobs) { fetch in
            do {
                return FetchOutcome(
                    fetched: try await SyncManager.fetchPresentation(
                        fetch, slides: known.slides, media: known.media, service: service))
            } catch let error as SyncError {
                return FetchOutcome(failure: SyncFailure(presentationId: fetch.stub.id, error: error))
            }
        }
    }

    /// Fetches one presentation with its changed slides and media files; a record that contradicts the
    /// listing is refused before anything else is fetched for it.
    private static func fetchPresentation(
        _ fetch: MetadataPlan.Fetch, slides knownSlides: [Int64: Int64], media knownMedia: [Int64: Int64],
        service: SyncService
    ) async throws -> FetchedPresentation {
        let response = try await service.presentation(fetch.stub.id)
        let presentation = response.value
        if let problem = presentation.inconsistency(listedId: fetch.stub.id, listedClientId: fetch.clientId) {
            throw SyncError(.inconsistentRecord, subject: "presentation \(fetch.stub.id)", detail: problem)
        }
        let slides = try await fetchChanged(presentation.slides, known: knownSlides) {
            try await service.slide($0.id, of: presentation.id).record(presentationId: presentation.id, position: $1)
        }
        let media = try await fetchChanged(presentation.mediaFiles, known: knownMedia) {
            try await service.mediaFile($0.id, of: presentation.id).record(
                presentationId: presentation.id, position: $1)
        }
        return FetchedPresentation(
            record: presentation.record(
                clientId: fetch.clientId, lockout: fetch.stub.lockout,
                rawData: String(decoding: response.body, as: UTF8.self)),
            fetchedSlides: slides.fetched, slidePositions: slides.positions, fetchedMediaFiles: media.fetched,
            mediaPositions: media.positions,
            package: presentation.sourcesFolder?.record(presentationId: presentation.id),
            isNew: fetch.isNew)
    }

    /// Fetches the listed items whose revision differs from the stored one; the others only get their
    /// list position.
    private static func fetchChanged<Item: ListedRevision, Record>(
        _ items: [Item], known: [Int64: Int64], fetch: (Item, Int64) async throws -> Record
    ) async throws -> (fetched: [Record], positions: [Int64: Int64]) {
        var fetched: [Record] = []
        var positions: [Int64: Int64] = [:]
        for (position, item) in items.enumerated() {
            if known[item.id] == item.revision {
                positions[item.id] = Int64(position)
            } else {
                fetched.append(try await fetch(item, Int64(position)))
            }
        }
        return (fetched, positions)
    }

    // MARK: - Bookkeeping

    /// Removes the content folders and cache files of removed presentations, after their rows are gone.
    /// A presentation another sclm process is installing is left to it: its install finds the row gone
    /// and removes the folder itself.
    private func removeContent(of removals: [MetadataPlan.Removal]) async {
        guard !removals.isEmpty else { return }
        let cache = PackageCache(home: home)
        let cached = Dictionary(grouping: cache.entries(), by: \.presentationId)
        for removal in removals {
            let id = removal.presentationId
            guard let lock = try? PresentationLock.acquire(id, in: home) else { continue }
            defer { lock.release() }
            do {
                let (home, entries) = (self.home, cached[id] ?? [])
                // Removing a tree blocks on the file system: off the cooperative pool.
                try await BlockingWork.file("sclm.remove") {
                    try cache.removeContent(of: id, clientId: removal.clientId, in: home, entries: entries)
                }
            } catch {
                logger?.warning("presentation \(id) was removed, but its content was not: \(error.userMessage)")
            }
        }
    }

    /// Stores `lastSyncAt`/`lastSyncResult`, even when the sync was cancelled.
    private func record(result: String) async {
        let now = clock.now
        let store = self.store
        // Shielded: a cancelled sync still records that it was cancelled.
        await withCancellationShield {
            try? await store.write { db in
                try db.setPreference(
                    scope: PreferenceKey.sclmScope, key: PreferenceKey.lastSyncAt, value: Timestamp.string(from: now),
                    now: now)
                try db.setPreference(
                    scope: PreferenceKey.sclmScope, key: PreferenceKey.lastSyncResult, value: result, now: now)
            }
        }
    }
}

/// One presentation's fetch: its data, or why it failed (which does not stop the others).
private struct FetchOutcome: Sendable {
    var fetched: FetchedPresentation?
    var failure: SyncFailure?
}
