import Foundation
import SCLMAuth
import SCLMCore
import SCLMHTTP
import SCLMStore
import SCLMTestSupport
import Synchronization

@testable import SCLMSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A whole sync in the test process: a ``SyncManager`` over a temporary home, a fake StoryCLM server on
/// ``FakeTransport`` (client 1 with presentation 101 at revision 4, its package and media file 118) and a
/// ``FakeInstaller``. Downloads follow HTTP range rules unless a ``Fault`` is scripted for them.
final class SyncHarness: Sendable {
    /// What the next download of a blob does instead of an honest answer.
    enum Fault: Sendable {
        /// Writes `bytes` bytes, then the connection drops.
        case drop(after: Int)
        /// The signed link expired: 403.
        case expire
        /// Answers 200 with the whole blob although a range was asked for.
        case ignoreRange
        /// Writes `bytes` bytes, then the write fails with `errno`.
        case failWrite(after: Int, errno: Int32)
        /// Writes `bytes` bytes, then blocks until cancelled, after springing `trap`.
        case block(after: Int, Trap)
    }

    static let package = ContentSample.bytes(2000)
    static let media = Data(ContentSample.bytes(300).reversed())
    static let packageTag = "\"pkg-1\""
    static let mediaTag = "\"media-1\""
    static let apiURL = URL(literal: "http://api.test")

    let folder = TemporaryDirectory(prefix: "sclm-sync")
    let home: Home
    let store: ContentStore
    let installer = FakeInstaller()
    let transport: FakeTransport
    /// The sizes the API announces (the package's and the media file's), to script wrong or missing ones.
    let announced = Mutex((package: Int64(package.count), media: Int64(media.count)))
    /// The number of signed links handed out per blob, which numbers each `sas`.
    private let links = Mutex<[String: Int]>([:])
    private let faults = Mutex<[String: [Fault]]>([:])
    /// Sprung when the API is asked for presentation 101 (to cancel during the metadata phase).
    let metadataTrap = Mutex<Trap?>(nil)

    init() throws {
        home = Home(root: folder.appending("home"))
        try home.prepare()
        store = try ContentStore(path: home.databasePath)
        let state = Box()
        transport = FakeTransport(
            { request in try await state.harness?.answer(request) ?? HTTPResponse(status: 500, url: request.url) },
            downloads: { request in
                guard let harness = state.harness else { return FakeDownload(status: 500) }
                return try await harness.download(request)
            })
        state.set(self)
    }

    /// The manager under test; retries do not sleep.
    func manager() -> SyncManager {
        let retrier = Retrier(policy: RetryPolicy(maxAttempts: 3), sleep: { _ in })
        let tokens = MemoryTokens(
            StoredToken(
                grant: .clientCredentials, accessToken: "a1", expiresAt: Date().addingTimeInterval(3600),
                issuedAt: Date()))
        let endpoint = TokenEndpoint(
            authURL: URL(literal: "http://auth.test"), clientId: "c", clientSecret: "s", transport: transport,
            retrier: retrier)
        let session = AuthSession(endpoint: endpoint, store: tokens, transport: transport)
        return SyncManager(
            service: SyncService(apiURL: Self.apiURL, session: session, retrier: retrier), store: store, home: home,
            transport: transport, installer: installer, retrier: retrier, clock: ManualClock())
    }

    /// Scripts the next downloads of `blob` (`pkg` or `media`), in order.
    func script(_ blob: String, _ next: Fault...) { faults.withLock { $0[blob, default: []] += next } }

    /// Signed links handed out for `blob`.
    func linkCount(_ blob: String) -> Int { links.withLock { $0[blob] ?? 0 } }

    // MARK: - Where things are

    var packagePart: String { PackageCache(home: home).packagePartPath(presentationId: 101, revision: 4) }
    var packageZip: String { PackageCache(home: home).packagePath(presentationId: 101, revision: 4) }
    var mediaPart: String { PackageCache(home: home).mediaPartPath(presentationId: 101, mediaFileId: 118, revision: 0) }
    var sources: String { home.sourcesDirectory(clientId: 1, presentationId: 101) }

    /// The names in the cache folder.
    func cacheFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: home.cacheDirectory)) ?? []).sorted()
    }

    /// Names beside `sources` (a staging folder left behind would show here).
    func presentationFolderEntries() -> [String] {
        let folder = home.presentationDirectory(clientId: 1, presentationId: 101)
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// Presentation 101 as stored, with its `syncError`.
    func stored() throws -> (summary: PresentationSummary?, error: String?) {
        try store.readNow { db in
            (
                try db.presentationSummary(id: 101),
                try db.fetchOne("SELECT syncError FROM presentations WHERE presentationId = 101")?.string("syncError")
            )
        }
    }

    /// The `lastSyncResult` preference.
    func lastSyncResult() throws -> String? {
        try store.readNow { db in
            try db.preference(scope: PreferenceKey.sclmScope, key: PreferenceKey.lastSyncResult)
        }
    }

    // MARK: - The fake server

    private func answer(_ request: HTTPRequest) async throws -> HTTPResponse {
        let sizes = announced.withLock { $0 }
        switch request.url.path() {
        case "/v1/clients":
            return .json(#"[{"id":1,"name":"Client","presentations":[{"id":101,"revision":4}]}]"#, to: request)
        case "/v1/presentations/101":
            if let trap = metadataTrap.withLock({ $0 }) { try await trap.spring() }
            return .json(
                #"{"id":101,"name":"Deck","revision":4,"clientId":1,"slides":[],"#
                    + #""sourcesFolder":{"id":16,"blobId":"pkg","fileSize":\#(sizes.package),"revision":4},"#
                    + #""mediaFiles":[{"id":118,"revision":0,"fileSize":\#(sizes.media)}]}"#, to: request)
        case "/v1/mediafiles/118":
            return .json(
                #"{"id":118,"revision":0,"fileName":"a.pdf","title":"A","blobId":"media","#
                    + #""fileSize":\#(sizes.media),"sas":"\#(link("media"))"}"#, to: request)
        case "/v1/contentpackages/101":
            return .json(
                #"{"id":16,"revision":4,"blobId":"pkg","fileSize":\#(sizes.package),"sas":"\#(link("pkg"))"}"#,
                to: request)
        default:
            return .json(#"{"error":"not_found"}"#, status: 404, to: request)
        }
    }

    private func link(_ blob: String) -> String {
        let number = links.withLock { links in
            links[blob, default: 0] += 1
            return links[blob] ?? 0
        }
        return "http://blob.test/\(blob)?sig=\(number)"
    }

    private func download(_ request: DownloadRequest) async throws -> FakeDownload {
        let blob = String(request.request.url.path().dropFirst())
        let (bytes, tag) = blob == "pkg" ? (Self.package, Self.packageTag) : (Self.media, Self.mediaTag)
        let fault = faults.withLock { faults -> Fault? in
            guard var queue = faults[blob], !queue.isEmpty else { return nil }
            let first = queue.removeFirst()
            faults[blob] = queue
            return first
        }
        let offset = Int(request.resumeOffset)
        let resumes = offset > 0 && request.ifRange == tag
        var answer = FakeDownload(status: 200, headers: ["ETag": tag], body: bytes)
        if resumes, offset >= bytes.count {
            answer = FakeDownload(status: 416, headers: ["Content-Range": "bytes */\(bytes.count)"])
        } else if resumes {
            answer = FakeDownload(status: 206, headers: ["ETag": tag], body: Data(bytes.dropFirst(offset)))
        }
        switch fault {
        case nil: break
        case .drop(let count):
            answer.bytesBeforeInterruption = count
            answer.interruption = HTTPError(.connectionLost, method: .get, url: request.request.url)
        case .expire:
            answer = FakeDownload(status: 403)
        case .ignoreRange:
            answer = FakeDownload(status: 200, headers: ["ETag": tag], body: bytes)
        case .failWrite(let count, let code):
            answer.bytesBeforeInterruption = count
            answer.interruption = FileSystem.storageError("write \(request.destinationPath)", errno: code)
        case .block(let count, let trap):
            answer.bytesBeforeInterruption = count
            answer.pause = { try await trap.spring() }
        }
        return answer
    }

    /// Lets the transport's closures reach the harness they belong to without a retain cycle (which would
    /// keep the temporary folder on disk).
    private final class Box: Sendable {
        private struct Weak {
            weak var harness: SyncHarness?
        }

        private let value = Mutex(Weak())
        var harness: SyncHarness? { value.withLock { $0.harness } }
        func set(_ harness: SyncHarness) { value.withLock { $0.harness = harness } }
    }
}

/// A point a fake blocks at until its task is cancelled; the test awaits ``reached()`` to know it is there.
final class Trap: Sendable {
    private let stream = AsyncStream.makeStream(of: Void.self)

    /// Signals arrival, then blocks until cancelled.
    ///
    /// - Throws: `CancellationError`.
    func spring() async throws {
        stream.continuation.yield()
        try await Task.sleep(for: .seconds(60))
    }

    /// Returns once the trap is sprung.
    func reached() async {
        var iterator = stream.stream.makeAsyncIterator()
        _ = await iterator.next()
    }
}

/// Tokens kept in memory.
final class MemoryTokens: TokenStore {
    private let token: Mutex<StoredToken?>

    init(_ token: StoredToken?) { self.token = Mutex(token) }

    func load() async throws -> StoredToken? { token.withLock { $0 } }
    func save(_ token: StoredToken) async throws { self.token.withLock { $0 = token } }
    func clear() async throws { token.withLock { $0 = nil } }
}

/// A ``PackageInstaller`` without zips: "unpacking" copies the package's bytes to `index.html` in a staging
/// folder (plus ``bundled`` files); swap renames it over the target. It can block (to cancel) or refuse.
final class FakeInstaller: PackageInstaller {
    /// Files the package brings besides `index.html`, by relative path.
    let bundled = Mutex<[String: Data]>([:])
    /// Sprung inside unpack, which then blocks until cancelled.
    let unpackTrap = Mutex<Trap?>(nil)
    /// Called after a swap (to cancel the sync there).
    let afterSwap = Mutex<(@Sendable () -> Void)?>(nil)
    /// Thrown by unpack instead of unpacking (a refused package).
    let refusal = Mutex<SCLMError?>(nil)

    func unpack(
        zipAt zipPath: String, stagingFor targetPath: String, removingZip: Bool,
        progress: @escaping @Sendable (Int64, Int64) -> Void
    )
        async throws -> StagedContent
    {
        if let refusal = refusal.withLock({ $0 }) { throw refusal }
        let staging = targetPath + ".staging"
        let files = bundled.withLock { $0 }.merging(["index.html": try Data(contentsOf: URL(fileURLWithPath: zipPath))])
        {
            first, _ in first
        }
        for (path, data) in files {
            let file = staging + "/" + path
            try FileSystem.makeDirectory((file as NSString).deletingLastPathComponent, mode: 0o755)
            try data.write(to: URL(fileURLWithPath: file))
        }
        do {
            try await unpackTrap.withLock({ $0 })?.spring()
        } catch {
            try? FileSystem.removeTree(staging)
            throw error
        }
        if removingZip { unlink(zipPath) }
        return StagedContent(
            stagingPath: staging, targetPath: targetPath, fileCount: files.count,
            byteCount: files.values.reduce(0) { $0 + Int64($1.count) })
    }

    func swap(_ staged: StagedContent) throws {
        try FileSystem.removeTree(staged.targetPath)
        guard rename(staged.stagingPath, staged.targetPath) == 0 else {
            throw FileSystem.storageError("rename \(staged.stagingPath)", errno: errno)
        }
        afterSwap.withLock { $0 }?()
    }

    func repair(target targetPath: String) throws {}
}
