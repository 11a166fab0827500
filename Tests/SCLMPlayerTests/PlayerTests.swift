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
