import Foundation
import SCLMCore
import SCLMHTTP
import SCLMTestSupport
import Synchronization
import Testing

@testable import SCLMSync

/// A download through a site cache: the origin's `ETag` asked first and claimed from the cache, an answer
/// with another `ETag` refused, the fallback to the origin when the cache cannot be reached (or its refusal).
@Suite(.tags(.medium)) struct BlobDownloaderCacheTests {
    /// The origin answers `HEAD` with `originTag` and `originSize`; each download runs the step for its host
    /// (`cache` or the origin's).
    final class SiteTransport: HTTPTransport {
        typealias Step = BlobDownloaderTests.ScriptedTransport.Step
        let originTag: String
        let originSize: Int
        private let cacheStep: Step
        let heads = Mutex<[URL]>([])
        let downloads = Mutex<[HTTPRequest]>([])

        init(originTag: String = BlobDownloaderTests.tag, originSize: Int = 1000, cache: @escaping Step) {
            self.originTag = originTag
            self.originSize = originSize
            self.cacheStep = cache
        }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            heads.withLock { $0.append(request.url) }
            #expect(request.method == .head)
            return HTTPResponse(
                status: 200, headers: ["ETag": originTag, "Content-Length": String(originSize)], url: request.url)
        }

        func download(_ request: DownloadRequest, progress: (@Sendable (DownloadProgress) -> Void)?) async throws
            -> DownloadResult
        {
            downloads.withLock { $0.append(request.request) }
            let step = request.request.url.host == "cache" ? cacheStep : BlobDownloaderTests.serve()
            return try step(request, progress)
        }
    }

    let folder = TemporaryDirectory()
    var part: String { folder.appending("101_rev4.zip.part") }

    func download(_ transport: SiteTransport, route: BlobRoute) async throws -> Int64 {
        let downloader = BlobDownloader(
            transport: transport, retrier: Retrier(policy: RetryPolicy(maxAttempts: 2), sleep: { _ in }), logger: nil,
            route: route)
        return try await downloader.download(
            "the package of presentation 101", to: part, link: { BlobDownloaderTests.link() }
        ) { _, _ in }
    }

    func route(fallback: Bool = true) throws -> BlobRoute {
        BlobRoute(proxy: try #require(BlobProxy(base: URL(literal: "http://cache:8080"), fallbackAllowed: fallback)))
    }

    @Test func asksTheOriginForItsETagAndClaimsItFromTheCache() async throws {
        let transport = SiteTransport(cache: BlobDownloaderTests.serve())
        let route = try route()
        #expect(try await download(transport, route: route) == 1000)
        #expect(transport.heads.withLock { $0.map(\.host) } == ["127.0.0.1"])
        let requests = transport.downloads.withLock { $0 }
        #expect(requests.map(\.url.host) == ["cache"])
        #expect(requests.first?.headers[BlobProxy.entityTagHeader] == BlobDownloaderTests.tag)
        #expect(route.fallbackNotice == nil)
    }

    @Test func anAnswerWithAnotherETagIsRefusedAndItsBytesDropped() async throws {
        let transport = SiteTransport(originTag: "\"etag-2\"", cache: BlobDownloaderTests.serve())
        let error = await #expect(throws: SyncError.self) { try await download(transport, route: try route()) }
        #expect(error?.code == .badPackage)
        #expect(error?.description.contains("the site cache sync.blobProxy sent another version") == true)
        #expect(!FileSystem.exists(part))
    }

    @Test func anOriginSizeOtherThanTheAnnouncedOneFetchesNothing() async throws {
        let transport = SiteTransport(originSize: 999, cache: BlobDownloaderTests.serve())
        let error = await #expect(throws: SyncError.self) { try await download(transport, route: try route()) }
        #expect(error?.description.contains("the origin holds 999 bytes but the server announced 1000") == true)
        #expect(transport.downloads.withLock { $0 }.isEmpty)
    }

    @Test(arguments: [
        HTTPError(.connectFailed, method: .get, url: URL(literal: "http://cache:8080/b")),
        HTTPError(
            .status, method: .get, url: URL(literal: "http://cache:8080/b"), status: 502,
            detail: BlobProxy.ownFailureCode),
    ])
    func aCacheThatCannotServeSendsTheRunToTheOrigin(_ failure: HTTPError) async throws {
        let transport = SiteTransport(cache: { _, _ in throw failure })
        let route = try route()
        #expect(try await download(transport, route: route) == 1000)
        #expect(transport.downloads.withLock { $0.map(\.url.host) } == ["cache", "127.0.0.1"])
        #expect(route.fallbackNotice?.contains("sync.blobProxy (cache:8080) could not be reached") == true)
        // The rest of the run goes to the origin at once.
        #expect(try await download(transport, route: route) == 1000)
        #expect(transport.downloads.withLock { $0.map(\.url.host) } == ["cache", "127.0.0.1", "127.0.0.1"])
    }

    @Test(arguments: [404, 502])
    func anOriginAnswerPassedThroughIsNotACacheFailure(_ status: Int) async throws {
        let passed = HTTPError(.status, method: .get, url: URL(literal: "http://cache:8080/b"), status: status)
        let transport = SiteTransport(cache: { _, _ in throw passed })
        let route = try route()
        await #expect(throws: SyncError.self) { try await download(transport, route: route) }
        #expect(route.fallbackNotice == nil)
        #expect(!transport.downloads.withLock { $0.map(\.url.host) }.contains("127.0.0.1"))
    }

    @Test func withTheFallbackForbiddenTheErrorNamesTheSettings() async throws {
        let down = HTTPError(.connectFailed, method: .get, url: URL(literal: "http://cache:8080/b"))
        let transport = SiteTransport(cache: { _, _ in throw down })
        let error = await #expect(throws: SyncError.self) {
            try await download(transport, route: try route(fallback: false))
        }
        #expect(error?.description.contains("sync.blobProxy (cache:8080) cannot be reached") == true)
        #expect(error?.description.contains("sync.blobProxyFallback is false") == true)
    }
}
