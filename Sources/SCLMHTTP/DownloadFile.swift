import Foundation
import SCLMCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The destination file of one download, written straight from libcurl's buffer on the transport thread.
///
/// Opened and cut to the resume offset before the transfer starts; what the final response's status
/// means for the file (append, start over, leave alone) is decided at its first body byte.
final class DownloadFile {
    let path: String
    let resumeOffset: Int64
    let maxBytes: Int64?
    private let method: HTTPMethod
    private let url: URL
    private var descriptor: Int32
    /// Bytes in the file now.
    private(set) var size: Int64
    /// Body bytes written by this transfer.
    private(set) var received: Int64 = 0
    /// The size the file will reach, once the response announced its length.
    private(set) var expectedSize: Int64?
    /// How the server answered, once known.
    private(set) var outcome: DownloadResult.Outcome?
    /// The `ETag` of the response whose body is written, once known.
    private(set) var entityTag: String?

    /// Opens (creating with mode 0600) `request.destinationPath` and cuts it to the resume offset.
    ///
    /// - Throws: `SCLMError` (`.storage`) when the file cannot be opened or is shorter than the offset.
    init(_ request: DownloadRequest) throws {
        path = request.destinationPath
        resumeOffset = max(0, request.resumeOffset)
        maxBytes = request.maxFileBytes
        method = request.request.method
        url = request.request.url
        descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileSystem.storageError("open \(path) for writing", errno: errno) }
        size = resumeOffset
        do {
            var info = stat()
            if fstat(descriptor, &info) != 0 { throw fail("inspect \(path)") }
            if Int64(info.st_size) < resumeOffset {
                throw SCLMError(
                    .storage,
                    "cannot resume \(path) at byte \(resumeOffset): it holds only \(info.st_size) bytes; delete it to start over"
                )
            }
            try cut(to: resumeOffset)
        } catch {
            closeFile()
            throw error
        }
    }

    deinit { closeFile() }

    /// Decides where the body of the final response goes.
    ///
    /// - Returns: whether the body is the resource's content (to be written to the file).
    /// - Throws: ``HTTPError`` for a 206 that does not start at the offset asked for, or a body announced
    ///   larger than ``maxBytes``; `SCLMError` when the file cannot be cut.
    func begin(status: Int, headers: HTTPHeaders, contentLength: Int64?) throws -> Bool {
        switch status {
        case 206:
            let range = ContentRange(headers["Content-Range"])
            guard let start = range?.start, start == resumeOffset else {
                throw HTTPError(
                    .badResponse, method: method, url: url, status: status,
                    detail: "a partial answer that does not start at byte \(resumeOffset)")
            }
            outcome = .resumed
        case 200:
            if resumeOffset > 0 {
                try cut(to: 0)
                outcome = .restarted
            } else {
                outcome = .complete
            }
        case 416:
            outcome = .rangeNotSatisfiable(size: ContentRange(headers["Content-Range"])?.total)
            return false
        default:
            return false
        }
        entityTag = headers["ETag"]
        if let contentLength, contentLength >= 0 {
            // The server's number: added through Checked, so a length near 2^63 is refused, not a trap.
            guard let expected = Checked(size).plus(contentLength) else {
                throw HTTPError(
                    .badResponse, method: method, url: url, status: status,
                    detail: "a Content-Length of \(contentLength) bytes after byte \(size), past any file size")
            }
            expectedSize = expected.value
            try checkBudget(adding: contentLength)
        }
        return true
    }

    /// Appends `bytes` at the end of the file.
    ///
    /// - Throws: ``HTTPError`` (`.budgetExceeded`) past ``maxBytes``; `SCLMError` (`.storage`) when
    ///   writing fails (disk full, …).
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        try checkBudget(adding: Int64(bytes.count))
        let failure = FileSystem.writeAll(descriptor, bytes)
        guard failure == 0 else { throw FileSystem.storageError("write \(path)", errno: failure) }
        size += Int64(bytes.count)
        received += Int64(bytes.count)
    }

    /// Closes the file (idempotent).
    func closeFile() {
        guard descriptor >= 0 else { return }
        _ = close(descriptor)
        descriptor = -1
    }

    private func checkBudget(adding count: Int64) throws {
        guard let maxBytes else { return }
        if let total = Checked(size).plus(count), total.value <= maxBytes { return }
        throw HTTPError(
            .budgetExceeded, method: method, url: url, detail: "more than the expected \(maxBytes) bytes")
    }

    private func cut(to length: Int64) throws {
        guard ftruncate(descriptor, off_t(length)) == 0, lseek(descriptor, off_t(length), SEEK_SET) >= 0 else {
            throw fail("truncate \(path)")
        }
        size = length
    }

    private func fail(_ action: String) -> SCLMError {
        FileSystem.storageError(action, errno: errno)
    }
}

/// A parsed `Content-Range` header: `bytes first-last/total` or `bytes */total`.
package struct ContentRange: Equatable {
    /// The first byte of the part sent.
    package var start: Int64?
    /// The last byte of the part sent (inclusive).
    package var end: Int64?
    /// The size of the whole resource, when the server knows it.
    package var total: Int64?

    /// Parses `header`; `nil` when it is missing or not a byte range.
    package init?(_ header: String?) {
        guard let header, header.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = header.dropFirst("bytes ".count).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        total = Int64(parts[1])
        if parts[0] != "*" {
            let bounds = parts[0].split(separator: "-", maxSplits: 1)
            guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]) else { return nil }
            start = first
            end = last
        }
    }
}
