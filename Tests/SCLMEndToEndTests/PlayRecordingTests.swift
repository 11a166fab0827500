import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// Playback never waits on the database (issue 38): `sclm play --headless` with an auto-advancing deck while
/// another program holds the home's database locked.
extension ChromiumTests {
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct PlayRecordingTests {
        /// Two slides that move on to each other with `StoryCLM.Go` 100 ms after they load, for ever.
        static let autoAdvancingDeck: DeckFiles = {
            let advance = { (slide: String) in
                "setTimeout(function () { StoryCLM.Go(\"\(slide)\", function () {}); }, 100);"
            }
            var deck = DeckFiles(["js/storyclm.js": Data(DeckFiles.projectLibrary.utf8)])
            deck.add("index.html", DeckFiles.slide("index", body: advance("slide1.html")))
            deck.add("slide1.html", DeckFiles.slide("slide1", body: advance("index.html")))
            return deck
        }()

        /// Slides shown so far (each `slideChanged` event is one slide view, logged when it is left or at the end).
        static func slidesShown(_ process: RunningProcess) -> Int {
            process.stdout.components(separatedBy: #""Event":"slideChanged""#).count - 1
        }

        /// Waits until `process` has shown `count` slides.
        static func waitForSlides(_ count: Int, of process: RunningProcess) async throws -> Bool {
            try await process.waitForOutput(timeout: .seconds(60)) { _ in slidesShown(process) >= count }
        }

        /// Waits until `process`'s stderr contains `text`.
        static func waitForLog(_ text: String, of process: RunningProcess) async throws -> Bool {
            try await process.waitForOutput(timeout: .seconds(60)) { _ in process.stderr.contains(text) }
        }

        @Test func anAutoAdvancingDeckKeepsAdvancingWhileTheDatabaseIsLockedAndLosesNoSlideView() async throws {
            let play = try PlayTests.PlayHome(Self.autoAdvancingDeck)
            let process = try ProcessRunner.startSclm(
                ["--json", "play", "--presentation", String(play.fixture.presentationId), "--headless"],
                home: play.home.root)
            #expect(try await Self.waitForSlides(3, of: process), "\(process.stderr)")
            let lock = try await DatabaseLock(play.home.databasePath)
            // The recorder says it is behind once a write has waited out SQLite's busy timeout (5 s); the deck
            // must go on advancing from then on, with the database still locked.
            #expect(try await Self.waitForLog("recording is behind", of: process), "\(process.stderr)")
            let behind = Self.slidesShown(process)
            #expect(try await Self.waitForSlides(behind + 40, of: process), "the deck stopped under the lock")
            #expect(await lock.release() == 0, "the lock was held throughout")
            #expect(try await Self.waitForLog("recording caught up", of: process), "\(process.stderr)")
            #expect(try await Self.waitForSlides(Self.slidesShown(process) + 3, of: process))
            process.send(SIGINT)
            let result = await process.result(timeout: 60)
            #expect(result.status == 130, "\(result)")
            let shown = Self.slidesShown(process)
            #expect(try play.sql("SELECT count(*) FROM session_actions") == "[[\(shown)]]", "\(result.stderr)")
            // Each return to the start slide ends a session and starts the next (issue 38, item 4).
            #expect(try play.sql("SELECT sum(slidesCount) FROM sessions") == "[[\(shown)]]")
        }
    }
}
