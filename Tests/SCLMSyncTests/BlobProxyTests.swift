import Foundation
import SCLMHTTP
import SCLMSync
import SCLMTestSupport
import Testing

/// How `sync.blobProxy` maps a signed blob URL onto the site cache, the ETag header it sends, and which
/// failures count as the cache's own (those a sync falls back to the origin for).
@Suite(.tags(.small)) struct BlobProxyTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let base: String
        let blob: String
        let routed: String
        var testDescription: String { name }
    }

    static let cases = [
        Case(
            name: "an https blob host becomes the first path segment, the query is kept as sent",
            base: "http://cache.site:8080",
            blob: "https://acct.blob.core.windows.net/packages/a%20b.zip?se=1&sig=x%2Fy",
            routed: "http://cache.site:8080/acct.blob.core.windows.net/packages/a%20b.zip?se=1&sig=x%2Fy"),
        Case(
            name: "a port of the blob host is kept, a trailing slash of the base dropped",
            base: "http://127.0.0.1:9000/", blob: "http://127.0.0.1:4321/blobs/packages/abc?se=9&sig=00",
            routed: "http://127.0.0.1:9000/127.0.0.1:4321/blobs/packages/abc?se=9&sig=00"),
        Case(
            name: "a path prefix of the base is kept",
            base: "https://proxy.site/sclm", blob: "https://blobs.example/c/d",
            routed: "https://proxy.site/sclm/blobs.example/c/d"),
        Case(
            // Brackets are not allowed in a path, so they go percent-encoded; nginx matches the decoded path.
            name: "an IPv6 blob host keeps its brackets, percent-encoded",
            base: "http://cache:80", blob: "http://[::1]:8443/x?sig=1",
            routed: "http://cache:80/%5B::1%5D:8443/x?sig=1"),
    ]

    @Test(arguments: cases) func routesASignedURLThroughTheCache(_ test: Case) throws {
        let base = try #require(URL(string: test.base))
        let blob = try #require(URL(string: test.blob))
        let proxy = try #require(BlobProxy(base: base))
        #expect(proxy.route(blob)?.absoluteString == test.routed)
    }

    @Test(arguments: ["ftp://cache/", "http://cache/?q=1", "http://cache/#f", "file:///tmp"])
    func refusesABaseThatIsNotAPlainHTTPURL(_ text: String) throws {
        let base = try #require(URL(string: text))
        #expect(BlobProxy(base: base) == nil)
    }

    @Test func claimsTheOriginsETagTheCacheKeysOn() throws {
        let proxy = try #require(BlobProxy(base: URL(literal: "http://cache:8080")))
        let request = try #require(
            proxy.request(for: URL(literal: "https://blobs.example/p/1?sig=s"), entityTag: "\"0x8DC1\""))
        #expect(request.url.absoluteString == "http://cache:8080/blobs.example/p/1?sig=s")
        #expect(request.headers[BlobProxy.entityTagHeader] == "\"0x8DC1\"")
    }

    @Test(
        arguments: [
            (HTTPError.Code.connectFailed, nil, nil, true), (.timedOut, nil, nil, true), (.offline, nil, nil, true),
            (.status, 502, BlobProxy.ownFailureCode, true), (.status, 504, BlobProxy.ownFailureCode, true),
            (.status, 502, nil, false), (.status, 504, "ServerBusy", false), (.status, 403, nil, false),
            (.status, 404, nil, false), (.status, 503, BlobProxy.ownFailureCode, false),
            (.connectionLost, nil, nil, false),
            (.tls, nil, nil, false),
        ] as [(HTTPError.Code, Int?, String?, Bool)])
    func onlyTheCachesOwnFailuresAllowTheFallback(
        _ code: HTTPError.Code, _ status: Int?, _ detail: String?, _ expected: Bool
    ) {
        let error = HTTPError(
            code, method: .get, url: URL(literal: "http://cache:8080/b/p"), status: status, detail: detail)
        #expect(BlobProxy.isCacheFailure(error) == expected)
    }
}
