import Foundation
import SCLMCore
import SCLMHTTP
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A signed, short-lived download URL (`sas`) with what the server says about the blob behind it.
package struct BlobLink: Sendable, Equatable {
    /// The URL; its query carries the signature, so it is never logged or shown.
    package var url: URL
    /// The size the server announced; ``BlobDownloader`` refuses a link without a positive one.
    package var fileSize: Int64
    /// The blob's id, to tell whether a partial download is of the same blob.
    package var blobId: String?

    /// Creates a link.
    package init(url: URL, fileSize: Int64, blobId: String?) {
        self.url = url
        self.fileSize = fileSize
        self.blobId = blobId
    }
}

/// Downloads one blob (a package or a media file) into a `.part` file in the cache, continuing whatever
/// an earlier attempt or run left there.
///
/// The I/O shell of ``DownloadStateMachine``, which holds the rules (resume, 200 instead of 206, 416, link
/// renewal, retries, the size limit, a link without a valid size, a full disk): this type fetches links,
/// runs transfers, looks at the part and deletes it as the machine's actions say.
///
/// - The `ETag` is recorded beside the part as soon as the first bytes arrive, so a run that is killed
///   can be resumed by the next one.
/// - No transfer goes past the announced size: the transport stops at the first byte beyond it.
/// - Through a site cache, each transfer first asks the origin directly (`HEAD` on the signed URL) for the
///   blob's strong `ETag` and size, claims that `ETag` from the cache and accepts only an answer carrying it;
///   when the cache cannot be reached, ``BlobRoute`` decides whether the origin is used instead.
struct BlobDownloader: Sendable {
    /// Fresh links fetched in a row without any byte arriving in between, before giving up.
    static let maxLinkRenewals = DownloadStateMachine.maxLinkRenewals

    let transport: any HTTPTransport
    let retrier: Retrier
    let logger: Logger?
    /// The site cache blobs are fetched through, if any, with the run's fallback state.
    var route: BlobRoute? = nil

    /// Downloads the blob `link` names into `partPath`.
    ///
    /// - Parameters:
    ///   - subject: what is downloaded, for messages (`the package of presentation 101`).
    ///   - partPath: the partial file in the cache; complete when this returns.
    ///   - link: fetches a fresh signed link (called once at the start and after each 403).
    ///   - progress: called on the transport thread with the file's size and the link in use.
    /// - Returns: the body bytes received by this call (0 when the part was already complete).
    /// - Throws: ``SyncError`` (`.downloadFailed`, `.badPackage` also for a link without a positive size),
    ///   what `link` throws, `CancellationError`.
    func download(
        _ subject: String, to partPath: String, link: @Sendable () async throws -> BlobLink,
        progress: @escaping @Sendable (DownloadProgress, BlobLink) -> Void
    ) async throws -> Int64 {
        var machine = DownloadStateMachine()
        var action = DownloadStateMachine.start
        // The last failure, for the retry policy, the log and the final error.
        var cause: (any Error)?
        while true {
            let event: DownloadStateMachine.Event
            switch action {
            case .renewLink:
                if let cause { logger?.debug("\(subject): \(Self.summary(of: cause)); fetching a fresh download link") }
                event = .linked(try await link())
            case .fetch(let current, let offset, let validator):
                (event, cause) = try await fetch(
                    current, subject, into: partPath, from: offset, ifRange: validator, progress, cause)
            case .restart:
                PackageCache.removePart(partPath)
                event = .partRemoved
            case .backOff(let attempt):
                event = .backedOff(retried: try await backOff(after: cause, attempt: attempt, subject, partPath))
            case .done:
                unlink(PackageCache.resumeRecordPath(forPart: partPath))
                return machine.received
            case .fail(let failure):
                if failure.dropsPart { PackageCache.removePart(partPath) }
                throw Self.error(failure, subject: subject, cause: cause, detail: route?.failureDetail)
            }
            action = machine.handle(event, part: Self.inspect(partPath))
        }
    }

    /// One transfer, as the machine's event, with the failure that ended it (else `cause` unchanged).
    ///
    /// - Throws: `CancellationError` and any error that is neither an HTTP nor a storage failure.
    private func fetch(
        _ link: BlobLink, _ subject: String, into partPath: String, from offset: Int64, ifRange validator: String?,
        _ progress: @escaping @Sendable (DownloadProgress, BlobLink) -> Void, _ cause: (any Error)?
    ) async throws -> (DownloadStateMachine.Event, (any Error)?) {
        do {
            let from = Transfer(link: link, partPath: partPath, offset: offset, validator: validator)
            let result = try await routed(from, subject, progress)
            return (
                .transferred(result.outcome, fileBytes: result.fileBytes, receivedBytes: result.receivedBytes), cause
            )
        } catch let error as HTTPError {
            return (.transferFailed(status: error.status, budgetExceeded: error.code == .budgetExceeded), error)
        } catch let error as SCLMError {
            return (.writeFailed(outOfSpace: FileSystem.isOutOfSpace(error.systemError)), error)
        }
    }

    /// The part on disk: its size and resume record.
    static func inspect(_ partPath: String) -> DownloadStateMachine.Part {
        DownloadStateMachine.Part(size: FileSystem.size(of: partPath), record: ResumeRecord.load(forPart: partPath))
    }

    /// Asks the retry policy about `cause` (sleeping its pause) and logs the retry.
    private func backOff(after cause: (any Error)?, attempt: Int, _ subject: String, _ partPath: String) async throws
        -> Bool
    {
        guard let cause else { return false }
        return try await retrier.backOff(after: cause, attempt: attempt, idempotent: true) { _, _, pause in
            logger?.warning(
                "\(subject): \(Self.summary(of: cause)); resuming at byte \(FileSystem.size(of: partPath) ?? 0) in \(pause.shortDescription)"
            )
        }
    }

    private static func summary(of error: any Error) -> String {
        (error as? HTTPError)?.summary ?? error.userMessage
    }

    /// One transfer's parameters.
    private struct Transfer {
        var link: BlobLink
        var partPath: String
        var offset: Int64
        var validator: String?
    }

    /// Runs `transfer` through the site cache, falling back to the origin when the route allows, or straight
    /// from the origin without a cache.
    private func routed(
        _ transfer: Transfer, _ subject: String, _ progress: @escaping @Sendable (DownloadProgress, BlobLink) -> Void
    ) async throws -> DownloadResult {
        guard let route, try await !route.isDirect() else {
            return try await self.transfer(HTTPRequest(url: transfer.link.url), transfer, progress)
        }
        // The origin's answer: its failures are handled as those of any transfer, never as the cache's.
        let origin = try await OriginProbe.probe(transfer.link, transport: transport, subject: subject)
        do {
            return try await throughCache(route.proxy, claiming: origin, transfer, subject, progress)
        } catch let error as HTTPError where BlobProxy.isCacheFailure(error) {
            try await route.fallBack(after: error, subject: subject)
            logger?.debug("\(subject): \(route.fallbackNotice ?? error.summary)")
            return try await self.transfer(HTTPRequest(url: transfer.link.url), transfer, progress)
        }
    }

    /// Fetches the blob from `proxy` claiming the origin's `ETag` (from ``OriginProbe``). A blob without a
    /// strong `ETag` is fetched from the origin: the cache could not verify what it stores.
    ///
    /// - Throws: ``SyncError`` (`.badPackage`) when the cache answers with another `ETag` (the part is
    ///   dropped); what the transfers throw.
    private func throughCache(
        _ proxy: BlobProxy, claiming origin: String?, _ transfer: Transfer, _ subject: String,
        _ progress: @escaping @Sendable (DownloadProgress, BlobLink) -> Void
    ) async throws -> DownloadResult {
        guard let tag = origin, let request = proxy.request(for: transfer.link.url, entityTag: tag) else {
            return try await self.transfer(HTTPRequest(url: transfer.link.url), transfer, progress)
        }
        let result = try await self.transfer(request, transfer, progress)
        if case .rangeNotSatisfiable = result.outcome { return result }
        guard result.entityTag == tag else {
            PackageCache.removePart(transfer.partPath)
            throw SyncError(
                .badPackage, subject: subject,
                detail:
                    "the site cache sync.blobProxy sent another version (ETag \(result.entityTag ?? "none")) than the "
                    + "origin holds (\(tag)); the bytes were discarded: check the cache's configuration")
        }
        return result
    }

    private func transfer(
        _ http: HTTPRequest, _ transfer: Transfer, _ progress: @escaping @Sendable (DownloadProgress, BlobLink) -> Void
    ) async throws -> DownloadResult {
        let (link, partPath) = (transfer.link, transfer.partPath)
        let request = DownloadRequest(
            http, to: partPath, resumeOffset: transfer.offset, ifRange: transfer.validator, maxFileBytes: link.fileSize)
        let recorded = Mutex<String?>(transfer.validator)
        let logger = self.logger
        return try await transport.download(request) { update in
            if let tag = update.entityTag, recorded.withLock({ $0 }) != tag {
                recorded.withLock { $0 = tag }
                do {
                    try ResumeRecord(blobId: link.blobId, fileSize: link.fileSize, entityTag: tag).save(
                        forPart: partPath)
                } catch {
                    logger?.debug("cannot record how to resume \(partPath): \(error.userMessage)")
                }
            }
            progress(update, link)
        }
    }

    /// The error a download that gives up for `failure` throws.
    ///
    /// `detail` (the site cache that could not be reached either) is added to a failed transfer's error.
    static func error(
        _ failure: DownloadStateMachine.Failure, subject: String, cause: (any Error)?, detail: String? = nil
    ) -> SyncError {
        switch failure {
        case .noValidSize:
            SyncError(
                .badPackage, subject: subject,
                detail:
                    "the server gave no valid size for it (fileSize must be a positive number); nothing was downloaded")
        case .oversize(let announced):
            SyncError(
                .badPackage, subject: subject,
                detail:
                    "the server sent more than the \(announced) bytes it announced; the transfer was stopped there and discarded"
            )
        case .sizeMismatch(let got, let announced):
            SyncError(
                .badPackage, subject: subject,
                detail:
                    "the server sent \(got) bytes but announced \(announced); the download was discarded, run `sclm sync` again"
            )
        case .gaveUp:
            SyncError(.downloadFailed, subject: subject, cause: cause, detail: detail)
        case .writeFailed:
            SyncError(.downloadFailed, subject: subject, cause: cause)
        }
    }
}
