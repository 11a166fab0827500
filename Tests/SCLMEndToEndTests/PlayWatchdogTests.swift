import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// systemd's watchdog (issue 38, item 3): under a `NOTIFY_SOCKET`, `sclm play` says `READY=1` once the first
/// slide shows and `WATCHDOG=1` every half `WATCHDOG_USEC` only while the page answers.
extension ChromiumTests {
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct PlayWatchdogTests {
        /// One slide whose script spins for ever 3 s after it loads.
        static let freezingDeck: DeckFiles = {
            var deck = DeckFiles(["js/storyclm.js": Data(DeckFiles.projectLibrary.utf8)])
            deck.add("index.html", DeckFiles.slide("index", body: "setTimeout(function () { while (true) {} }, 3000);"))
            return deck
        }()

        @Test func readyThenWatchdogWhileThePageAnswersAndNoWatchdogOnceItIsFrozen() async throws {
            let play = try PlayTests.PlayHome(Self.freezingDeck)
            let socket = try NotifySocket(path: play.folder.appending("notify"))
            let process = try ProcessRunner.startSclm(
                ["play", "--presentation", String(play.fixture.presentationId), "--headless", "--duration", "15"],
                home: play.home.root, environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "4000000"])
            let withholding = "the page does not answer; withholding WATCHDOG=1"
            // Each message, and whether the player had said it stops telling the watchdog and not taken it
            // back since: a page slow to answer on a loaded machine is withheld for a moment, then told again.
            var messages: [(text: String, afterFreeze: Bool)] = []
            let deadline = ContinuousClock.now + .seconds(HangGuard.seconds)
            while ContinuousClock.now < deadline {
                let log = process.stderr
                let frozen =
                    (log.range(of: withholding, options: .backwards)?.lowerBound).map { withheld in
                        log.range(of: "responsive again", options: .backwards).map { $0.lowerBound < withheld } ?? true
                    } ?? false
                if let message = socket.receive(timeout: .milliseconds(200)) {
                    messages.append((message, frozen))
                } else if !process.isRunning {
                    break
                }
            }
            let result = await process.result(timeout: HangGuard.seconds)
            #expect(result.stderr.contains(withholding), "\(result)")
            #expect(messages.first?.text == "READY=1", "\(messages)")
            #expect(messages.contains { $0 == ("WATCHDOG=1", false) }, "no WATCHDOG=1 while the page answered")
            #expect(!messages.contains { $0 == ("WATCHDOG=1", true) }, "WATCHDOG=1 went on with the page frozen")
        }

        @Test func withoutAWatchdogIntervalAFrozenPageIsNotWatched() async throws {
            let play = try PlayTests.PlayHome(Self.freezingDeck)
            let result = try await play.play(["--duration", "5"])
            #expect(result.status == 0, "\(result)")
            #expect(!result.stderr.contains("withholding"), "\(result.stderr)")
        }
    }
}
