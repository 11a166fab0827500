import Foundation
import SCLMCore
import SCLMHTTP

/// A scripted answer to one download, written to the destination file with the semantics of the real
/// transport: the file is cut to the resume offset first; 206 appends, 200 rewrites from byte 0, 416
/// leaves the file alone, another status throws ``HTTPError`` with nothing written; no byte goes past
/// ``DownloadRequest/maxFileBytes`` (``HTTPError/Code/budgetExceeded``).
package struct FakeDownload: Sendable {
    /// The status (200, 206, 416, or another that fails the transfer).
    package var status: Int
    /// The response headers (`ETag`, `Content-Range` for a 416).
    package var headers: HTTPHeaders
    /// The body (for a 206, the bytes from the resume offset on).
    package var body: Data
    /// Bytes of the body written before ``interruption`` is thrown (`nil`: the whole body, no failure).
    package var bytesBeforeInterruption: Int?
    /// Thrown once ``bytesBeforeInterruption`` bytes are written (a dropped connection, a full disk…).
    package var interruption: (any Error)?
    /// Awaited once the bytes are written, before the transfer ends (a test blocks here to cancel).
    package var pause: (@Sendable () async throws -> Void)?

    /// Creates an answer.
    package init(
        status: Int, headers: HTTPHeaders = [:], body: Data = Data(), bytesBeforeInterruption: Int? = nil,
        interruption: (any Error)? = nil, pause: (@Sendable () async throws -> Void)? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.bytesBeforeInterruption = bytesBeforeInterruption
        self.interruption = interruption
        self.pause = pause
    }

    /// Writes the answer to `request`'s file and returns what the transport would.
    ///
    /// - Throws: ``HTTPError`` (a failing status, the size limit), `SCLMError` (`.storage`), ``interruption``,
    ///   what ``pause`` throws.
    func write(for request: DownloadRequest, progress: (@Sendable (DownloadProgress) -> Void)?) async throws
        -> DownloadResult
    {
        let url = request.request.url
        let handle = try Self.open(request.destinationPath, cutTo: request.resumeOffset)
        defer { try? handle.close() }
        let outcome: DownloadResult.Outcome
        switch status {
        case 206: outcome = .resumed
        case 200:
            outcome = request.resumeOffset > 0 ? .restarted : .complete
            try handle.truncate(atOffset: 0)
            try handle.seek(toOffset: 0)
        case 416:
            let total = headers["Content-Range"]?.split(separator: "/").last.flatMap { Int64($0) }
            return DownloadResult(
                outcome: .rangeNotSatisfiable(size: total), status: 416, headers: headers,
                fileBytes: request.resumeOffset, receivedBytes: 0)
        default:
            throw HTTPError(.status, method: .get, url: url, status: status, detail: "scripted failure")
        }
        let start = Int64(try handle.offset())
        var bytes = body.prefix(bytesBeforeInterruption ?? body.count)
        let overflow = request.maxFileBytes.map { start + Int64(bytes.count) > $0 } ?? false
        if let limit = request.maxFileBytes, overflow { bytes = bytes.prefix(Int(max(0, limit - start))) }
        try handle.write(contentsOf: bytes)
        let size = start + Int64(bytes.count)
        progress?(
            DownloadProgress(
                fileBytes: size, expectedFileBytes: start + Int64(body.count), receivedBytes: Int64(bytes.count),
                entityTag: headers["ETag"]))
        try await pause?()
        if overflow { throw HTTPError(.budgetExceeded, method: .get, url: url, detail: "more than expected") }
        if let interruption { throw interruption }
        return DownloadResult(
            outcome: outcome, status: status, headers: headers, fileBytes: size, receivedBytes: Int64(bytes.count))
    }

    /// Opens (creating) `path` for writing at `offset`, after cutting it there.
    private static func open(_ path: String, cutTo offset: Int64) throws -> FileHandle {
        if !FileSystem.exists(path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw SCLMError(.storage, "cannot create \(path)")
            }
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        guard (FileSystem.size(of: path) ?? 0) >= offset else {
            try? handle.close()
            throw SCLMError(.storage, "cannot resume \(path) at byte \(offset)")
        }
        try handle.truncate(atOffset: UInt64(offset))
        try handle.seek(toOffset: UInt64(offset))
        return handle
    }
}
