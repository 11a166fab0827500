import Foundation
import SCLMHTTP
import Synchronization

/// A scripted ``HTTPTransport``: a handler answers each request; every request is recorded.
public final class FakeTransport: HTTPTransport {
    /// Answers one request.
    public typealias Handler = @Sendable (HTTPRequest) async throws -> HTTPResponse

    private let handler: Handler
    private let recorded = Mutex<[HTTPRequest]>([])

    /// Creates a transport answering with `handler`.
    public init(_ handler: @escaping Handler) { self.handler = handler }

    /// Every request sent so far, in order.
    public var requests: [HTTPRequest] { recorded.withLock { $0 } }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        recorded.withLock { $0.append(request) }
        return try await handler(request)
    }

    /// Downloads are answered by writing the handler's body to the destination as a 200.
    public func download(_ request: DownloadRequest, progress: (@Sendable (DownloadProgress) -> Void)?) async throws
        -> DownloadResult
    {
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
    public static func json(_ text: String, status: Int = 200, to request: HTTPRequest, headers: HTTPHeaders = [:])
        -> HTTPResponse
    {
        var fields = headers
        fields.set(name: "Content-Type", value: "application/json")
        return HTTPResponse(status: status, headers: fields, body: Data(text.utf8), url: request.url)
    }
}
