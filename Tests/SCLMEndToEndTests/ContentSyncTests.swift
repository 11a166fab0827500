import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

/// `sclm sync` installing the sample decks from the dev-server, through the built binary: what lands on
/// disk, what is transferred, and what a bad package leaves behind.
// Four minutes: one test syncs every hostile archive in turn (about 30 syncs, one of a 100,000-entry zip).
@Suite(.tags(.large), .timeLimit(.minutes(4))) struct ContentSyncTests {
    let harness: SyncTests

    init() async throws { harness = try await SyncTests() }

    /// Logs in, syncs everything, checks it worked and zeroes the server's counters.
    func installEverything() async throws {
        try await harness.login()
        let first = try await harness.sclm(["sync"])
        try #require(first.status == 0, "\(first)")
        try await harness.server.control(["action": "resetStats"])
    }

    @Test func aFreshSyncInstallsEverySampleDeckByteForByte() async throws {
        try await harness.login()
        let result = try await harness.sclm(["sync"])
        #expect(result.status == 0, "\(result)")
        let listed = try await harness.list()
        for deck in try SampleDecks.all {
            let sources = harness.presentationFolder(client: deck.clientId, presentation: deck.id) + "/sources"
            if deck.skip {
                #expect(!FileSystem.exists(sources), "skip deck \(deck.id) was installed")
                #expect(listed[deck.id]?["syncState"] as? String == "metadataOnly")
                continue
            }
            #expect(FileTree.differences(source: deck.folder, installed: sources) == [], "deck \(deck.id)")
            #expect(listed[deck.id]?["installedRevision"] as? Int == listed[deck.id]?["revision"] as? Int)
            #expect(listed[deck.id]?["syncState"] as? String == "installed")
            // Only the unpacked folder remains: no staging or previous copies beside it.
            #expect(
                (try? FileManager.default.contentsOfDirectory(
                    atPath: harness.presentationFolder(client: deck.clientId, presentation: deck.id))) == ["sources"])
        }
        #expect(harness.cacheFiles() == [])
        #expect(result.stdout.contains("Content: 4 installed, 1 skipped, 0 up to date"))
        #expect(result.stdout.contains("✓ Cardiora 10 mg — Detail Aid (101) revision 4"))
        let state = try harness.localState(of: 101)
        #expect(state.installed == 4 && state.state == 5 && state.error == nil)
        let media = try harness.database().fetchScalar(
            "SELECT installedRevision FROM media_files WHERE mediaFileId = 1011", as: Int64.self)
        #expect(media != nil)
        let stats = try await harness.server.stats()
        #expect(stats.count(prefix: "GET /v1/contentpackages/") == 4)
        #expect(stats.count("GET /v1/contentpackages/202") == 0)
        // The media files came inside the packages, so none was downloaded on its own.
        #expect(stats.count(prefix: "GET /blobs/mediafiles/") == 0)
    }

    @Test func aSecondSyncTransfersNoPackageBytes() async throws {
        try await installEverything()
        let again = try await harness.sclm(["sync", "--json"])
        #expect(again.status == 0, "\(again)")
        let stats = try await harness.server.stats()
        #expect(stats.totalBlobBytes == 0)
        #expect(stats.count(prefix: "GET /v1/contentpackages/") == 0)
        let events = SyncEvents(again.stdout)
        #expect(events.named("started").isEmpty)
        #expect((events.content?["upToDate"] as? [Int])?.sorted() == [101, 102, 103, 201])
    }

    @Test func aRevisionBumpReinstallsOnlyThatPresentation() async throws {
        try await installEverything()
        let before = try harness.database().fetchScalar(
            "SELECT installedAt FROM presentations WHERE presentationId = 101", as: String.self)
        try await harness.server.control(["action": "bumpRevision", "presentationId": 102])
        let result = try await harness.sclm(["sync", "--json"])
        #expect(result.status == 0, "\(result)")
        let events = SyncEvents(result.stdout)
        #expect(events.ids("installed") == [102])
        #expect(events.named("installed").first?["previousRevision"] as? Int == 2)
        let stats = try await harness.server.stats()
        #expect(stats.count(prefix: "GET /v1/contentpackages/") == 1)
        #expect(stats.count("GET /v1/contentpackages/102") == 1)
        #expect(try harness.localState(of: 102).installed == 3)
        let after = try harness.database().fetchScalar(
            "SELECT installedAt FROM presentations WHERE presentationId = 101", as: String.self)
        #expect(before == after)
    }

    @Test func aCorruptedPackageIsRefusedAndTheInstalledRevisionStays() async throws {
        try await installEverything()
        try await harness.server.control(["action": "corruptPackage", "presentationId": 101, "mode": "crc"])
        let result = try await harness.sclm(["sync"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("ARCHIVE-CRC"))
        #expect(result.stdout.contains("Failed (1):"))
        #expect(result.stdout.contains("Cardiora 10 mg — Detail Aid (101): cannot install presentation 101"))
        let deck = try #require(try SampleDecks.deck(101))
        let folder = harness.presentationFolder(client: 1, presentation: 101)
        #expect(FileTree.differences(source: deck.folder, installed: folder + "/sources") == [])
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder)) == ["sources"])
        let state = try harness.localState(of: 101)
        #expect(state.installed == 4 && state.state == 3)
        #expect(state.error?.contains("ARCHIVE-CRC") == true)
        // The refused zip is not kept: the next sync fetches the package again.
        #expect(harness.cacheFiles() == [])
        let listed = try await harness.list()[101]
        #expect(listed?["syncState"] as? String == "updateAvailable")
    }

    @Test func aTruncatedPackageIsRefused() async throws {
        try await installEverything()
        try await harness.server.control(["action": "corruptPackage", "presentationId": 103, "mode": "truncate"])
        let result = try await harness.sclm(["sync"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("GlucoBalance — Congress Highlights (103)"))
        #expect(try harness.localState(of: 103).installed == 7)
    }

    @Test func aMediaFileMissingFromThePackageIsDownloadedIntoMediafiles() async throws {
        try await installEverything()
        // A package without mediafiles/ (content opens the file by name through the bridge, not by a link).
        var zip = ZipBuilder()
        zip.file("index.html", "<!DOCTYPE html><html><head><title>Cardiora</title></head><body>v5</body></html>")
        let package = harness.folder.appending("without-media.zip")
        try zip.write(to: package)
        try await harness.server.control(["action": "setPackage", "presentationId": 101, "path": .string(package)])
        let result = try await harness.sclm(["sync", "--json"])
        #expect(result.status == 0, "\(result)")
        #expect(SyncEvents(result.stdout).named("installed").first?["mediaFilesDownloaded"] as? Int == 1)
        let sources = harness.presentationFolder(client: 1, presentation: 101) + "/sources"
        #expect(FileTree.files(in: sources) == ["index.html", "mediafiles/cardiora-smpc.pdf"])
        let deck = try #require(try SampleDecks.deck(101))
        #expect(
            FileManager.default.contents(atPath: sources + "/mediafiles/cardiora-smpc.pdf")
                == FileManager.default.contents(atPath: deck.folder + "/mediafiles/cardiora-smpc.pdf"))
        let stats = try await harness.server.stats()
        #expect(stats.count("GET /v1/mediafiles/1011") == 1)
        #expect(stats.count(prefix: "GET /blobs/mediafiles/") == 1)
        #expect(harness.cacheFiles() == [])
    }

    @Test func aPackageBreakingAnyPolicyRuleIsRefusedAndTheInstalledRevisionStays() async throws {
        try await harness.login()
        let first = try await harness.sclm(["sync", "--presentation", "201"])
        try #require(first.status == 0, "\(first)")
        let deck = try #require(try SampleDecks.deck(201))
        let folder = harness.presentationFolder(client: 2, presentation: 201)
        // One server, one hostile package after the other (each a new revision of presentation 201).
        for hostile in HostileArchive.all {
            let package = harness.folder.appending("hostile.zip")
            try await hostile.write(to: package)
            try await harness.server.control(["action": "setPackage", "presentationId": 201, "path": .string(package)])
            let result = try await harness.sclm(["sync", "--presentation", "201"])
            let rule = hostile.extractionRule ?? hostile.rule
            #expect(result.status == 1, "\(hostile.name): \(result)")
            #expect(
                result.stdout.contains("Adult Vaccination Schedule (201): cannot install presentation 201")
                    && result.stdout.contains(rule), "\(hostile.name) → \(rule): \(result)")
            #expect(FileTree.differences(source: deck.folder, installed: folder + "/sources") == [], "\(hostile.name)")
            #expect((try? FileManager.default.contentsOfDirectory(atPath: folder)) == ["sources"], "\(hostile.name)")
            let state = try harness.localState(of: 201)
            #expect(state.installed == 1 && state.state == 3, "\(hostile.name)")
            #expect(harness.cacheFiles() == [], "\(hostile.name)")
            #expect(!FileSystem.exists(folder + "/evil.html") && !FileSystem.exists("/tmp/sclm-absolute.html"))
        }
    }

    /// A package whose ZIP64 sizes once made the unpack trap: it is refused, the other presentations install
    /// and the summary is printed, on the first sync and on the next.
    @Test func aZip64PackageWithSizesNear2To64IsRefusedWhileTheOthersInstall() async throws {
        try await harness.login()
        let hostile = try #require(HostileArchive.all.first { $0.name == "ZIP64 compressed size 2^64-1" })
        let package = harness.folder.appending("zip64.zip")
        try await hostile.write(to: package)
        try await harness.server.control(["action": "setPackage", "presentationId": 201, "path": .string(package)])
        for installed in [3, 0] {
            let result = try await harness.sclm(["sync"])
            #expect(result.status == 1, "\(result)")
            #expect(
                result.stdout.contains("cannot install presentation 201") && result.stdout.contains("ARCHIVE-CORRUPT"))
            #expect(result.stdout.contains("Content: \(installed) installed, 1 failed, 1 skipped"), "\(result)")
            for id: Int64 in [101, 102, 103] { #expect(try harness.localState(of: id).installed != nil, "\(id)") }
            #expect(try harness.localState(of: 201).installed == nil)
            #expect(harness.cacheFiles() == [])
        }
    }

    @Test func aPresentationDeletedOnTheServerLosesItsContentAndCacheFiles() async throws {
        try await installEverything()
        try Data("partial".utf8).write(to: URL(fileURLWithPath: harness.home + "/cache/103_rev8.zip.part"))
        try Data("old".utf8).write(to: URL(fileURLWithPath: harness.home + "/cache/102_rev1.zip"))
        try await harness.server.control(["action": "deletePresentation", "presentationId": 103])
        let result = try await harness.sclm(["sync"])
        #expect(result.status == 0, "\(result)")
        #expect(!FileSystem.exists(harness.presentationFolder(client: 1, presentation: 103)))
        // The deleted presentation's part goes with it; the stale zip of an installed one is swept before the content phase.
        #expect(harness.cacheFiles() == [])
        #expect(try await harness.list()[103] == nil)
    }

    @Test func onlyTheChosenPresentationIsInstalled() async throws {
        try await harness.login()
        let result = try await harness.sclm(["sync", "--presentation", "102", "--json"])
        #expect(result.status == 0, "\(result)")
        #expect(SyncEvents(result.stdout).ids("installed") == [102])
        #expect(try harness.localState(of: 101).installed == nil)
        let unknown = try await harness.sclm(["sync", "--presentation", "999"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no presentation 999 among the synced clients"))
        let usage = try await harness.sclm(["sync", "--presentation", "abc"])
        #expect(usage.status == 64)
    }

    @Test func contentPathAndDelete() async throws {
        try await installEverything()
        let path = try await harness.sclm(["content", "path", "101"])
        #expect(path.status == 0)
        #expect(path.stdout == harness.presentationFolder(client: 1, presentation: 101) + "/sources\n")
        let deleted = try await harness.sclm(["content", "delete", "101"])
        #expect(deleted.status == 0, "\(deleted)")
        #expect(deleted.stdout.contains("Deleted revision 4 of Cardiora 10 mg — Detail Aid (101)"))
        #expect(!FileSystem.exists(harness.presentationFolder(client: 1, presentation: 101)))
        let state = try harness.localState(of: 101)
        #expect(state.installed == nil && state.state == 1)
        let missing = try await harness.sclm(["content", "path", "101"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("presentation 101 has no content installed"))
        let unknown = try await harness.sclm(["content", "delete", "999"])
        #expect(unknown.status == 1)
        let again = try await harness.sclm(["sync", "--json"])
        #expect(SyncEvents(again.stdout).ids("installed") == [101])
    }

    @Test func aRepeatedDeleteAndASkippedPresentationReadAsSentencesThatHelp() async throws {
        try await installEverything()
        _ = try await harness.sclm(["content", "delete", "101"])
        let again = try await harness.sclm(["content", "delete", "101"])
        #expect(again.status == 0, "\(again)")
        #expect(
            again.stdout.hasPrefix("Nothing was installed for Cardiora 10 mg — Detail Aid (101); nothing to delete."))
        let skipped = try await harness.sclm(["content", "path", "202"])
        #expect(skipped.status == 1)
        #expect(skipped.stderr.contains("the server marks it skip"), "\(skipped)")
        #expect(!skipped.stderr.contains("sclm sync --presentation"))
        let shown = try await harness.sclm(["show", "202"])
        #expect(shown.stdout.contains("the server marks it skip, so sync does not install it"), "\(shown)")
    }

    @Test func theJSONEventsDescribeEachPresentation() async throws {
        try await harness.login()
        let result = try await harness.sclm(["sync", "--json"])
        #expect(result.status == 0, "\(result)")
        let events = SyncEvents(result.stdout)
        #expect(events.lines.count == result.stdout.split(separator: "\n").count, "every stdout line is JSON")
        #expect(events.lines.first?["event"] as? String == "planned")
        #expect(events.lines.first?["presentations"] as? Int == 4)
        #expect(events.ids("skipped") == [202])
        #expect(Set(events.ids("started")) == [101, 102, 103, 201])
        #expect(Set(events.ids("installed")) == [101, 102, 103, 201])
        for id in [101, 102, 103, 201] {
            let own = events.lines.filter { $0["presentationId"] as? Int == id }.compactMap { $0["event"] as? String }
            #expect(own.first == "started" && own.last == "installed", "\(id): \(own)")
        }
        let installed = try #require(events.named("installed").first { $0["presentationId"] as? Int == 101 })
        #expect(installed["revision"] as? Int == 4)
        #expect(installed["path"] as? String == harness.presentationFolder(client: 1, presentation: 101) + "/sources")
        #expect((installed["files"] as? Int ?? 0) > 5)
        let summary = try #require(events.summary)
        #expect(summary["ok"] as? Bool == true && summary["cancelled"] as? Bool == false)
        #expect(events.lines.last?["event"] as? String == "summary")
    }
}
