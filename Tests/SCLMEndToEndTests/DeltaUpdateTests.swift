import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Delta updates through the built `sclm` and the dev-server: a new revision costs the bytes of what changed,
/// and the installed tree is byte-identical to a full install of the new revision; every fallback installs
/// the same tree by a full download.
@Suite(.tags(.large), .timeLimit(.minutes(5))) struct DeltaUpdateTests {
    static let id: Int64 = 201
    static let sources = "content/2/201/sources"
    let harness: SyncTests

    init() async throws { harness = try await SyncTests() }

    // MARK: - Helpers

    /// Serves `deck` as presentation 201's next revision.
    func publish(_ deck: DeltaDeck) async throws {
        let path = harness.folder.appending("deck-\(UUID().uuidString).zip")
        try deck.zip().write(to: path)
        try await harness.server.control(["action": "setPackage", "presentationId": 201, "path": .string(path)])
    }

    /// `sclm sync --presentation 201 --json` in `home` (the harness's by default); its `installed` event.
    func sync(_ arguments: [String] = [], home: String? = nil) async throws -> [String: Any] {
        let result = try await ProcessRunner.sclm(
            ["sync", "--presentation", "201", "--json", "-v"] + arguments, home: home ?? harness.home,
            environment: harness.server.environment)
        try #require(result.status == 0, "\(result)")
        return try #require(SyncEvents(result.stdout).named("installed").first, "\(result)")
    }

    /// The package files installed in `home` (media files, which are not in the package, left out).
    func installedFiles(home: String? = nil, folder: String = "sources") -> [String: Data] {
        let root = (home ?? harness.home) + "/content/2/201/" + folder
        var files: [String: Data] = [:]
        for path in FileTree.files(in: root) where !path.hasPrefix("mediafiles/") {
            files[path] = FileManager.default.contents(atPath: root + "/" + path)
        }
        return files
    }

    /// What a full unpack of `deck` holds.
    static func expected(_ deck: DeltaDeck) -> [String: Data] {
        deck.files.mapValues { Data(DeltaDeck.bytes($0)) }
    }

    /// Package bytes the server sent since the counters were zeroed.
    func packageBytesSent() async throws -> Int64 {
        let blob = try await harness.server.package(of: Self.id).url.lastPathComponent
        return try await harness.server.stats().raw["blobBytes"]?[blob]?.intValue ?? 0
    }

    func delta(_ installed: [String: Any]) -> [String: Int]? { installed["delta"] as? [String: Int] }

    /// Logs in, installs `deck` in full, then serves `next` with the counters zeroed.
    func install(_ deck: DeltaDeck, then next: DeltaDeck) async throws {
        try await harness.login()
        try await publish(deck)
        let first = try await sync()
        #expect(first["full"] as? String == "nothing installed yet")
        try await publish(next)
        try await harness.server.control(["action": "resetStats"])
    }

    // MARK: - Tests

    @Test func aRevisionChangingThreeFilesFetchesOnlyThemAndMatchesAFullInstall() async throws {
        let old = DeltaDeck(count: 300, seed: 7)
        var new = old
        new.change(3, skipping: 100)
        try await install(old, then: new)
        let installed = try await sync()
        let delta = try #require(self.delta(installed), "\(installed)")
        #expect(delta["changedFiles"] == 3 && delta["reusedFiles"] == 297, "\(delta)")
        #expect(installedFiles() == Self.expected(new))
        let sent = try await packageBytesSent()
        let packageBytes = try #require(delta["packageBytes"])
        // The tail with the directory (96 KiB) and three entries with the gaps coalesced around them.
        #expect(Int64(delta["fetchedBytes"] ?? 0) == sent)
        #expect(sent < 96 * 1024 + 3 * (64 * 1024 + 16 * 1024), "\(sent) of \(packageBytes)")
        #expect(sent * 5 < Int64(packageBytes))
        // A full install of the new revision in another home gives the same tree.
        let other = harness.folder.appending("other")
        let login = try await ProcessRunner.sclm(
            ["login", "--username", DevServer.username, "--password-stdin"], home: other,
            stdin: DevServer.password + "\n", environment: harness.server.environment)
        try #require(login.status == 0, "\(login)")
        #expect(try await sync(["--full"], home: other)["full"] as? String == "sync --full")
        #expect(installedFiles(home: other) == installedFiles())
        // The manifest was recorded with the delta install: the next revision is a delta again.
        var third = new
        third.change(1)
        try await publish(third)
        let after = try await sync()
        #expect(self.delta(after)?["changedFiles"] == 1)
        #expect(installedFiles() == Self.expected(third))
    }

    @Test func randomRevisionPairsInstallAsAFullUnpackWould() async throws {
        try await harness.login()
        var random = SplitMix(2026)
        var deck = DeltaDeck(count: 120, seed: random.next())
        try await publish(deck)
        _ = try await sync()
        for round in 0..<6 {
            deck.mutate(&random)
            try await publish(deck)
            let installed = try await sync()
            #expect(installedFiles() == Self.expected(deck), "round \(round): \(installed)")
        }
    }

    @Test func aRefusedLinkIsRenewedAndAFailedRangeRetried() async throws {
        let old = DeltaDeck(count: 150, seed: 10)
        var new = old
        new.change(2, skipping: 75)
        try await install(old, then: new)
        // The tail request meets a 403 (a link that expired), the next blob request a 503.
        try await harness.server.control(["action": "fail", "status": 403, "count": 1, "path": "/blobs/packages"])
        try await harness.server.control(["action": "fail", "status": 503, "count": 1, "path": "/blobs/packages"])
        let installed = try await sync()
        #expect(delta(installed)?["changedFiles"] == 2, "\(installed)")
        #expect(installedFiles() == Self.expected(new))
        let stats = try await harness.server.stats()
        #expect(stats.count("GET /v1/contentpackages/201") >= 2, "a fresh link after the 403: \(stats.requests)")
        #expect(stats.raw["statuses"]?["403"]?.intValue == 1 && stats.raw["statuses"]?["503"]?.intValue == 1)
    }

    @Test func aServerIgnoringRangeGivesAFullDownloadFetchedOnce() async throws {
        let old = DeltaDeck(count: 150, seed: 11)
        var new = old
        new.change(2)
        try await install(old, then: new)
        try await harness.server.control(["action": "ranges", "mode": "ignore"])
        let installed = try await sync()
        #expect(installed["full"] as? String == "the server ignores Range", "\(installed)")
        #expect(installedFiles() == Self.expected(new))
        // The 200 answer to the first range request was the download: the package crossed the wire once.
        #expect(try await packageBytesSent() == (try await harness.server.package(of: Self.id).size))
    }

    @Test func aRangeAnsweredWithOtherBytesFallsBackToAFullDownload() async throws {
        let old = DeltaDeck(count: 150, seed: 12)
        var new = old
        new.change(2, skipping: 40)
        try await install(old, then: new)
        try await harness.server.control(["action": "ranges", "mode": "shift"])
        let installed = try await sync()
        #expect(installed["delta"] == nil, "\(installed)")
        #expect((installed["full"] as? String)?.isEmpty == false)
        #expect(installedFiles() == Self.expected(new))
    }

    @Test func halfThePackageChangedIsAFullDownload() async throws {
        let old = DeltaDeck(count: 100, seed: 13)
        var new = old
        new.change(70)
        try await install(old, then: new)
        let installed = try await sync()
        #expect((installed["full"] as? String)?.contains("changed") == true, "\(installed)")
        #expect(installedFiles() == Self.expected(new))
    }

    @Test func aFileEditedByHandIsFetchedNotSpread() async throws {
        let old = DeltaDeck(count: 100, seed: 14)
        var new = old
        new.change(1)
        try await install(old, then: new)
        let edited = try #require(old.files.keys.sorted().last)
        let path = harness.home + "/" + Self.sources + "/" + edited
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data("hand edit".utf8))
        try handle.close()
        let installed = try await sync()
        #expect(delta(installed)?["changedFiles"] == 2, "\(installed)")
        #expect(installedFiles() == Self.expected(new))
    }

    @Test func aRevisionInstalledWithoutAManifestUpdatesByDelta() async throws {
        let old = DeltaDeck(count: 100, seed: 15)
        var new = old
        new.change(2)
        try await install(old, then: new)
        // As an sclm before manifests left it.
        let db = try harness.database()
        try db.execute("DELETE FROM installed_files")
        try db.execute("UPDATE presentations SET manifestRevision = NULL")
        let installed = try await sync()
        #expect(delta(installed)?["changedFiles"] == 2 && delta(installed)?["reusedFiles"] == 98, "\(installed)")
        #expect(installedFiles() == Self.expected(new))
        #expect(try db.fetchCount("SELECT count(*) FROM installed_files") == 100)
    }

    @Test func killedAtAnyMomentOfADeltaUpdateTheRerunInstallsTheNewRevision() async throws {
        let old = DeltaDeck(count: 200, seed: 16)
        var new = old
        new.change(5, skipping: 20)
        try await install(old, then: new)
        let home = harness.home
        let parent = home + "/content/2/201"
        let moments: [@Sendable () -> Bool] = [
            {
                ((try? FileManager.default.contentsOfDirectory(atPath: home + "/cache")) ?? []).contains {
                    $0.hasSuffix(".zip.delta")
                }
            },
            {
                ((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []).contains {
                    $0.hasPrefix(".sources.staging-")
                }
            },
            { FileManager.default.fileExists(atPath: parent + "/.sources.old") },
        ]
        for moment in moments {
            let running = try harness.startSync(["--presentation", "201"])
            _ = await running.send(SIGKILL, when: moment)
            _ = running.waitUntilExit()
            // Killed between the two renames of the swap, the previous revision waits as `.sources.old`
            // (the next sync puts it back).
            let target = FileManager.default.fileExists(atPath: parent + "/sources") ? "sources" : ".sources.old"
            let left = installedFiles(folder: target)
            #expect(left == Self.expected(old) || left == Self.expected(new), "\(target)")
        }
        // The rerun installs the new revision, or finds it installed when a kill came after the run had
        // finished (on a loaded machine the last moment can pass unseen): either way the tree is the new one.
        let rerun = try await ProcessRunner.sclm(
            ["sync", "--presentation", "201", "--json"], home: home, environment: harness.server.environment)
        #expect(rerun.status == 0, "\(rerun)")
        #expect(installedFiles() == Self.expected(new))
    }
}
