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
public struct BlobLink: Sendable, Equatable {
    /// The URL; its query carries the signature, so it is never logged or shown.
    public var url: URL
    /// The size the server announced; ``BlobDownloader`` refuses a link without a positive one.
    public var fileSize: Int64
    /// The blob's id, to tell whether a partial download is of the same blob.
    public var blobId: String?
    /// What changes whenever the blob's bytes do (`101-3`: presentation 101's package, revision 3), sent to a
    /// site cache (``BlobProxy``), which keys on it.
    public var revisionTag: String?

    /// Creates a link.
    public init(url: URL, fileSize: Int64, blobId: String?, revisionTag: String? = nil) {
        self.url = url
        self.fileSize = fileSize
        self.blobId = blobId
        self.revisionTag = revisionTag
    }
}

/// Downloads one blob (a package or a media file) into a `.part` file in the cache, continuing whatever
/// an earlier attempt or run left there.
///
/// - An existing part is resumed with `Range` + `If-Range` when its ``ResumeRecord`` matches the blob;
///   the server's 200 instead of 206 means the resource changed and the part is rewritten from byte 0 in
///   the same request; 416 with the part at full size means it was already complete.
/// - The `ETag` is recorded beside the part as soon as the first bytes arrive, so a run that is killed
///   can be resumed by the next one.
/// - A 403 (the signed URL expired, e.g. during a long download or before a resume) fetches a fresh link
///   and continues from the bytes on disk, at most ``maxLinkRenewals`` times in a row.
/// - A dropped connection, a stall or a 5xx is retried under the retry policy, resuming each time; any
///   progress resets the attempt count, so a long download over a flaky link still finishes.
/// - A link without a positive size is refused before any byte is fetched, and no transfer goes past the
///   announced size: the transfer stops at the first byte beyond it and the part is deleted.
/// - The finished part must have exactly the announced size; otherwise it is deleted and the blob fails.
/// - A write that fails for lack of space (`ENOSPC`, `EDQUOT`, `EFBIG`) deletes the part, so the home has
///   room again for the database and the next sync.
struct BlobDownloader: Sendable {
    /// Fresh links fetched in a row without any byte arriving in between, before giving up.
    static let maxLinkRenewals = 3

    let transport: any HTTPTransport
    let retrier: Retrier
    let logger: Logger?
    /// The site cache blobs are fetched through, if any.
    var blobProxy: BlobProxy? = nil

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
        var current = try await sizedLink(subject, link)
        var received: Int64 = 0
        var renewals = 0
        var attempt = 1
        var restarted = false
        while true {
            let (offset, validator) = resumePoint(partPath, for: current)
            do {
                let result = try await transfer(current, to: partPath, from: offset, ifRange: validator, progress)
                received += result.receivedBytes
                if case .rangeNotSatisfiable(let size) = result.outcome,
                    size != result.fileBytes || size != current.fileSize
                {
                    // The part is longer than the blob: it cannot be continued, only replaced.
                    guard !restarted else { throw sizeMismatch(subject, partPath, got: result.fileBytes, of: current) }
                    restarted = true
                    PackageCache.removePart(partPath)
                    continue
                }
                guard result.fileBytes == current.fileSize else {
                    throw sizeMismatch(subject, partPath, got: result.fileBytes, of: current)
                }
                unlink(PackageCache.resumeRecordPath(forPart: partPath))
                return received
            } catch let error as HTTPError {
                let gained = max(0, (FileSystem.size(of: partPath) ?? 0) - offset)
                received += gained
                if gained > 0 {
                    attempt = 1
                    renewals = 0
                }
                if error.code == .budgetExceeded { throw oversize(subject, partPath, of: current) }
                if error.status == 403, renewals < BlobDownloader.maxLinkRenewals {
                    renewals += 1
                    logger?.debug("\(subject): \(error.summary); fetching a fresh download link")
                    current = try await sizedLink(subject, link)
                    continue
                }
                let retried = try await retrier.backOff(after: error, attempt: attempt, idempotent: true) { _, _, pause in
                    logger?.warning(
                        "\(subject): \(error.summary); resuming at byte \(FileSystem.size(of: partPath) ?? 0) in \(pause.shortDescription)"
                    )
                }
                guard retried else { throw SyncError(.downloadFailed, subject: subject, cause: error) }
                attempt += 1
            } catch let error as SCLMError {
                if FileSystem.isOutOfSpace(error.systemError) { PackageCache.removePart(partPath) }
                throw SyncError(.downloadFailed, subject: subject, cause: error)
            }
        }
    }

    /// A fresh link from `link`, refused when it has no positive size: with no size to stop at, a broken
    /// or hostile server could fill the disk.
    private func sizedLink(_ subject: String, _ link: @Sendable () async throws -> BlobLink) async throws -> BlobLink {
        let fresh = try await link()
        guard fresh.fileSize > 0 else {
            throw SyncError(
                .badPackage, subject: subject,
                detail:
                    "the server gave no valid size for it (fileSize must be a positive number); nothing was downloaded"
            )
        }
        return fresh
    }

    /// Where a download of `link` can continue: the part's size and the validator to send, or (0, nil).
    private func resumePoint(_ partPath: String, for link: BlobLink) -> (offset: Int64, validator: String?) {
        guard let size = FileSystem.size(of: partPath), size > 0, let record = ResumeRecord.load(forPart: partPath),
            record.matches(blobId: link.blobId, fileSize: link.fileSize), size <= link.fileSize
        else { return (0, nil) }
        return (size, record.entityTag)
    }

    private func transfer(
        _ link: BlobLink, to partPath: String, from offset: Int64, ifRange validator: String?,
        _ progress: @escaping @Sendable (DownloadProgress, BlobLink) -> Void
    ) async throws -> DownloadResult {
        // Through a site cache, the request goes to the cache with the revision it keys on.
        let http = blobProxy?.request(for: link) ?? HTTPRequest(url: link.url)
        let request = DownloadRequest(
            http, to: partPath, resumeOffset: offset, ifRange: validator, maxFileBytes: link.fileSize)
        let recorded = Mutex<String?>(validator)
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

    private func oversize(_ subject: String, _ partPath: String, of link: BlobLink) -> SyncError {
        PackageCache.removePart(partPath)
        return SyncError(
            .badPackage, subject: subject,
            detail:
                "the server sent more than the \(link.fileSize) bytes it announced; the transfer was stopped there and discarded"
        )
    }

    private func sizeMismatch(_ subject: String, _ partPath: String, got size: Int64, of link: BlobLink) -> SyncError {
        PackageCache.removePart(partPath)
        return SyncError(
            .badPackage, subject: subject,
            detail:
                "the server sent \(size) bytes but announced \(link.fileSize); the download was discarded, run `sclm sync` again"
        )
    }
}
