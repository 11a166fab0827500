import Foundation

/// One HTTP request: method, URL, headers, optional body and limits.
///
/// Requests are plain values; the transport adds `User-Agent`, `Accept-Encoding` and cookies. A request
/// never carries credentials in its URL: tokens go in headers, and SAS signatures in a query string are
/// never logged or shown (see ``Foundation/URL/redactedDescription``).
package struct HTTPRequest: Sendable, Equatable {
    /// The most response body bytes ``HTTPTransport/send(_:)`` keeps in memory by default (64 MiB).
    package static let defaultMaxResponseBytes = 64 << 20

    /// The method.
    package var method: HTTPMethod
    /// The absolute http or https URL.
    package var url: URL
    /// Header fields to send.
    package var headers: HTTPHeaders
    /// The request body, if any.
    package var body: Data?
    /// A limit on the whole exchange, for small API calls. `nil` leaves only the transport's connect
    /// timeout and stall detection, which is right for large downloads.
    package var timeout: Duration?
    /// The most body bytes accepted by ``HTTPTransport/send(_:)``; more fails the request.
    package var maxResponseBytes: Int

    /// Creates a request.
    package init(
        _ method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = [:], body: Data? = nil,
        timeout: Duration? = nil, maxResponseBytes: Int = HTTPRequest.defaultMaxResponseBytes
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
    }

    /// `METHOD host/path` without the query, safe for logs and messages.
    package var summary: String { "\(method) \(url.redactedDescription)" }
}
