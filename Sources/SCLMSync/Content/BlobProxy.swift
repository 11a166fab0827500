import Foundation
import SCLMHTTP

/// A site cache in front of the blob hosts (`sync.blobProxy`): a reverse proxy, such as the nginx of
/// `contrib/nginx/sclm-cache.conf`, that fetches each blob from its origin once for a whole fleet.
///
/// The mapping keeps everything of the signed URL but its scheme: `https://blobhost/path?sig` becomes
/// `BASE/blobhost/path?sig` (the blob host, with its port if it has one, is the first path segment under
/// the base's own path). The cache decides the scheme it uses towards the origin. Each request names the
/// blob's revision in ``revisionHeader``, which the cache keys on with the path, never with the query: the
/// signature differs per request, the revision changes whenever the bytes do.
package struct BlobProxy: Sendable, Equatable {
    /// The header that carries ``BlobLink/revisionTag``.
    package static let revisionHeader = "X-SCLM-Revision"

    /// The cache's base URL (scheme, host, port, optional path prefix), without a trailing slash.
    package let base: URL

    /// A cache at `base`; `nil` unless it is an http(s) URL with a host and without a query or fragment.
    package init?(base: URL) {
        guard base.isHTTP, base.host != nil, base.query == nil, base.fragment == nil,
            let trimmed = URL(string: String(base.absoluteString.trimmingSuffix("/")))
        else { return nil }
        self.base = trimmed
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

    /// The GET of `link` through the cache, with its revision header; `nil` when `link` cannot be routed.
    package func request(for link: BlobLink) -> HTTPRequest? {
        guard let routed = route(link.url) else { return nil }
        var request = HTTPRequest(url: routed)
        if let tag = link.revisionTag { request.headers.set(name: BlobProxy.revisionHeader, value: tag) }
        return request
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
