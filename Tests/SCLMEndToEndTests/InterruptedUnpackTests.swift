import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A package whose unpack kills sclm, through the built binary and the dev-server's sample content:
/// the debug build's `SCLM_DEBUG_UNPACK` hook aborts the process (or holds the unpack for a SIGTERM) once
/// presentation 101's unpack has written its first block, so every kill lands mid-unpack.
@Suite(.tags(.large), .timeLimit(.minutes(3))) struct InterruptedUnpackTests {
    static let poisoned: Int64 = 101
    /// Presentations of both clients that get a new revision before each run, to show they install on each.
    static let others: [Int64] = [102, 201]
    static let crash = ["SCLM_DEBUG_UNPACK": "crash:\(poisoned)", "SWIFT_BACKTRACE": "enable=no"]
    static let hold = ["SCLM_DEBUG_UNPACK": "hold:\(poisoned)"]

    let harness: SyncTests

    init() async throws {
        harness = try await SyncTests()
        try await harness.login()
    }

    /// The message of a revision given up.
    func givenUpMessage() throws -> String {
        let revision = try #require(try revision(of: Self.poisoned))
        return
            "sclm stopped while unpacking revision \(revision) of presentation \(Self.poisoned) three times; it will be tried again when the server publishes a new revision or with `sclm sync --retry`"
    }

    /// The server's revision of `id` as stored.
    func revision(of id: Int64) throws -> Int64? {
        try harness.database().fetchOne("SELECT revision FROM presentations WHERE presentationId = ?", [id])?.int(
            "revision")
    }

    /// The poisoned presentation's mark (the revision being unpacked), interrupted revision and count.
    func attempts() throws -> UnpackAttempts {
        let row = try #require(
            try harness.database().fetchOne(
                """
                SELECT unpackRevision, interruptedRevision, unpackInterruptions FROM presentations
                WHERE presentationId = ?
                """, [Self.poisoned]))
        return UnpackAttempts(
            unpacking: row.int("unpackRevision"), interruptedRevision: row.int("interruptedRevision"),
            interruptions: row.int("unpackInterruptions") ?? -1)
    }

    /// Publishes a new revision of every one of ``others``.
    func bumpOthers() async throws {
        for id in Self.others {
            try await harness.server.control(["action": "bumpRevision", "presentationId": .int(id)])
        }
    }

    /// Checks that every one of ``others`` is installed at the server's revision and was installed by `result`.
    func expectOthersInstalled(by result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let installed = Set(SyncEvents(result.stdout).ids("installed"))
        #expect(installed.isSuperset(of: Self.others), "\(result)", sourceLocation: sourceLocation)
        for id in Self.others {
            #expect(
                try harness.localState(of: id).installed == revision(of: id), "\(id)", sourceLocation: sourceLocation)
        }
    }

    /// Kills the sync while it unpacks the poisoned package, three times (the first run asks for it alone,
    /// the next two for everything, the others each at a new revision), then runs the sync that gives it up.
    ///
    /// - Returns: that fourth run.
    func giveUp() async throws -> ProcessResult {
        let first = try await harness.sclm(
            ["sync", "--presentation", "\(Self.poisoned)", "--json"], environment: Self.crash)
        #expect(first.status == 128 + SIGABRT, "\(first)")
        #expect(
            try attempts() == UnpackAttempts(unpacking: try revision(of: Self.poisoned)), "the mark outlives the crash")
        for run in 2...3 {
            try await bumpOthers()
            let result = try await harness.sclm(["sync", "--json"], environment: Self.crash)
            #expect(result.status == 128 + SIGABRT, "run \(run): \(result)")
            try expectOthersInstalled(by: result)
            #expect(!SyncEvents(result.stdout).ids("installed").contains(Self.poisoned))
        }
        try await bumpOthers()
        let fourth = try await harness.sclm(
            ["sync", "--json"], environment: Self.crash.merging(harness.server.iotEnvironment) { first, _ in first })
        try expectOthersInstalled(by: fourth)
        return fourth
    }

    @Test func anUnpackKilledThreeTimesIsGivenUpWhileTheOthersInstallAndRetryTriesItAgain() async throws {
        let fourth = try await giveUp()
        let message = try givenUpMessage()
        #expect(fourth.status == 1, "\(fourth)")
        let events = SyncEvents(fourth.stdout)
        let failed = events.named("failed").first { $0["presentationId"] as? Int == Int(Self.poisoned) }
        #expect(failed?["message"] as? String == message, "\(fourth)")
        #expect(failed?["category"] as? String == "archive")
        let content = try #require(events.content, "the summary is printed: \(fourth)")
        let failures = content["failures"] as? [[String: Any]] ?? []
        #expect(failures.map { $0["message"] as? String } == [message])
        #expect(events.named("analytics").count == 1, "the analytics flush runs: \(fourth)")
        #expect(!harness.cacheFiles().contains { $0.hasPrefix("\(Self.poisoned)_") }, "the zip is dropped")
        #expect(try harness.localState(of: Self.poisoned).error == message)

        // status, list and their --json show it.
        let status = try await harness.sclm(["status"])
        #expect(status.stdout.contains("failed:"), "\(status)")
        #expect(status.stdout.contains("(\(Self.poisoned)): \(message)"), "\(status)")
        let statusJSON = try #require(try await harness.sclm(["status", "--json"]).json() as? [String: Any])
        let statusFailures = statusJSON["failures"] as? [[String: Any]] ?? []
        #expect(statusFailures.map { $0["presentationId"] as? Int } == [Int(Self.poisoned)])
        #expect(statusFailures.first?["message"] as? String == message)
        let list = try await harness.sclm(["list"])
        #expect(list.stdout.contains("\(Self.poisoned) failed: \(message)"), "\(list)")
        #expect(try await harness.list()[Self.poisoned]?["syncError"] as? String == message)

        // Not tried again, even without the hook: no download link is asked for.
        try await harness.server.control(["action": "resetStats"])
        let again = try await harness.sclm(["sync", "--json"])
        #expect(again.status == 1, "\(again)")
        #expect(SyncEvents(again.stdout).content?["failures"] as? [[String: Any]] != nil)
        #expect(try await harness.server.stats().count("GET /v1/contentpackages/\(Self.poisoned)") == 0)

        let retried = try await harness.sclm(["sync", "--retry"])
        #expect(retried.status == 0, "\(retried)")
        let state = try harness.localState(of: Self.poisoned)
        #expect(state.installed == (try revision(of: Self.poisoned)) && state.error == nil)
        #expect(try attempts() == UnpackAttempts())
    }

    @Test func aNewRevisionOfARevisionGivenUpIsTried() async throws {
        _ = try await giveUp()
        try await harness.server.control(["action": "bumpRevision", "presentationId": .int(Self.poisoned)])
        let result = try await harness.sclm(["sync"])
        #expect(result.status == 0, "\(result)")
        let state = try harness.localState(of: Self.poisoned)
        #expect(state.installed == (try revision(of: Self.poisoned)) && state.error == nil)
    }

    @Test func sigtermDuringTheUnpackNeverCounts() async throws {
        let crashed = try await harness.sclm(
            ["sync", "--presentation", "\(Self.poisoned)"], environment: Self.crash)
        #expect(crashed.status == 128 + SIGABRT, "\(crashed)")
        let folder = harness.presentationFolder(client: 1, presentation: Self.poisoned)
        let revision = try #require(try revision(of: Self.poisoned))
        // Three stops as `systemctl stop` makes them: more than enough to give up, if they counted.
        let stagingFolders = { @Sendable in
            Set(
                ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
                    $0.hasPrefix(".sources.staging-")
                })
        }
        for _ in 1...3 {
            // The crash left a staging folder: the signal waits for the one this run's unpack makes.
            let left = stagingFolders()
            let sync = try ProcessRunner.startSclm(
                ["sync", "--presentation", "\(Self.poisoned)"], home: harness.home,
                environment: harness.server.environment.merging(Self.hold) { _, hook in hook })
            let stopped = await sync.send(SIGTERM) { !stagingFolders().subtracting(left).isEmpty }
            let result = await sync.result()
            try #require(stopped, "the unpack never began: \(result)")
            #expect(result.status == 130, "\(result)")
            #expect(try attempts() == UnpackAttempts(interruptedRevision: revision, interruptions: 1), "only the crash")
        }
        let result = try await harness.sclm(["sync", "--presentation", "\(Self.poisoned)"])
        #expect(result.status == 0, "\(result)")
        #expect(try harness.localState(of: Self.poisoned).installed == revision)
        #expect(try attempts() == UnpackAttempts())
    }
}
