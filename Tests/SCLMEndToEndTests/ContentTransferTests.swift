import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Package transfers that go wrong — a dropped connection, an expired `sas`, Ctrl-C, `kill -9`, a second
/// sync on the same home — against synthetic packages from the dev-server, through the built binary.
@Suite(.tags(.large), .timeLimit(.minutes(3))) struct ContentTransferTests {
    static let presentation: Int64 = 10001
    static let client: Int64 = 1001

    /// A server with `count` synthetic presentations of `size` bytes, and a home logged in to it.
    static func harness(size: String, count: Int = 1, _ extra: [String] = []) async throws -> SyncTests {
        let harness = try await SyncTests(
            serverArguments: [
                "--quiet", "--synthetic-clients", "1", "--synthetic-presentations", "\(count)", "--synthetic-size",
                size,
            ] + extra)
        try await harness.loginAsService()
        return harness
    }

    static func partPath(_ harness: SyncTests, revision: Int = 1) -> String {
        "\(harness.home)/cache/\(presentation)_rev\(revision).zip.part"
    }

    /// The staging folders an unpack leaves beside `sources` while it runs.
    static func stagingFolders(_ harness: SyncTests) -> [String] {
        let folder = harness.presentationFolder(client: client, presentation: presentation)
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(".") }
    }

    /// Waits until the partial download holds at least `bytes`.
    static func waitForPart(_ harness: SyncTests, _ process: RunningProcess, atLeast bytes: Int64) async throws {
        let reached = try await process.waitForOutput { _ in
            (FileSystem.size(of: partPath(harness)) ?? 0) >= bytes
                && FileSystem.exists(PackageCacheNames.record(partPath(harness)))
        }
        try #require(reached, "the download never reached \(bytes) bytes: \(process.stderr)")
    }

    @Test func aConnectionDroppedHalfWayIsResumed() async throws {
        let harness = try await Self.harness(size: "8M")
        try await harness.server.control(["action": "drop", "afterBytes": .int(4 << 20), "path": "/blobs/packages/"])
        let result = try await harness.sclm(["sync"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("resuming at byte"))
        let stats = try await harness.server.stats()
        #expect(stats.count(prefix: "GET /blobs/packages/") == 2)
        #expect(stats.totalBlobBytes >= 8 << 20 && Double(stats.totalBlobBytes) < 1.1 * Double(8 << 20))
        #expect(try harness.localState(of: Self.presentation).installed == 1)
        #expect(harness.cacheFiles() == [])
    }

    @Test func aSasThatExpiresDuringTheTransferIsRenewed() async throws {
        let harness = try await Self.harness(size: "8M", ["--sas-lifetime", "2"])
        // Half the package, a pause that outlives the signed URL, then the connection breaks: the resume
        // is refused (403) until a fresh sas is fetched.
        try await harness.server.control([
            "action": "stall", "seconds": 3, "afterBytes": .int(4 << 20), "path": "/blobs/packages/",
        ])
        try await harness.server.control([
            "action": "drop", "afterBytes": .int((4 << 20) + 1), "path": "/blobs/packages/",
        ])
        let result = try await harness.sclm(["sync"])
        #expect(result.status == 0, "\(result)")
        let stats = try await harness.server.stats()
        #expect(stats.count("GET /v1/contentpackages/\(Self.presentation)") == 2)
        #expect((stats.raw["statuses"]?["403"]?.intValue ?? 0) >= 1)
        #expect(Double(stats.totalBlobBytes) < 1.1 * Double(8 << 20))
        #expect(try harness.localState(of: Self.presentation).installed == 1)
    }

    @Test func ctrlCStopsTheDownloadKeepsThePartAndTheNextSyncResumesIt() async throws {
        let size: Int64 = 16 << 20
        let harness = try await Self.harness(size: "16M")
        try await harness.server.control([
            "action": "stall", "seconds": 60, "afterBytes": .int(size / 2), "path": "/blobs/packages/",
        ])
        let sync = try harness.startSync(["--json"])
        try await Self.waitForPart(harness, sync, atLeast: size / 2)
        let signalled = ContinuousClock.now
        sync.send(SIGINT)
        let result = await sync.result()
        // Stopped long before the server's 60 s pause would have ended the transfer.
        #expect(ContinuousClock.now - signalled < .seconds(15))
        #expect(result.status == 130, "\(result)")
        let summary = try #require(SyncEvents(result.stdout).summary)
        #expect(summary["cancelled"] as? Bool == true)
        #expect(result.stderr.contains("partial downloads stay in the cache"))
        #expect((FileSystem.size(of: Self.partPath(harness)) ?? 0) >= size / 2)
        #expect(Self.stagingFolders(harness) == [])
        let state = try harness.localState(of: Self.presentation)
        #expect(state.installed == nil && state.state == 1)

        try await harness.server.control(["action": "reset"])
        try await harness.server.control(["action": "resetStats"])
        let rerun = try await harness.sclm(["sync"])
        #expect(rerun.status == 0, "\(rerun)")
        let stats = try await harness.server.stats()
        #expect(stats.totalBlobBytes <= size / 2)
        #expect(try harness.localState(of: Self.presentation).installed == 1)
        #expect(harness.cacheFiles() == [])
    }

    @Test func killedDuringTheDownloadTheNextSyncResumesAndFinishes() async throws {
        let size: Int64 = 16 << 20
        let harness = try await Self.harness(size: "16M")
        try await harness.server.control([
            "action": "stall", "seconds": 60, "afterBytes": .int(size / 2), "path": "/blobs/packages/",
        ])
        let sync = try harness.startSync()
        try await Self.waitForPart(harness, sync, atLeast: size / 2)
        sync.send(SIGKILL)
        #expect(await sync.result().status == 128 + SIGKILL)
        // Killed mid-transfer, the presentation is left marked as downloading; the next sync sorts it out.
        #expect(try harness.localState(of: Self.presentation).state == 4)

        try await harness.server.control(["action": "reset"])
        try await harness.server.control(["action": "resetStats"])
        let rerun = try await harness.sclm(["sync"])
        #expect(rerun.status == 0, "\(rerun)")
        #expect(try await harness.server.stats().totalBlobBytes <= size / 2)
        let state = try harness.localState(of: Self.presentation)
        #expect(state.installed == 1 && state.state == 5)
        #expect(harness.cacheFiles() == [])
    }

    @Test func killedDuringTheInstallTheOldRevisionStaysAndTheNextSyncCompletesIt() async throws {
        let harness = try await Self.harness(size: "32M")
        let first = try await harness.sclm(["sync"])
        try #require(first.status == 0, "\(first)")
        let sources = harness.presentationFolder(client: Self.client, presentation: Self.presentation) + "/sources"
        let files = FileTree.files(in: sources)
        let payload = sources + "/" + (try #require(files.first { $0.hasPrefix("assets/") }))
        let installed = try #require(FileManager.default.contents(atPath: payload))

        // Kill the sync the moment its staging folder appears: mid-install of revision 2.
        try await harness.server.control(["action": "bumpRevision", "presentationId": .int(Self.presentation)])
        let sync = try harness.startSync()
        let killed = await sync.send(SIGKILL) {
            Self.stagingFolders(harness).contains { $0.hasPrefix(".sources.staging-") }
        }
        _ = await sync.result()
        try #require(killed, "the sync ended before it unpacked")
        #expect(!Self.stagingFolders(harness).isEmpty, "the kill leaves a staging folder for the next sync")
        // The previous revision is untouched and still recorded.
        #expect(FileTree.files(in: sources) == files)
        #expect(FileManager.default.contents(atPath: payload) == installed)
        #expect(try harness.localState(of: Self.presentation).installed == 1)

        try await harness.server.control(["action": "resetStats"])
        let rerun = try await harness.sclm(["sync"])
        #expect(rerun.status == 0, "\(rerun)")
        // The downloaded zip was complete, so the rerun installs it without transferring it again.
        #expect(try await harness.server.stats().count(prefix: "GET /blobs/packages/") == 0)
        #expect(FileTree.files(in: sources) == files)
        #expect(FileManager.default.contents(atPath: payload) != installed)
        #expect(Self.stagingFolders(harness) == [])
        let state = try harness.localState(of: Self.presentation)
        #expect(state.installed == 2 && state.state == 5)
        #expect(harness.cacheFiles() == [])
    }

    @Test func twoSyncsOnOneHomeNeverWorkOnTheSamePresentation() async throws {
        let harness = try await Self.harness(size: "2M", count: 4)
        // Every package answer waits a second, so the two runs overlap for sure.
        try await harness.server.control(["action": "stall", "seconds": 1, "count": 8, "path": "/blobs/packages/"])
        let first = try harness.startSync(["--json"])
        let second = try harness.startSync(["--json"])
        let results = [await first.result(), await second.result()]
        for result in results { #expect(result.status == 0, "\(result)") }
        let events = results.map { SyncEvents($0.stdout) }
        let installed = events.flatMap { $0.ids("installed") }
        #expect(installed.sorted() == [10001, 10002, 10003, 10004])
        let busy = events.flatMap { $0.ids("busy") }
        let upToDate = events.flatMap { $0.content?["upToDate"] as? [Int] ?? [] }
        #expect(busy.count + upToDate.count == 4, "each presentation left to the other run once")
        let stats = try await harness.server.stats()
        for id in 10001...10004 { #expect(stats.count("GET /v1/contentpackages/\(id)") == 1, "\(id)") }
        #expect(stats.totalBlobBytes == 4 * (2 << 20))
        for id in Int64(10001)...10004 { #expect(try harness.localState(of: id).state == 5) }
    }
}

/// Names of the cache's side files, as the tests look for them.
enum PackageCacheNames {
    /// The resume record beside a partial download.
    static func record(_ partPath: String) -> String { partPath + ".json" }
}
