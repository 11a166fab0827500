import Foundation
import SCLMArchive
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

/// The network half of a delta update: the new revision's central directory, then the changed entries'
/// bytes, each with a `Range` request of absolute offsets (Azure Blob Storage answers one range per request
/// and has no suffix form), through the site cache like full downloads (``BlobProxy``).
///
/// The first request asks for the package's tail, `bytes=S-` with `S` computed from the announced size, as a
/// download into the partial file (cut to `S` bytes first, so the tail lands at its own offsets): a server
/// that ignores `Range` answers 200, and that whole body is the full download, kept (``Start/whole``). Further
/// requests (the ZIP64 records or the central directory when the tail did not hold them, then the changed
/// entries' coalesced ranges, several at once within the job width) are held in memory, at most
/// ``DeltaPlan/maxRequest`` bytes each, and written at their offsets. Each must come back 206 with exactly
/// the range asked for, from the version of the blob the tail came from (the same `ETag`). A 403 fetches a fresh link (at most ``DownloadStateMachine/maxLinkRenewals`` times
/// in a row without progress), other failures are retried under the retry policy as full downloads are;
/// anything else that disagrees ends the delta path with a ``DeltaFallback``.
struct DeltaFetcher: Sendable {
    /// What the tail request gave.
    enum Start: Sendable {
        /// The tail, at its offsets in the partial file and in memory.
        case tail(FetchedRanges)
        /// The server ignored `Range`: the partial file holds the whole package (`received` bytes).
        case whole(received: Int64)
    }

    /// The tail asked for first: the end record with a comment of any length (64 KiB) and, for a package of
    /// up to about 400 entries, the whole directory.
    static let tailBytes: UInt64 = 96 << 10

    let transport: any HTTPTransport
    let retrier: Retrier
    let logger: Logger?
    /// The site cache and the run's fallback state, when `sync.blobProxy` is set.
    let route: BlobRoute?
    let links: LinkSource
    /// A running count of bytes received, shared by the requests in flight.
    final class Tally: Sendable {
        private let value = Mutex<Int64>(0)

        /// The count so far.
        var total: Int64 { value.withLock { $0 } }

        /// Adds `count`; returns the new total.
        func add(_ count: Int64) -> Int64 {
            value.withLock {
                $0 += count
                return $0
            }
        }
    }

    /// Bytes received so far (directory and entries), reported as they arrive.
    let fetched = Tally()
    /// The version of the blob every answer must come from, shared by the requests: the origin's `ETag` when
    /// a site cache is asked for it (``OriginProbe``), else the `ETag` of the tail's answer.
    final class Version: Sendable {
        private let value = Mutex<String?>(nil)

        /// The `ETag` claimed so far (`nil` before the first answer, or when the server sends none).
        var entityTag: String? { value.withLock { $0 } }

        /// Claims `tag` when no version is claimed yet; otherwise `tag` must be the claimed one.
        ///
        /// - Throws: ``DeltaFallback`` for another version.
        func check(_ tag: String?) throws {
            let claimed = value.withLock { current in
                if current == nil { current = tag }
                return current
            }
            guard claimed == nil || tag == claimed else {
                throw DeltaFallback(
                    "the package changed during the update (ETag \(tag ?? "none"), not \(claimed ?? ""))")
            }
        }
    }

    /// The version of the blob the tail came from.
    let version = Version()
    /// Called with the bytes received so far.
    let progress: @Sendable (Int64) -> Void

    /// The partial file to write into.
    let partialPath: String
    /// The package's announced size.
    let size: UInt64

    /// Fetches the package's tail into the partial file.
    ///
    /// - Throws: ``DeltaFallback``, `CancellationError`, what the link source throws.
    func start() async throws -> Start {
        let offset = size - min(size, Self.tailBytes)
        try cutPartial(to: offset)
        var attempt = 1
        while true {
            let link = try await links.current()
            let http = try await request(for: link)
            let request = DownloadRequest(
                http, to: partialPath, resumeOffset: Int64(offset), maxFileBytes: Int64(clamping: size))
            let progress = self.progress
            let fetched = self.fetched
            do {
                let result = try await transport.download(request) { update in
                    progress(fetched.total + update.receivedBytes)
                }
                add(result.receivedBytes)
                try version.check(result.entityTag)
                return try tail(of: result, from: offset)
            } catch let error as HTTPError {
                try await retry(after: error, attempt: &attempt, what: "the package's tail")
            }
        }
    }

    /// Fetches `range` and writes it at its offset in the partial file.
    ///
    /// - Returns: the bytes.
    /// - Throws: ``DeltaFallback``, `CancellationError`, what the link source throws.
    @discardableResult
    func fetch(_ range: DeltaPlan.ByteRange) async throws -> [UInt8] {
        var attempt = 1
        while true {
            let link = try await links.current()
            var request = try await request(for: link)
            request.headers.set(name: "Range", value: "bytes=\(range.start)-\(range.end - 1)")
            request.maxResponseBytes = Int(range.count)
            do {
                let response = try await transport.send(request)
                if response.status == 403 {
                    try await links.renew(after: link)
                    continue
                }
                let bytes = try check(response, for: range)
                try write(bytes, at: range.start)
                links.progressed()
                add(Int64(bytes.count))
                return bytes
            } catch let error as HTTPError {
                try await retry(after: error, attempt: &attempt, what: "bytes \(range.start)-\(range.end - 1)")
            }
        }
    }

    /// Writes `bytes` at `offset` of the partial file.
    ///
    /// - Throws: ``DeltaFallback`` when the file cannot be written.
    func write(_ bytes: [UInt8], at offset: UInt64) throws {
        let fd = open(partialPath, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DeltaFallback("cannot open \(partialPath): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes {
                pwrite(fd, $0.baseAddress?.advanced(by: done), bytes.count - done, off_t(offset) + off_t(done))
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                throw DeltaFallback("cannot write \(partialPath): \(String(cString: strerror(errno)))")
            }
            done += written
        }
    }

    // MARK: - Steps

    /// The GET of `link`: through the site cache, claiming the origin's `ETag` (asked once, with a `HEAD` on
    /// the origin), unless the run fell back to the origin or the blob has no strong `ETag`; else straight.
    ///
    /// - Throws: ``HTTPError`` from the origin's `HEAD`; ``DeltaFallback`` when the origin's size is not the
    ///   announced one.
    private func request(for link: BlobLink) async throws -> HTTPRequest {
        guard let route, try await !route.isDirect() else { return HTTPRequest(url: link.url) }
        var tag = version.entityTag
        if tag == nil {
            do {
                tag = try await OriginProbe.probe(link, transport: transport, subject: "the package")
            } catch let error as SyncError {
                throw DeltaFallback(error.userMessage)
            }
            try version.check(tag)
        }
        guard let tag, let request = route.proxy.request(for: link.url, entityTag: tag) else {
            return HTTPRequest(url: link.url)
        }
        return request
    }

    private func cutPartial(to offset: UInt64) throws {
        let fd = open(partialPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0, ftruncate(fd, off_t(offset)) == 0 else {
            if fd >= 0 { close(fd) }
            throw DeltaFallback("cannot create \(partialPath): \(String(cString: strerror(errno)))")
        }
        close(fd)
    }

    private func tail(of result: DownloadResult, from offset: UInt64) throws -> Start {
        switch result.outcome {
        case .complete, .restarted:
            guard result.fileBytes == Int64(clamping: size) else {
                throw DeltaFallback("the server sent \(result.fileBytes) bytes for a package of \(size)")
            }
            return .whole(received: result.receivedBytes)
        case .resumed:
            guard result.fileBytes == Int64(clamping: size) else {
                throw DeltaFallback("the package's tail ended at byte \(result.fileBytes), not \(size)")
            }
            var ranges = FetchedRanges(size: size)
            ranges.add(try read(offset..<size), at: offset)
            return .tail(ranges)
        case .rangeNotSatisfiable:
            throw DeltaFallback("the server refused the range of the package's tail (416)")
        }
    }

    /// The bytes of `range` of the partial file.
    private func read(_ range: Range<UInt64>) throws -> [UInt8] {
        let fd = open(partialPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DeltaFallback("cannot read \(partialPath)") }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: Int(range.count))
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(range.lowerBound)) }
        guard count == bytes.count else { throw DeltaFallback("cannot read \(partialPath)") }
        return bytes
    }

    /// The body of a response to `range`, which must be a 206 of exactly that range.
    private func check(_ response: HTTPResponse, for range: DeltaPlan.ByteRange) throws -> [UInt8] {
        let asked = "bytes \(range.start)-\(range.end - 1)"
        switch response.status {
        case 206:
            let answered = response.headers["Content-Range"] ?? "none"
            guard answered == "\(asked)/\(size)", UInt64(response.body.count) == range.count else {
                throw DeltaFallback("the server answered \(asked) with Content-Range \(answered)")
            }
            try version.check(response.headers["ETag"])
            return [UInt8](response.body)
        case 200:
            throw DeltaFallback("the server ignores Range (200 for \(asked))")
        default:
            throw HTTPError(response: response, method: .get)
        }
    }

    /// Sleeps before another attempt, or ends the delta path when the retry policy gives up.
    private func retry(after error: HTTPError, attempt: inout Int, what: String) async throws {
        if route != nil, BlobProxy.isCacheFailure(error) {
            // The full download decides whether the run falls back to the origin.
            throw DeltaFallback("the site cache failed for \(what): \(error.summary)")
        }
        if error.code == .budgetExceeded {
            throw DeltaFallback("the server sent more than asked for \(what) (it ignores Range)")
        }
        if error.status == 403, let link = try? await links.current() {
            try await links.renew(after: link)
            return
        }
        let retried = try await retrier.backOff(after: error, attempt: attempt, idempotent: true) { _, _, pause in
            logger?.debug("delta update, \(what): \(error.summary); retrying in \(pause.shortDescription)")
        }
        guard retried else { throw DeltaFallback("\(what) could not be fetched: \(error.summary)") }
        attempt += 1
    }

    private func add(_ count: Int64) {
        progress(fetched.add(count))
    }
}
