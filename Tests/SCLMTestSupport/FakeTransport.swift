import Foundation
import SCLMHTTP
import Synchronization

/// A scripted ``HTTPTransport``: a handler answers each request; every request is recorded.
package final class FakeTransport: HTTPTransport {
    /// Answers one request.
    package typealias Handler = @Sendable (HTTPRequest) async throws -> HTTPResponse
    /// Answers one download, written to its file the way ``CurlTransport`` writes it (``FakeDownload``).
    package typealias DownloadHandler = @Sendable (DownloadRequest) async throws -> FakeDownload

    private let handler: Handler
    private let downloads: DownloadHandler?
    private let recorded = Mutex<[HTTPRequest]>([])
    private let recordedDownloads = Mutex<[DownloadRequest]>([])

    /// Creates a transport answering requests with `handler` and downloads with `downloads` (without it, a
    /// download writes `handler`'s body as a 200).
    package init(_ handler: @escaping Handler, downloads: DownloadHandler? = nil) {
        self.handler = handler
        self.downloads = downloads
    }

    /// Every request sent so far, in order (downloads answered by `handler` included).
    package var requests: [HTTPRequest] { recorded.withLock { $0 } }

    /// Every download answered by the download handler, in order.
    package var downloadRequests: [DownloadRequest] { recordedDownloads.withLock { $0 } }

    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        recorded.withLock { $0.append(request) }
        return try await handler(request)
    }

    /// Downloads are answered by writing the handler's body to the destination as a 200.
    package func download(_ request: DownloadRequest, progress: (@Sendable (DownloadProgress) -> Void)?) async throws
        -> DownloadResult
    {
        if let downloads {
            recordedDownloads.withLock { $0.append(request) }
            return try await downloads(request).write(for: request, progress: progress)
        }
        let response = try await send(request.request)
        try response.body.write(to: URL(fileURLWithPath: request.destinationPath))
        let size = Int64(response.body.count)
        progress?(DownloadProgress(fileBytes: size, expectedFileBytes: size, receivedBytes: size))
        return DownloadResult(
            outcome: .complete, status: response.status, headers: response.headers, fileBytes: size, receivedBytes: size
        )
    }
}

extension HTTPResponse {
    /// A JSON response to `request` with `status` (tests).
    package static func json(_ text: String, status: Int = 200, to request: HTTPRequest, headers: HTTPHeaders = [:])
        -> HTTPResponse
    {
        var fields = headers
        fields.set(name: "Content-Type", value: "application/json")
        return HTTPResponse(status: status, headers: fields, body: Data(text.utf8), url: request.url)
    }
}
