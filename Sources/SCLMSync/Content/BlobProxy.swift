import Foundation
import SCLMHTTP

/// A site cache in front of the blob hosts (`sync.blobProxy`): a reverse proxy, such as the nginx of
/// `contrib/nginx/sclm-cache.conf`, that fetches each blob from its origin once for a whole fleet.
///
/// The mapping keeps everything of the signed URL but its scheme: `https://blobhost/path?sig` becomes
/// `BASE/blobhost/path?sig` (the blob host, with its port if it has one, is the first path segment under
/// the base's own path). The cache decides the scheme it uses towards the origin. Each request names, in
/// ``entityTagHeader``, the blob's strong `ETag` that sclm has just asked the origin for; the cache keys on it
/// with the path (never the query: the signature differs per request) and stores a response only when the
/// origin's own `ETag` equals it, so a key can only ever hold the origin's bytes for that `ETag`.
package struct BlobProxy: Sendable, Equatable {
    /// The header that carries the blob's `ETag`, as the origin gave it.
    package static let entityTagHeader = "X-SCLM-ETag"

    /// The cache's base URL (scheme, host, port, optional path prefix), without a trailing slash.
    package let base: URL

    /// Whether a blob may be fetched from its origin directly when the cache cannot be reached
    /// (`sync.blobProxyFallback`).
    package var fallbackAllowed: Bool
    /// The longest random pause before that first direct fetch (`sync.blobProxyFallbackDelay`), so a whole
    /// site does not hit its uplink at once.
    package var fallbackDelay: Duration

    /// A cache at `base`; `nil` unless it is an http(s) URL with a host and without a query or fragment.
    package init?(base: URL, fallbackAllowed: Bool = true, fallbackDelay: Duration = .zero) {
        guard base.isHTTP, base.host != nil, base.query == nil, base.fragment == nil,
            let trimmed = URL(string: String(base.absoluteString.trimmingSuffix("/")))
        else { return nil }
        self.base = trimmed
        self.fallbackAllowed = fallbackAllowed
        self.fallbackDelay = fallbackDelay
    }

    /// Where the cache serves `url`: `BASE/host[:port]/path?query`; `nil` for a URL without a host.
    package func route(_ url: URL) -> URL? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), let host = components.host,
            !host.isEmpty
        else { return nil }
        var authority = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        if let port = components.port { authority += ":\(port)" }
        var text = base.absoluteString + "/" + authority + components.percentEncodedPath
        if let query = components.percentEncodedQuery { text += "?" + query }
        return URL(string: text)
    }

    /// The GET of `url` through the cache, claiming the origin's `entityTag`; `nil` when `url` cannot be
    /// routed.
    package func request(for url: URL, entityTag: String) -> HTTPRequest? {
        guard let routed = route(url) else { return nil }
        var request = HTTPRequest(url: routed)
        request.headers.set(name: BlobProxy.entityTagHeader, value: entityTag)
        return request
    }

    /// The error code in the body of the cache's own 502 and 504 (`{"error":"SclmCacheOriginUnreachable"}`
    /// in `contrib/nginx/sclm-cache.conf`), which tells them from a 502 or 504 of the origin passed through.
    package static let ownFailureCode = "SclmCacheOriginUnreachable"

    /// Whether `error`, from a request to the cache, means the cache itself cannot serve: no connection, a
    /// time-out, or the cache's own 502/504 (it could not reach or hear from the origin, ``ownFailureCode``).
    /// Every other answer is the origin's, passed through (a 403 for an expired link, a 404, its own 502),
    /// and is handled as such.
    package static func isCacheFailure(_ error: HTTPError) -> Bool {
        switch error.code {
        case .offline, .connectFailed, .timedOut: true
        case .status: (error.status == 502 || error.status == 504) && error.detail == ownFailureCode
        default: false
        }
    }
}

extension String {
    /// The string without the trailing run of `character`s.
    fileprivate func trimmingSuffix(_ character: Character) -> Substring {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == character { end = index(before: end) }
        return self[..<end]
    }
}
