import SCLMHTTP

/// The rules of one blob download as a state machine over values: given the `.part` file on disk and what
/// the last step gave (a fresh link, a finished or failed transfer, a pause), the next thing to do.
///
/// ``BlobDownloader`` is the I/O shell that performs each ``Action`` (fetch a link, transfer, delete the
/// part, sleep) and feeds the result back as an ``Event``; this type does no I/O, so every rule is tested
/// with tables of events.
///
/// - A link without a positive size is refused before any byte is fetched.
/// - A part is resumed (`Range` + `If-Range`) only when its ``ResumeRecord`` matches the link's blob and it
///   is not longer than the blob; otherwise the transfer starts at byte 0.
/// - 416 with the part at the blob's size means the part was already complete; any other 416 means the
///   part cannot be continued: it is deleted and fetched again, once.
/// - A finished transfer must leave exactly the announced size.
/// - A transfer that went past the announced size fails the blob (the part is dropped).
/// - A 403 (an expired link) or a 412 (the blob changed since a site cache's `ETag` was asked for) fetches a
///   fresh link, at most ``maxLinkRenewals`` times in a row without progress.
/// - Other transfer failures back off under the retry policy; a failure after progress counts as a first
///   attempt again (and resets the renewals), so a long download over a flaky link still finishes.
/// - A write that failed for lack of space fails the blob and drops the part; other write failures keep it.
package struct DownloadStateMachine: Sendable, Equatable {
    /// Fresh links fetched in a row without any byte arriving in between, before giving up.
    static let maxLinkRenewals = 3

    /// The `.part` file as it is on disk.
    package struct Part: Sendable, Equatable {
        /// Its size, or `nil` when there is no part.
        var size: Int64?
        /// The resume record beside it, when there is a readable one.
        var record: ResumeRecord?

        /// A part of `size` bytes (`nil`: none) with `record` beside it.
        package init(size: Int64?, record: ResumeRecord?) {
            self.size = size
            self.record = record
        }

        /// No part on disk.
        static let missing = Part(size: nil, record: nil)
    }

    /// What the last action gave.
    enum Event: Sendable, Equatable {
        /// A fresh signed link arrived.
        case linked(BlobLink)
        /// The transfer ended with an answer: how the server answered, the part's size and the body bytes.
        case transferred(DownloadResult.Outcome, fileBytes: Int64, receivedBytes: Int64)
        /// The transfer failed with an HTTP failure (its status, if one arrived; whether the body went past
        /// the size limit).
        case transferFailed(status: Int?, budgetExceeded: Bool)
        /// Writing the part failed (`outOfSpace`: `ENOSPC`, `EDQUOT`, `EFBIG`).
        case writeFailed(outOfSpace: Bool)
        /// The part was deleted after ``Action/restart``.
        case partRemoved
        /// The retry policy was asked after ``Action/backOff(attempt:)``: whether it allowed another attempt
        /// (having slept its pause).
        case backedOff(retried: Bool)
    }

    /// What the shell does next.
    enum Action: Sendable, Equatable {
        /// Fetch a fresh link (at the start and after a 403).
        case renewLink
        /// Transfer `link` into the part from byte `offset`, sending `If-Range: validator` when resuming.
        case fetch(BlobLink, from: Int64, ifRange: String?)
        /// Delete the part and its resume record, then report ``Event/partRemoved``.
        case restart
        /// Ask the retry policy whether attempt number `attempt`, which failed, may be repeated.
        case backOff(attempt: Int)
        /// The part is complete: drop its resume record and return ``received``.
        case done
        /// Give up.
        case fail(Failure)
    }

    /// Why a download gives up.
    enum Failure: Sendable, Equatable {
        /// The link announced no positive size; nothing was fetched.
        case noValidSize
        /// The server sent more than the `announced` bytes.
        case oversize(announced: Int64)
        /// The finished part holds `got` bytes, not the `announced` ones.
        case sizeMismatch(got: Int64, announced: Int64)
        /// The retry policy gave up after the last transfer failure.
        case gaveUp
        /// Writing the part failed; `outOfSpace` when the disk (or quota, or file size limit) is full.
        case writeFailed(outOfSpace: Bool)

        /// Whether the part (and its record) must be deleted: its bytes are wrong, or they hold space the home
        /// needs.
        var dropsPart: Bool {
            switch self {
            case .oversize, .sizeMismatch, .writeFailed(outOfSpace: true): true
            case .noValidSize, .gaveUp, .writeFailed(outOfSpace: false): false
            }
        }
    }

    /// The link in use, once one with a positive size arrived.
    private(set) var link: BlobLink?
    /// Where the transfer in flight (or the last one) started.
    private(set) var offset: Int64 = 0
    /// Body bytes gained by this download so far.
    private(set) var received: Int64 = 0
    /// The number of the next transfer attempt since the last progress, from 1.
    private(set) var attempt = 1
    /// Links renewed since the last progress.
    private(set) var renewals = 0
    /// Whether the part was already deleted once to start over.
    private(set) var restarted = false

    /// The first action: fetch a link.
    static let start = Action.renewLink

    /// The next action after `event`, with the part as it is on disk now.
    mutating func handle(_ event: Event, part: Part) -> Action {
        switch event {
        case .linked(let fresh):
            guard fresh.fileSize > 0 else { return .fail(.noValidSize) }
            link = fresh
            return fetch(part)
        case .transferred(let outcome, let fileBytes, let receivedBytes):
            received += receivedBytes
            return finish(outcome, fileBytes: fileBytes)
        case .transferFailed(let status, let budgetExceeded):
            countProgress(part)
            if budgetExceeded { return .fail(.oversize(announced: announced)) }
            if status == 403 || status == 412, renewals < Self.maxLinkRenewals {
                renewals += 1
                return .renewLink
            }
            return .backOff(attempt: attempt)
        case .writeFailed(let outOfSpace):
            return .fail(.writeFailed(outOfSpace: outOfSpace))
        case .partRemoved:
            return fetch(part)
        case .backedOff(let retried):
            guard retried else { return .fail(.gaveUp) }
            attempt += 1
            return fetch(part)
        }
    }

    /// Where a download of `link` can continue from `part`: its size and the validator to send, or (0, nil).
    package static func resumePoint(of part: Part, for link: BlobLink) -> (offset: Int64, validator: String?) {
        guard let size = part.size, size > 0, let record = part.record,
            record.matches(blobId: link.blobId, fileSize: link.fileSize), size <= link.fileSize
        else { return (0, nil) }
        return (size, record.entityTag)
    }

    // MARK: - Steps

    private var announced: Int64 { link?.fileSize ?? 0 }

    private mutating func fetch(_ part: Part) -> Action {
        guard let link else { return .renewLink }
        let (offset, validator) = Self.resumePoint(of: part, for: link)
        self.offset = offset
        return .fetch(link, from: offset, ifRange: validator)
    }

    private mutating func finish(_ outcome: DownloadResult.Outcome, fileBytes: Int64) -> Action {
        if case .rangeNotSatisfiable(let size) = outcome, size != fileBytes || size != announced {
            // The part is longer than the blob (or the server names no size): it cannot be continued,
            // only replaced.
            guard !restarted else { return .fail(.sizeMismatch(got: fileBytes, announced: announced)) }
            restarted = true
            return .restart
        }
        guard fileBytes == announced else { return .fail(.sizeMismatch(got: fileBytes, announced: announced)) }
        return .done
    }

    /// Counts the bytes a failed transfer left in the part; any progress starts the attempts afresh.
    private mutating func countProgress(_ part: Part) {
        let gained = max(0, (part.size ?? 0) - offset)
        received += gained
        if gained > 0 {
            attempt = 1
            renewals = 0
        }
    }
}
