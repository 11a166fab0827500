import Foundation
import SCLMCore
import SCLMHTTP
import SCLMTestSupport
import Synchronization
import Testing

@testable import SCLMSync

/// Resuming, restarting, renewing and retrying one blob download, against a scripted transport.
@Suite(.tags(.medium)) struct BlobDownloaderTests {
    /// Answers each download with the next step of a script; `send` is not used by the downloader.
    final class ScriptedTransport: HTTPTransport {
        typealias Step = @Sendable (DownloadRequest, (@Sendable (DownloadProgress) -> Void)?) throws -> DownloadResult
        private let steps: Mutex<[Step]>
        let requests = Mutex<[DownloadRequest]>([])

        init(_ steps: [Step]) { self.steps = Mutex(steps) }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            throw HTTPError(.transport, method: .get, url: request.url)
        }

        func download(_ request: DownloadRequest, progress: (@Sendable (DownloadProgress) -> Void)?) async throws
            -> DownloadResult
        {
            requests.withLock { $0.append(request) }
            let step = steps.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            let next = try #require(step, "an unexpected extra download")
            return try next(request, progress)
        }
    }

    static let blob = ContentSample.bytes(1000)
    static let tag = "\"etag-1\""
    let folder = TemporaryDirectory()
    var part: String { folder.appending("101_rev4.zip.part") }

    static func link(_ number: Int = 1) -> BlobLink {
        BlobLink(
            url: URL(literal: "http://127.0.0.1:9/blobs/packages/b").appending(queryItems: [
                .init(name: "sig", value: "\(number)")
            ]),
            fileSize: 1000, blobId: "b")
    }

    /// Writes `blob[from..<to]` the way a 200 (from 0) or a 206 (from the resume offset) would, reporting the ETag.
    static func serve(upTo end: Int = 1000, then failure: HTTPError? = nil, status: Int? = nil)
        -> ScriptedTransport.Step
    {
        { request, progress in
            let start = status == 200 ? 0 : Int(request.resumeOffset)
            if !FileSystem.exists(request.destinationPath) {
                _ = FileManager.default.createFile(atPath: request.destinationPath, contents: nil)
            }
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: request.destinationPath))
            try handle.truncate(atOffset: UInt64(start))
            try handle.seekToEnd()
            try handle.write(contentsOf: blob[start..<end])
            try handle.close()
            progress?(
                DownloadProgress(
                    fileBytes: Int64(end), expectedFileBytes: 1000, receivedBytes: Int64(end - start), entityTag: tag))
            if let failure { throw failure }
            let code = status ?? (start > 0 ? 206 : 200)
            let outcome: DownloadResult.Outcome =
                code == 206 ? .resumed : start == 0 && request.resumeOffset > 0 ? .restarted : .complete
            return DownloadResult(
                outcome: outcome, status: code, headers: ["ETag": tag], fileBytes: Int64(end),
                receivedBytes: Int64(end - start))
        }
    }

    func downloader(_ transport: ScriptedTransport, attempts: Int = 3) -> BlobDownloader {
        BlobDownloader(
            transport: transport, retrier: Retrier(policy: RetryPolicy(maxAttempts: attempts), sleep: { _ in }),
            logger: nil)
    }

    func prepare(bytes count: Int, record: ResumeRecord?) throws {
        _ = FileManager.default.createFile(atPath: part, contents: Self.blob.prefix(count))
        try record?.save(forPart: part)
    }

    /// Counts the fresh links the downloader asks for.
    final class LinkCounter: Sendable {
        let count = Atomic(0)
    }

    func download(_ transport: ScriptedTransport, links: LinkCounter = LinkCounter(), attempts: Int = 3) async throws
        -> Int64
    {
        try await downloader(transport, attempts: attempts).download(
            "the package of presentation 101", to: part,
            link: { Self.link(links.count.add(1, ordering: .relaxed).newValue) }
        ) { _, _ in }
    }

    @Test func aFreshDownloadCompletesAndDropsItsResumeRecord() async throws {
        let transport = ScriptedTransport([Self.serve()])
        #expect(try await download(transport) == 1000)
        #expect(FileManager.default.contents(atPath: part) == Self.blob)
        #expect(!FileSystem.exists(PackageCache.resumeRecordPath(forPart: part)))
        #expect(transport.requests.withLock { $0.first?.resumeOffset } == 0)
        #expect(transport.requests.withLock { $0.first?.maxFileBytes } == 1000)
    }

    @Test func aPartWithAMatchingRecordIsResumedWithIfRange() async throws {
        try prepare(bytes: 400, record: ResumeRecord(blobId: "b", fileSize: 1000, entityTag: Self.tag))
        let transport = ScriptedTransport([Self.serve()])
        #expect(try await download(transport) == 600)
        #expect(FileManager.default.contents(atPath: part) == Self.blob)
        let request = try #require(transport.requests.withLock { $0.first })
        #expect(request.resumeOffset == 400 && request.ifRange == Self.tag)
    }

    @Test(arguments: [
        ResumeRecord(blobId: "other", fileSize: 1000, entityTag: "\"x\""),
        ResumeRecord(blobId: "b", fileSize: 999, entityTag: "\"x\""),
    ])
    func aPartOfAnotherBlobStartsOver(_ record: ResumeRecord) async throws {
        try prepare(bytes: 400, record: record)
        let transport = ScriptedTransport([Self.serve()])
        #expect(try await download(transport) == 1000)
        #expect(transport.requests.withLock { $0.first?.resumeOffset } == 0)
    }

    @Test func aPartWithoutARecordStartsOver() async throws {
        try prepare(bytes: 400, record: nil)
        let transport = ScriptedTransport([Self.serve()])
        _ = try await download(transport)
        #expect(transport.requests.withLock { $0.first?.resumeOffset } == 0)
    }

    @Test func aCompletePartAnswered416IsKept() async throws {
        try prepare(bytes: 1000, record: ResumeRecord(blobId: "b", fileSize: 1000, entityTag: Self.tag))
        let transport = ScriptedTransport([
            { _, _ in
                DownloadResult(
                    outcome: .rangeNotSatisfiable(size: 1000), status: 416, headers: [:], fileBytes: 1000,
                    receivedBytes: 0)
            }
        ])
        #expect(try await download(transport) == 0)
        #expect(FileManager.default.contents(atPath: part) == Self.blob)
    }

    @Test func anExpiredLinkIsRenewedAndTheDownloadContinuesWhereItWas() async throws {
        let expired = HTTPError(
            .status, method: .get, url: Self.link().url, status: 403, detail: "AuthenticationFailed")
        let transport = ScriptedTransport([Self.serve(upTo: 300, then: expired), Self.serve()])
        let links = LinkCounter()
        #expect(try await download(transport, links: links) == 1000)
        #expect(links.count.load(ordering: .relaxed) == 2)
        let second = try #require(transport.requests.withLock { $0.last })
        #expect(second.resumeOffset == 300 && second.ifRange == Self.tag)
        #expect(second.request.url == Self.link(2).url)
    }

    @Test func aLinkThatKeepsExpiringWithoutBytesIsRenewedOnlySoOften() async throws {
        let expired = HTTPError(
            .status, method: .get, url: Self.link().url, status: 403, detail: "AuthenticationFailed")
        let step: ScriptedTransport.Step = { _, _ in throw expired }
        let tries = 1 + BlobDownloader.maxLinkRenewals
        let transport = ScriptedTransport(Array(repeating: step, count: tries))
        let links = LinkCounter()
        let error = await #expect(throws: SyncError.self) { try await download(transport, links: links) }
        #expect(error?.code == .downloadFailed)
        #expect(transport.requests.withLock { $0.count } == tries)
        #expect(links.count.load(ordering: .relaxed) == tries)
    }

    @Test func aDroppedConnectionIsRetriedFromTheBytesOnDisk() async throws {
        let dropped = HTTPError(.connectionLost, method: .get, url: Self.link().url)
        // Each attempt makes progress, so three drops in a row do not exhaust two attempts.
        let transport = ScriptedTransport([
            Self.serve(upTo: 200, then: dropped), Self.serve(upTo: 500, then: dropped),
            Self.serve(upTo: 800, then: dropped),
            Self.serve(),
        ])
        #expect(try await download(transport, attempts: 2) == 1000)
        #expect(transport.requests.withLock { $0.map(\.resumeOffset) } == [0, 200, 500, 800])
        #expect(FileManager.default.contents(atPath: part) == Self.blob)
    }

    @Test func failuresWithoutProgressGiveUpAfterTheRetryBudget() async throws {
        let refused = HTTPError(.connectFailed, method: .get, url: Self.link().url)
        let step: ScriptedTransport.Step = { _, _ in throw refused }
        let transport = ScriptedTransport([step, step, step])
        let error = await #expect(throws: SyncError.self) { try await download(transport, attempts: 3) }
        #expect(error?.code == .downloadFailed)
        #expect(
            error?.description.hasPrefix("cannot download the package of presentation 101: cannot connect to") == true)
        #expect(transport.requests.withLock { $0.count } == 3)
    }

    @Test func aBodyOfTheWrongSizeIsDiscarded() async throws {
        let transport = ScriptedTransport([Self.serve(upTo: 900, status: 200)])
        let error = await #expect(throws: SyncError.self) { try await download(transport) }
        #expect(error?.code == .badPackage)
        #expect(error?.description.contains("the server sent 900 bytes but announced 1000") == true)
        #expect(!FileSystem.exists(part))
        #expect(!FileSystem.exists(PackageCache.resumeRecordPath(forPart: part)))
    }
}

/// Deterministic test bytes.
enum ContentSample {
    static func bytes(_ count: Int) -> Data { Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }) }
}
