import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A broken or hostile server, and a disk that fills up: records without a usable size, bodies longer than
/// announced, records that contradict the client list — none of them may fill the disk, leave files the
/// next sync trips over, or stop the other presentations. Through the built binary and the dev-server's
/// `patch` and `pad` knobs.
@Suite(.tags(.large), .timeLimit(.minutes(2))) struct HostileServerTests {
    let harness: SyncTests

    init() async throws { harness = try await SyncTests() }

    /// Lays `fields` over the dev-server's answer at `path` (a `/v1/…` route).
    func patch(_ path: String, _ fields: JSONValue) async throws {
        try await harness.server.control(["action": "patch", "path": .string(path), "fields": fields])
    }

    /// The `failed` event of presentation `id`, from `sync --json` output.
    func failure(of id: Int64, in result: ProcessResult) -> String? {
        SyncEvents(result.stdout).named("failed").first { $0["presentationId"] as? Int == Int(id) }?["message"]
            as? String
    }

    // MARK: - Sizes

    @Test func aPackageWithoutAPositiveSizeIsRefusedBeforeAnyByteIsFetched() async throws {
        try await harness.login()
        for size: JSONValue in [0, -1, "abc"] {
            try await patch("/v1/contentpackages/101", ["fileSize": size])
            let result = try await harness.sclm(["sync", "--presentation", "101", "--json"])
            #expect(result.status == 1, "\(size): \(result)")
            let message = failure(of: 101, in: result) ?? ""
            #expect(
                message.contains("cannot install the package of presentation 101: the server gave no valid size"),
                "\(size): \(result)")
            #expect(try await harness.server.stats().count(prefix: "GET /blobs/") == 0, "\(size)")
            #expect(harness.cacheFiles() == [], "\(size)")
        }
        // The others go on.
        let all = try await harness.sclm(["sync", "--json"])
        #expect(all.status == 1, "\(all)")
        #expect(Set(SyncEvents(all.stdout).ids("installed")) == [102, 103, 201])
        #expect(try harness.localState(of: 101).installed == nil)
    }

    @Test func aMediaFileWithoutAPositiveSizeIsRefusedBeforeAnyByteIsFetched() async throws {
        try await harness.login()
        var zip = ZipBuilder()
        zip.file("index.html", "<!DOCTYPE html><html><head><title>Cardiora</title></head><body>v5</body></html>")
        let package = harness.folder.appending("without-media.zip")
        try zip.write(to: package)
        try await harness.server.control(["action": "setPackage", "presentationId": 101, "path": .string(package)])
        try await patch("/v1/mediafiles/1011", ["fileSize": 0])
        let result = try await harness.sclm(["sync", "--presentation", "101", "--json"])
        #expect(result.status == 1, "\(result)")
        #expect(
            failure(of: 101, in: result)?.contains(
                "cannot install media file 1011 of presentation 101: the server gave no valid size") == true,
            "\(result)")
        #expect(try await harness.server.stats().count(prefix: "GET /blobs/mediafiles/") == 0)
        #expect(try harness.localState(of: 101).installed == nil)
    }

    @Test func aBodyLongerThanAnnouncedIsCutOffAtTheSizeAndDiscarded() async throws {
        try await harness.login()
        let (_, size) = try await harness.server.package(of: 101)
        // 200 MB after the package, without Content-Length: only the announced size can stop it.
        try await harness.server.control(["action": "pad", "bytes": .int(200 << 20), "path": "/blobs/packages/"])
        let result = try await harness.sclm(["sync", "--presentation", "101", "--json"])
        #expect(result.status == 1, "\(result)")
        #expect(
            failure(of: 101, in: result)?.contains("the server sent more than the \(size) bytes it announced") == true,
            "\(result)")
        #expect(harness.cacheFiles() == [], "the part is not kept for a resume")
        let sent = try await harness.server.stats().totalBlobBytes
        #expect(sent < size + (64 << 20), "the transfer stopped near the announced size, not after \(sent) bytes")
        let again = try await harness.sclm(["sync", "--presentation", "101"])
        #expect(again.status == 0, "\(again)")
        #expect(try harness.localState(of: 101).installed == 4)
    }

    /// Runs `sync ARGUMENTS` with writes limited to a few MiB per file (`RLIMIT_FSIZE`) and `SIGXFSZ`
    /// ignored, so a write past the limit fails with `EFBIG`, as a full disk fails with `ENOSPC`.
    func syncWithFileSizeLimit(_ arguments: [String]) async throws -> ProcessResult {
        // 8192 blocks: 4 MiB in dash's 512-byte units, 8 MiB in bash's 1024-byte ones; the database stays far below.
        let script = #"trap '' XFSZ; ulimit -f 8192; exec "$0" "$@""#
        return try await ProcessRunner.runInBackground(
            "/bin/sh", ["-c", script, ProcessRunner.sclmPath, "--home", harness.home, "sync"] + arguments,
            environment: harness.server.environment)
    }

    @Test func aDiskFullDuringTheDownloadRemovesThePartAndTheNextSyncRecovers() async throws {
        try await harness.login()
        var zip = ZipBuilder()
        zip.file("index.html", "<!DOCTYPE html><html><head><title>Big</title></head><body>big</body></html>")
        zip.file("mediafiles/video.bin", bytes: PackageFixtures.noise(16 << 20, seed: 7), compression: .store)
        let package = harness.folder.appending("big.zip")
        try zip.write(to: package)
        try await harness.server.control(["action": "setPackage", "presentationId": 101, "path": .string(package)])
        let limited = try await syncWithFileSizeLimit(["--presentation", "101"])
        #expect(limited.status == 1, "\(limited)")
        #expect(limited.stdout.contains("cannot download the package of presentation 101: cannot write"), "\(limited)")
        #expect(limited.stdout.contains("File too large"), "\(limited)")
        #expect(harness.cacheFiles() == [], "the partial file is removed")
        let again = try await harness.sclm(["sync", "--presentation", "101"])
        #expect(again.status == 0, "\(again)")
        #expect(try harness.localState(of: 101).installed == 5)
    }

    @Test func staleCacheFilesAreSweptBeforeAnyDownloadAndAWantedPartIsKept() async throws {
        try await harness.login()
        let metadata = try await harness.sclm(["sync", "--metadata-only"])
        try #require(metadata.status == 0, "\(metadata)")
        let revision = try #require(
            try harness.database().fetchOne("SELECT revision FROM presentations WHERE presentationId = 101")?.int(
                "revision"))
        let stale = harness.home + "/cache/101_rev\(revision - 1).zip.part"
        let wanted = harness.home + "/cache/101_rev\(revision).zip.part"
        try Data(count: 1 << 20).write(to: URL(fileURLWithPath: stale))
        try Data("partial".utf8).write(to: URL(fileURLWithPath: wanted))
        try await harness.server.control(["action": "stall", "seconds": 10, "path": "/blobs/packages/"])
        let sync = try harness.startSync(["--presentation", "101"])
        let swept = try await sync.waitForOutput(timeout: .seconds(8)) { _ in !FileSystem.exists(stale) }
        #expect(swept, "the stale part is still there while the download waits: \(sync.stderr)")
        #expect(FileSystem.exists(wanted), "the part of the wanted revision is kept for resuming")
        sync.send(SIGINT)
        let result = await sync.result()
        #expect(result.status == 130, "\(result)")
    }

    // MARK: - Records

    /// Client 1 lists presentation 103; its record names client 9 (not on the server) or client 2 (synced
    /// too): either way it is skipped and named, and stored under neither.
    @Test(arguments: [9, 2] as [Int64])
    func aPresentationWhoseRecordNamesAnotherClientThanItsListingsIsSkippedAndTheRestIsStored(_ client: Int64)
        async throws
    {
        try await harness.login()
        try await patch("/v1/presentations/103", ["clientId": .int(client)])
        let result = try await harness.sclm(["sync", "--json"])
        #expect(result.status == 1, "\(result)")
        let metadata = try #require(SyncEvents(result.stdout).summary?["metadata"] as? [String: Any], "\(result)")
        let failures = try #require(metadata["failures"] as? [[String: Any]])
        #expect(failures.map { $0["presentationId"] as? Int } == [103])
        #expect(
            failures.first?["message"] as? String
                == "skipped presentation 103: its record names client \(client), but it is listed by client 1 in /v1/clients; the rest was stored, and the server's administrators should fix the record"
        )
        #expect(result.stderr.contains("skipped presentation 103"), "\(result)")
        #expect(Set(try await harness.list().keys) == [101, 102, 201, 202])
        #expect(Set(SyncEvents(result.stdout).ids("installed")) == [101, 102, 201])
    }

    @Test func aPresentationAnsweringWithAnotherIdIsRefusedAndKeepsItsStoredState() async throws {
        try await harness.login()
        let first = try await harness.sclm(["sync"])
        try #require(first.status == 0, "\(first)")
        try await harness.server.control(["action": "bumpRevision", "presentationId": 103])
        try await patch("/v1/presentations/103", ["id": 105])
        for _ in 0..<2 {
            let result = try await harness.sclm(["sync", "--json"])
            #expect(result.status == 1, "\(result)")
            let metadata = try #require(SyncEvents(result.stdout).summary?["metadata"] as? [String: Any])
            #expect((metadata["added"] as? [Int]) == [], "nothing is added on every sync: \(result)")
            let failures = metadata["failures"] as? [[String: Any]] ?? []
            #expect(failures.map { $0["presentationId"] as? Int } == [103])
            #expect(
                (failures.first?["message"] as? String)?.contains(
                    "skipped presentation 103: the server answered with the record of presentation 105") == true)
            let stored = try await harness.list()
            #expect(Set(stored.keys) == [101, 102, 103, 201, 202])
            #expect(try harness.localState(of: 103).installed != nil, "the installed revision stays")
        }
    }
}
