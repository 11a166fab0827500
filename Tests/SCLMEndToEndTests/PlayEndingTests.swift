import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// How an `sclm play` run ends, through the built binary and a real Chromium: its `--timeout`, an
/// interrupt, `--duration`, a page error with and without `--fail-on-error`, a missing browser. A suite of
/// its own beside ``PlayTests``, so the two run side by side, each one browser at a time.
extension ChromiumTests {
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct PlayEndingTests {
        /// A slide script that throws as the page loads.
        static let brokenSlide = "throw new Error('broken slide');"

        /// A home whose presentation is one slide running `script`, without the library.
        static func oneSlide(_ script: String) throws -> PlayTests.PlayHome {
            var deck = DeckFiles()
            deck.add("index.html", DeckFiles.slide("index", scripts: [], body: script))
            return try PlayTests.PlayHome(deck)
        }

        /// The player stopping ends the session (issue 38): it is complete, so the outbox publishes it.
        @Test func timeoutEndsARunThatNeverClosesWith124() async throws {
            let play = try Self.oneSlide("document.title = 'waiting';")
            let result = try await play.play(["--timeout", "2"])
            #expect(result.status == 124, "\(result)")
            #expect(try play.sql("SELECT state FROM sessions") == "[[1]]")
        }

        @Test func interruptExits130WithTheSessionComplete() async throws {
            let play = try PlayTests.PlayHome(
                DeckFiles.librarySlide("StoryCLM.CustomEvents.Set('ready', 'yes', function () {});"))
            let process = try ProcessRunner.startSclm(
                [
                    "--home", play.home.root, "--json", "play", "--presentation", String(play.fixture.presentationId),
                    "--headless",
                ])
            let database = play.home.databasePath
            let ready = await process.send(
                SIGINT,
                when: {
                    (try? ProcessRunner.sql("SELECT value FROM custom_events", in: database)) == #"[["yes"]]"#
                }, timeout: 30)
            #expect(ready)
            let result = await process.result(timeout: 20)
            #expect(result.status == 130, "\(result)")
            #expect(result.stdout.contains(#"{"Play":"cancelled","cancelled":true}"#), "\(result)")
            #expect(try play.sql("SELECT state, slidesCount FROM sessions") == "[[1, 1]]")
            #expect(try play.sql("SELECT slideName FROM session_actions") == #"[["index.html"]]"#)
        }

        @Test func missingBrowserExits69WithOneLine() async throws {
            let play = try PlayTests.PlayHome(DeckFiles())
            let result = try await play.play(["--browser", "/nonexistent/chromium"])
            #expect(result.status == 69, "\(result)")
            #expect(result.stderr.contains("apt-get install chromium"))
            #expect(result.stderr.split(separator: "\n").count == 1)
        }

        @Test func uncaughtErrorFailsTheRunOnlyWithFailOnError() async throws {
            let play = try Self.oneSlide(Self.brokenSlide)
            let result = try await play.play(["--fail-on-error", "--timeout", "20"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains("broken slide"))
        }

        /// `--duration` in text mode on the demo deck: ends well, printing the slide it showed and no warning.
        @Test func durationPlaysTheDemoDeckCleanAndPrintsItsSlides() async throws {
            let play = try PlayTests.PlayHome(DeckFiles())
            let sources = play.fixture.sourcesDirectory(in: play.home)
            try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
            let demo = try SampleContent.assembledPath + "/cardiora-detail-aid"
            _ = try ProcessRunner.run("/bin/cp", ["-R", demo + "/.", sources])
            let result = try await ProcessRunner.sclm(
                [
                    "play", "--presentation", String(play.fixture.presentationId), "--headless", "--duration", "5",
                    "--fail-on-error",
                ], home: play.home.root, timeout: 40)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("slide: index.html"), "\(result)")
            #expect(!result.stdout.contains("warning:") && !result.stdout.contains("error:"), "\(result)")
        }

        /// `--duration` with `--fail-on-error`: a page error ends the run at once with exit 1, the error printed.
        @Test func durationWithFailOnErrorEndsOnAPageErrorAndPrintsIt() async throws {
            let play = try Self.oneSlide(Self.brokenSlide)
            let result = try await ProcessRunner.sclm(
                [
                    "play", "--presentation", String(play.fixture.presentationId), "--duration", "30",
                    "--fail-on-error",
                ], home: play.home.root, timeout: 40)
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains("error: uncaught page error:"), "\(result)")
            #expect(result.stdout.contains("broken slide"), "\(result)")
        }

        /// Without `--fail-on-error`, the same deck plays its `--duration` out and ends well (`"Play":"played"`).
        @Test func durationWithoutFailOnErrorEndsWell() async throws {
            let play = try Self.oneSlide(Self.brokenSlide)
            let result = try await play.play(["--duration", "2"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains(#""Play":"played""#), "\(result)")
        }
    }
}
