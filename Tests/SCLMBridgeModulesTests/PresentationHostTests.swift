import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

@testable import SCLMBridgeModules

/// A host over a temporary home with the default fixture, a manual clock and its events on a pipe.
final class HostHarness {
    let folder = TemporaryDirectory(prefix: "sclm-host")
    let home: Home
    let store: ContentStore
    let clock = ManualClock()
    private let pipe = Pipe()
    let events: LineStream
    let output: BridgeOutput

    init(fixtures: [InstalledPresentationFixture] = [InstalledPresentationFixture()]) throws {
        home = Home(root: folder.appending("home"))
        for fixture in fixtures { try fixture.install(in: home) }
        store = try ContentStore(path: home.databasePath)
        output = BridgeOutput(fileDescriptor: pipe.fileHandleForWriting.fileDescriptor)
        events = LineStream(pipe.fileHandleForReading)
    }

    private var hosts: [PresentationHost] = []

    func makeHost(policy: SessionPolicy = .byContent) -> PresentationHost {
        let host = PresentationHost(
            store: store, home: home, environment: HostEnvironment(userId: "u1", userName: "user", latitude: "45.5"),
            output: output, clock: clock, logger: Logger(minimumLevel: .error), sessionPolicy: policy)
        hosts.append(host)
        return host
    }

    /// The rows of `sql`, once every host made here has written what it recorded.
    func rows(_ sql: String) async throws -> [Row] {
        for host in hosts { #expect(await host.recorder.catchUp(patience: .seconds(30))) }
        return try store.readNow { db in try db.fetchAll(sql) }
    }
}

@Suite(.tags(.medium)) struct PresentationHostTests {
    @Test func slideViewsAreLoggedWithTheirDurationsAndCloseCompletesTheSession() async throws {
        let harness = try HostHarness()
        let host = harness.makeHost()
        try await host.start(presentationId: 10, slide: nil)
        harness.clock.advance(by: 12)
        try await host.go(to: "slide1.html", data: ["x": 1])
        harness.clock.advance(by: 30.4)
        try await host.close(mode: 1)
        let views = try await harness.rows(
            "SELECT slideName, duration, navigation, userId, latitude FROM session_actions ORDER BY created")
        #expect(views.map { $0.string("slideName") } == ["index.html", "slide1.html"])
        #expect(views.map { $0.int("duration") } == [12, 30])
        #expect(views.first?.string("userId") == "u1")
        #expect(views.first?.double("latitude") == 45.5)
        let session = try #require(try await harness.rows("SELECT * FROM sessions").first)
        #expect(session.int("state") == 1)
        #expect(session.int("duration") == 42)
        #expect(session.int("slidesCount") == 2)
        #expect(session.string("created") == "2026-01-01T00:00:00.000Z")
    }

    @Test func endOfInputLeavesTheSessionRestorableOnItsLastSlide() async throws {
        let harness = try HostHarness()
        let first = harness.makeHost()
        try await first.start(presentationId: 10, slide: nil)
        harness.clock.advance(by: 5)
        try await first.go(to: "slide2.html", data: [:])
        harness.clock.advance(by: 7)
        await first.finish()
        await first.finishRecording()
        let second = harness.makeHost()
        try await second.start(presentationId: 10, slide: nil)
        #expect(try second.currentSlide() == "slide2.html")
        let session = try #require(try await harness.rows("SELECT * FROM sessions").first)
        #expect(try await harness.rows("SELECT count(*) AS n FROM sessions").first?.int("n") == 1)
        #expect(session.int("state") == 0)
        #expect(session.bool("isRestored") == true)
        #expect(session.int("duration") == 12)
    }

    @Test func openingAnotherPresentationLeavesTheFirstRestorable() async throws {
        let second = InstalledPresentationFixture(
            presentationId: 20, name: "Two", slides: [.init("index.html")], mediaFiles: [])
        let harness = try HostHarness(fixtures: [InstalledPresentationFixture(), second])
        let host = harness.makeHost()
        try await host.start(presentationId: 10, slide: nil)
        try await host.open(presentationId: 20, slide: nil, data: ["from": 10])
        #expect(try host.current().presentation.presentationId == 20)
        let states = try await harness.rows("SELECT presentationId, state FROM sessions ORDER BY presentationId")
        #expect(states.map { $0.int("state") } == [3, 0])
        try await host.open(presentationId: 10, slide: "slide1.html", data: [:])
        let restored = try await harness.rows("SELECT isRestored FROM sessions WHERE presentationId = 10")
        #expect(restored.first?.bool("isRestored") == true)
        #expect(try await harness.rows("SELECT count(*) AS n FROM sessions").first?.int("n") == 2)
    }

    @Test func theEventsAreWhatAScreenWouldShow() async throws {
        let harness = try HostHarness()
        let host = harness.makeHost()
        try await host.start(presentationId: 10, slide: "slide1.html")
        #expect(
            (await harness.events.event("presentationOpened")?["Data"] as? [String: Any])?["slide"] as? String
                == "slide1.html")
        #expect((await harness.events.event("slideChanged")?["Data"] as? [String: Any])?["previous"] is NSNull)
        try await host.go(to: "index.html", data: [:])
        #expect(
            (await harness.events.event("slideChanged")?["Data"] as? [String: String]) == [
                "slide": "index.html", "previous": "slide1.html",
            ])
        try await host.close(mode: 2)
        #expect((await harness.events.event("presentationClosed")?["Data"] as? [String: Any])?["state"] as? Int == 2)
    }

    @Test(arguments: ["../index.html", "/etc/passwd", "a/../../b", "", "back\\slash", "nul\u{0}", "./x", "a//b"])
    func unsafeContentPathsAreRefused(_ path: String) {
        #expect(!ContentPath.isSafeRelative(path))
    }

    @Test(arguments: ["index.html", "mediafiles/a.pdf", "ы.pdf", "a b.pdf"])
    func plainContentPathsAreAccepted(_ path: String) {
        #expect(ContentPath.isSafeRelative(path))
    }

    @Test(arguments: [("Key_1-ok", true), ("ключ", true), ("ёлка", false), ("a b", false), ("a.b", false), ("", false)])
    func customEventKeysFollowStoryContent(_ key: String, _ valid: Bool) {
        #expect(((try? CustomEventsModule.checkedKey(key)) != nil) == valid)
    }

    @Test(arguments: [
        ("a@b.c #1: x; y, z.", true), ("Жыры", true), ("", true), ("<b>", false), ("a/b", false), ("x\ny", false),
    ])
    func customEventValuesFollowStoryContent(_ value: String, _ valid: Bool) {
        #expect(((try? CustomEventsModule.checkedValue(value)) != nil) == valid)
    }

    @Test func customEventLengthsAreBounded() {
        #expect(
            (try? CustomEventsModule.checkedKey(String(repeating: "k", count: CustomEventsModule.maximumKeyLength)))
                != nil)
        #expect(
            (try? CustomEventsModule.checkedKey(String(repeating: "k", count: CustomEventsModule.maximumKeyLength + 1)))
                == nil)
        #expect(
            (try? CustomEventsModule.checkedValue(
                String(repeating: "v", count: CustomEventsModule.maximumValueLength + 1))) == nil)
    }

    @Test func osReleaseIsParsedWithQuotes() {
        let values = SystemFacts.parseOSRelease(
            "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nVERSION_ID='12'\n# comment\nID=debian\n")
        #expect(values == ["PRETTY_NAME": "Debian GNU/Linux 12 (bookworm)", "VERSION_ID": "12", "ID": "debian"])
    }
}
