import Foundation
import SCLMCore
import SCLMHTTP
import SCLMTestSupport
import Synchronization
import Testing

/// ``CurlTransport/download(_:progress:)`` against the dev-server's blob routes: full, resumed (206),
/// restarted (200 after If-Range), 416, dropped, cancelled, over budget, expired signature.
@Suite(.tags(.medium), .timeLimit(.minutes(1))) struct DownloadTests {
    static let presentationId: Int64 = 10001
    let server: DevServer
    let folder = TemporaryDirectory()
    let transport = CurlTransport()

    init() throws {
        server = try DevServer([
            "--synthetic-clients", "1", "--synthetic-presentations", "1", "--synthetic-size", "4M", "--quiet",
        ])
    }

    private var partPath: String { folder.appending("package.zip.part") }

    /// The package URL, its size and its exact bytes (fetched once in memory for comparison).
    private func package() async throws -> (url: URL, size: Int64, bytes: Data, etag: String) {
        let (url, size) = try await server.package(of: DownloadTests.presentationId)
        let whole = try await transport.send(HTTPRequest(url: url))
        #expect(whole.status == 200)
        return (url, size, whole.body, try #require(whole.headers["ETag"]))
    }

    private func fileBytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: partPath)) }

    @Test func downloadsAWholePackageWithProgress() async throws {
        let (url, size, bytes, etag) = try await package()
        let reports = Mutex<[DownloadProgress]>([])
        let result = try await transport.download(DownloadRequest(HTTPRequest(url: url), to: partPath)) { progress in
            reports.withLock { $0.append(progress) }
        }
        #expect(result.outcome == .complete)
        #expect(result.status == 200)
        #expect(result.fileBytes == size)
        #expect(result.entityTag == etag)
        #expect(try fileBytes() == bytes)
        #expect(FileSystem.mode(of: partPath) == 0o600)
        let last = try #require(reports.withLock { $0.last })
        #expect(last.fileBytes == size && last.expectedFileBytes == size)
        #expect(reports.withLock { $0.map(\.fileBytes) } == reports.withLock { $0.map(\.fileBytes).sorted() })
    }

    @Test func resumesAPartialFileWithARange() async throws {
        let (url, size, bytes, etag) = try await package()
        try bytes.prefix(1_000_000).write(to: URL(fileURLWithPath: partPath))
        let request = DownloadRequest(HTTPRequest(url: url), to: partPath, resumeOffset: 1_000_000, ifRange: etag)
        let result = try await transport.download(request, progress: nil)
        #expect(result.outcome == .resumed)
        #expect(result.status == 206)
        #expect(result.receivedBytes == size - 1_000_000)
        #expect(try fileBytes() == bytes)
    }

    @Test func startsOverInTheSameRequestWhenTheResourceChanged() async throws {
        let (url, size, bytes, _) = try await package()
        try Data(repeating: 0x55, count: 1_500_000).write(to: URL(fileURLWithPath: partPath))
        let request = DownloadRequest(
            HTTPRequest(url: url), to: partPath, resumeOffset: 1_500_000, ifRange: "\"stale\"")
        let result = try await transport.download(request, progress: nil)
        #expect(result.outcome == .restarted)
        #expect(result.fileBytes == size)
        #expect(try fileBytes() == bytes)
    }

    @Test func reports416ForAFileThatIsAlreadyComplete() async throws {
        let (url, size, bytes, etag) = try await package()
        try bytes.write(to: URL(fileURLWithPath: partPath))
        let request = DownloadRequest(HTTPRequest(url: url), to: partPath, resumeOffset: size, ifRange: etag)
        let result = try await transport.download(request, progress: nil)
        #expect(result.outcome == .rangeNotSatisfiable(size: size))
        #expect(try fileBytes() == bytes)
    }

    @Test func aDroppedConnectionKeepsWhatArrivedForAResume() async throws {
        let (url, _, bytes, etag) = try await package()
        try await server.control(["action": "drop", "afterBytes": 1_000_000, "path": "/blobs/packages/"])
        let error = try await #require(throws: HTTPError.self) {
            try await transport.download(DownloadRequest(HTTPRequest(url: url), to: partPath), progress: nil)
        }
        #expect(error.code == .connectionLost)
        #expect(RetryPolicy.isRetryable(error, method: .get))
        let kept = try fileBytes()
        #expect(kept.count == 1_000_000)
        let resumed = try await transport.download(
            DownloadRequest(HTTPRequest(url: url), to: partPath, resumeOffset: Int64(kept.count), ifRange: etag),
            progress: nil)
        #expect(resumed.outcome == .resumed)
        #expect(try fileBytes() == bytes)
    }

    @Test func cancellingAStalledDownloadStopsPromptly() async throws {
        let (url, _) = try await server.package(of: DownloadTests.presentationId)
        try await server.control(["action": "stall", "seconds": 120, "afterBytes": 65536, "path": "/blobs/packages/"])
        let arrived = Mutex(Int64(0))
        let transport = self.transport
        let path = partPath
        let task = Task {
            try await transport.download(DownloadRequest(HTTPRequest(url: url), to: path)) { progress in
                arrived.withLock { $0 = progress.fileBytes }
            }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while arrived.withLock({ $0 }) < 65536, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        task.cancel()
        // The stall outlasts the suite's one-minute limit: a download that ignored the cancel fails the test.
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try fileBytes().count == 65536)
    }

    @Test func refusesAPackageLargerThanTheBudget() async throws {
        let (url, size) = try await server.package(of: DownloadTests.presentationId)
        let request = DownloadRequest(HTTPRequest(url: url), to: partPath, maxFileBytes: size - 1)
        let error = try await #require(throws: HTTPError.self) { try await transport.download(request, progress: nil) }
        #expect(error.code == .budgetExceeded)
        #expect(try fileBytes().count < size)
    }

    @Test func anExpiredSignatureIsA403WithTheServersReasonAndWritesNothing() async throws {
        let (url, _) = try await server.package(of: DownloadTests.presentationId)
        try await server.control(["action": "expireSas"])
        let error = try await #require(throws: HTTPError.self) {
            try await transport.download(DownloadRequest(HTTPRequest(url: url), to: partPath), progress: nil)
        }
        #expect(error.status == 403)
        #expect(error.detail == "AuthenticationFailed")
        #expect(!error.description.contains("sig="))
        #expect(try fileBytes().isEmpty)
    }
}
