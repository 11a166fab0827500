import Foundation
import SCLMArchive
import SCLMBrowser
import SCLMCore
import SCLMTestSupport
import Testing

@testable import SCLMPlayer

/// What the player decides without a browser: where a presentation is served from, and a kiosk waiting
/// for its first sync.
@Suite(.tags(.small)) struct PlayerTests {
    static func player(_ presentationId: Int64, hosting: StoreHosting) -> Player {
        Player(
            presentationId: presentationId, slide: nil, options: BrowserOptions(), limit: nil, failsOnError: false,
            hosting: hosting, output: .standardOutput, printsJSON: false)
    }

    /// A kiosk's browser restart continues `--duration` (and `--timeout`) where it was, rather than starting it
    /// again (issue 38: 110 s ran 165 s).
    @Test func aRestartedKioskRunGetsWhatIsLeftOfItsLimit() throws {
        let folder = TemporaryDirectory(prefix: "sclm-player-limit")
        let hosting = try StoreHosting(root: folder.appending("home")) { _ in }
        let player = { (limit: Player.Limit?) in
            Player(
                presentationId: 1, slide: nil, options: BrowserOptions(), limit: limit, failsOnError: false,
                hosting: hosting, output: .standardOutput, printsJSON: false)
        }
        let played = Duration.seconds(40)
        let limitAfter = { (limit: Player.Limit?) -> Player.Limit?? in
            guard case .run(let next) = player(limit).continuing(after: played) else { return nil }
            return .some(next.limit)
        }
        let endAfter = { (limit: Player.Limit) -> PageBridge.Outcome? in
            guard case .end(let outcome) = player(limit).continuing(after: played) else { return nil }
            return outcome
        }
        #expect(limitAfter(.duration(.seconds(110))) == .some(.duration(.seconds(70))))
        #expect(limitAfter(.timeout(.seconds(60))) == .some(.timeout(.seconds(20))))
        #expect(limitAfter(nil) == .some(nil))
        #expect(endAfter(.duration(.seconds(40))) == .elapsed)
        #expect(endAfter(.timeout(.seconds(30))) == .timedOut)
    }

    @Test func eachPresentationHasAPrivateOriginOfItsOwn() {
        #expect(Player.siteHost(of: 101) == "presentation-101.sclm.invalid")
        #expect(Player.siteHost(of: 101) != Player.siteHost(of: 102))
    }

    /// A kiosk before its first sync says once that it waits, and starts when the presentation arrives.
    @Test(.timeLimit(.minutes(2))) func aKioskWaitsOnceAndStartsWhenThePresentationIsInstalled() async throws {
        let folder = TemporaryDirectory(prefix: "sclm-player-wait")
        let (lines, logged) = AsyncStream.makeStream(of: String.self)
        let hosting = try StoreHosting(root: folder.appending("home")) { logged.yield($0) }
        let waiting = Task {
            try await Self.player(1, hosting: hosting).waitUntilInstalled(checkingEvery: .milliseconds(20))
        }
        var iterator = lines.makeAsyncIterator()
        let first = await iterator.next() ?? ""
        #expect(first.contains("waiting for presentation 1 to be installed by `sclm sync`"), "\(first)")
        #expect(first.contains("presentation 1 is not known here"), "\(first)")
        let package = folder.appending("deck")
        try FileManager.default.createDirectory(atPath: package, withIntermediateDirectories: true)
        try Data("<html></html>".utf8).write(to: URL(fileURLWithPath: package + "/index.html"))
        _ = try await RenderHome(home: hosting.home, environment: [:]).install(
            package, kind: .folder, presentationId: 1, policy: Policy(), store: try hosting.store())
        try await waiting.value
        let next = await iterator.next() ?? ""
        #expect(next.contains("presentation 1 is installed; starting"), "said once: \(next)")
    }

    /// An installed presentation starts at once, without a word.
    @Test func anInstalledPresentationStartsAtOnce() async throws {
        let folder = TemporaryDirectory(prefix: "sclm-player-wait")
        let (lines, logged) = AsyncStream.makeStream(of: String.self)
        let hosting = try StoreHosting(root: folder.appending("home")) { logged.yield($0) }
        let package = folder.appending("deck")
        try FileManager.default.createDirectory(atPath: package, withIntermediateDirectories: true)
        _ = try await RenderHome(home: hosting.home, environment: [:]).install(
            package, kind: .folder, presentationId: 2, policy: Policy(), store: try hosting.store())
        try await Self.player(2, hosting: hosting).waitUntilInstalled(checkingEvery: .seconds(3600))
        logged.finish()
        #expect(await lines.reduce(into: [String]()) { $0.append($1) } == [])
    }
}
