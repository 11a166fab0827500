import Foundation
import SCLMAnalytics
import SCLMCore
import SCLMHTTP
import SCLMStore
import SCLMTestSupport
import Testing

@testable import SCLMBridgeModules

/// The sessions of an unattended player (`sclm play`, issue 38 items 4 and 7): they end by themselves, are
/// published to the dev-server's StoryIoT hub, their slide views are pruned after the retention, and their
/// times hold when the player restarts or the wall clock is set back. Time is the harness's ``ManualClock``.
@Suite(.tags(.medium), .timeLimit(.minutes(5))) struct UnattendedSessionTests {
    static let policy = SessionPolicy.unattended(idle: .seconds(300))

    /// A publisher of `harness`'s database to `server`'s hub: published times and the retention on the harness's
    /// clock, request signatures on the real one (the server checks their expiry).
    static func publisher(_ harness: HostHarness, server: DevServer, retentionDays: Int = 7) -> Publisher {
        let credentials = StoryIoTCredentials(
            endpoint: server.url, hub: DevServer.iotHub, key: DevServer.iotKey, secret: DevServer.iotSecret)
        let client = StoryIoTClient(
            credentials: credentials, transport: CurlTransport(), clock: SystemClock(), timeout: .seconds(30))
        let device = DeviceFacts(
            deviceId: "8D5E3A4C-0000-4000-8000-00000000D1D0", model: "Kiosk", os: "Linux", osVersion: "6.1",
            appName: "sclm", appVersion: "1.0", language: "en", network: "LAN")
        return Publisher(
            outbox: Outbox(store: harness.store), client: client, device: device,
            retrier: Retrier(policy: RetryPolicy(maxAttempts: 3)), retention: .seconds(retentionDays * 86_400),
            clock: harness.clock)
    }

    /// The integer column `name` of the first row of `sql`.
    static func count(_ harness: HostHarness, _ sql: String) async throws -> Int64? {
        try await harness.rows(sql).first?.int("n")
    }

    @Test func aSessionEndsAfterTheIdleTimeIsPublishedAndItsSlideViewsArePrunedAfterTheRetention() async throws {
        let server = try await DevServer.start(["--quiet"])
        let harness = try HostHarness()
        let host = harness.makeHost(policy: Self.policy)
        try await host.start(presentationId: 10, slide: nil)
        harness.clock.advance(by: 20)
        try await host.go(to: "slide1.html", data: [:])
        harness.clock.advance(by: 299)
        await host.endSessionIfIdle()
        #expect(try await Self.count(harness, "SELECT count(*) AS n FROM sessions WHERE state = 1") == 0)
        harness.clock.advance(by: 1)
        await host.endSessionIfIdle()
        let session = try #require(try await harness.rows("SELECT * FROM sessions").first)
        #expect(session.int("state") == 1)
        #expect(session.int("slidesCount") == 2)
        #expect(session.int("duration") == 320)
        let publisher = Self.publisher(harness, server: server)
        let report = try await publisher.flush()
        #expect(report.published == 3 && report.pending == 0, "\(report)")
        #expect(try await server.iotReceived().messages.count == 3)
        harness.clock.advance(by: 7 * 86_400 - 60)
        #expect(try await publisher.flush().pruned == 0)
        harness.clock.advance(by: 120)
        #expect(try await publisher.flush().pruned == 2)
        #expect(try await Self.count(harness, "SELECT count(*) AS n FROM session_actions") == 0)
        #expect(try await Self.count(harness, "SELECT count(*) AS n FROM sessions") == 1)
    }

    @Test func aSlideChangeAfterAnIdleEndStartsANewSession() async throws {
        let harness = try HostHarness()
        let host = harness.makeHost(policy: Self.policy)
        try await host.start(presentationId: 10, slide: nil)
        harness.clock.advance(by: 400)
        await host.endSessionIfIdle()
        harness.clock.advance(by: 1000)
        try await host.go(to: "slide1.html", data: [:])
        harness.clock.advance(by: 10)
        await host.finish(restarting: false)
        let sessions = try await harness.rows("SELECT state, slidesCount, duration FROM sessions ORDER BY created")
        #expect(
            sessions.map { [$0.int("state"), $0.int("slidesCount"), $0.int("duration")] } == [
                [1, 1, 400], [1, 1, 10],
            ])
    }

    @Test func aReturnToTheStartSlideEndsTheSessionAndTheNextStartsThere() async throws {
        let harness = try HostHarness()
        let host = harness.makeHost(policy: Self.policy)
        try await host.start(presentationId: 10, slide: nil)
        for slide in ["slide1.html", "slide2.html", "index.html", "slide1.html"] {
            harness.clock.advance(by: 10)
            try await host.go(to: slide, data: [:])
        }
        harness.clock.advance(by: 10)
        await host.finish(restarting: false)
        let sessions = try await harness.rows("SELECT state, slidesCount FROM sessions ORDER BY created")
        #expect(sessions.map { [$0.int("state"), $0.int("slidesCount")] } == [[1, 3], [1, 2]])
    }

    @Test func aBrowserRestartKeepsTheSessionAndTheSlideViewItWasOn() async throws {
        let harness = try HostHarness()
        let first = harness.makeHost(policy: Self.policy)
        try await first.start(presentationId: 10, slide: nil)
        harness.clock.advance(by: 10)
        try await first.go(to: "slide1.html", data: [:])
        harness.clock.advance(by: 10)
        await first.finish(restarting: true)
        await first.finishRecording()
        harness.clock.advance(by: 2)
        let second = harness.makeHost(policy: Self.policy)
        let presentation = try await harness.store.read { [home = harness.home] db in
            try InstalledPresentation.load(10, from: db, home: home)
        }
        try await second.start(presentation, slide: nil, continuing: true)
        #expect(try second.currentSlide() == "slide1.html")
        harness.clock.advance(by: 5)
        try await second.go(to: "slide2.html", data: [:])
        let views = try await harness.rows("SELECT slideName, duration FROM session_actions ORDER BY rowid")
        #expect(views.map { $0.string("slideName") } == ["index.html", "slide1.html"])
        #expect(views.map { $0.int("duration") } == [10, 15])
        let session = try #require(try await harness.rows("SELECT * FROM sessions").first)
        #expect(session.int("slidesCount") == 2)
        #expect(session.int("duration") == 25)
        #expect(session.int("state") == 0)
    }

    @Test func timesNeverGoBackWithinASessionWhenTheWallClockIsSetBack() async throws {
        let harness = try HostHarness()
        let host = harness.makeHost(policy: Self.policy)
        try await host.start(presentationId: 10, slide: nil)
        harness.clock.advance(by: 30)
        harness.clock.setBack(by: 3600)
        try await host.go(to: "slide1.html", data: [:])
        harness.clock.advance(by: 12)
        try await host.go(to: "slide2.html", data: [:])
        let views = try await harness.rows("SELECT duration, created FROM session_actions ORDER BY rowid")
        #expect(views.map { $0.int("duration") } == [30, 12])
        let session = try #require(try await harness.rows("SELECT * FROM sessions").first)
        let created = try #require(session.string("created"))
        #expect(views.allSatisfy { ($0.string("created") ?? "") >= created })
        #expect(try #require(session.string("updated")) >= created)
    }

    /// The size of a file of the home's database (`""`: the database, `"-wal"`: its write-ahead log).
    static func fileBytes(_ harness: HostHarness, _ suffix: String = "") throws -> Int64 {
        let path = harness.home.databasePath + suffix
        guard FileManager.default.fileExists(atPath: path) else { return 0 }
        return try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64 ?? 0
    }

    /// The bytes of the database's pages in use (its size once checkpointed, less the pages free for reuse).
    static func usedBytes(_ harness: HostHarness) async throws -> Int64 {
        try await count(
            harness,
            "SELECT (p.page_count - f.freelist_count) * s.page_size AS n FROM pragma_page_count p, pragma_freelist_count f, pragma_page_size s"
        ) ?? 0
    }

    /// docs/fleet.md's figure: 24 simulated hours of a three-slide deck advancing every 30 s, flushed every hour
    /// with the default retention, leave under 2 MiB of database pages in use (the write-ahead log is bounded
    /// apart, by SQLite's checkpoints); the flush after the retention frees more than half of them for reuse.
    @Test func aDayOfAnAutoAdvancingDeckStaysUnderTheStatedSize() async throws {
        let server = try await DevServer.start(["--quiet"])
        let harness = try HostHarness()
        let host = harness.makeHost(policy: Self.policy)
        let publisher = Self.publisher(harness, server: server)
        let slides = ["slide1.html", "slide2.html", "index.html"]
        try await host.start(presentationId: 10, slide: nil)
        for hour in 0..<24 {
            for change in 0..<120 {
                harness.clock.advance(by: 30)
                try await host.go(to: slides[(hour * 120 + change) % slides.count], data: [:])
            }
            #expect(await host.recorder.catchUp(patience: .seconds(60)))
            #expect(try await publisher.flush().isSuccess)
        }
        #expect(
            try await Self.count(harness, "SELECT count(*) AS n FROM session_actions WHERE synchronized = 1") == 2880)
        #expect(try await Self.count(harness, "SELECT count(*) AS n FROM sessions") == 961)
        let used = try await Self.usedBytes(harness)
        let (file, log) = (try Self.fileBytes(harness), try Self.fileBytes(harness, "-wal"))
        print("UnattendedSessionTests: after 24 h: \(used) bytes in use; files: database \(file), log \(log)")
        #expect(used < 2 << 20, "\(used) bytes")
        harness.clock.advance(by: 7 * 86_400 + 1)
        #expect(try await publisher.flush().pruned == 2880)
        let pruned = try await Self.usedBytes(harness)
        print("UnattendedSessionTests: after the retention: \(pruned) bytes in use")
        #expect(pruned < used / 2, "\(pruned) of \(used) bytes")
    }
}
