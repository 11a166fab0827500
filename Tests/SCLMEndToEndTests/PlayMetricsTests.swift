import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

/// The player's Prometheus textfile (issue 38, item 3): `sclm-play.prom` beside `metrics.textfile`, written
/// while `sclm play` runs and once more as it stops.
extension ChromiumTests {
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct PlayMetricsTests {
        /// A deck whose start slide moves on to `slide1.html` 100 ms after it loads; `slide1.html` stays.
        static let oneStepDeck: DeckFiles = {
            var deck = DeckFiles(["js/storyclm.js": Data(DeckFiles.projectLibrary.utf8)])
            deck.add(
                "index.html",
                DeckFiles.slide(
                    "index", body: #"setTimeout(function () { StoryCLM.Go("slide1.html", function () {}); }, 100);"#))
            deck.add("slide1.html", DeckFiles.slide("slide1", body: ""))
            return deck
        }()

        /// The value of the sample whose line starts with `prefix` (a name and its labels) in `text`.
        static func value(_ prefix: String, in text: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(prefix + " ") }
                .flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
        }

        @Test func theTextfileShowsTheSlideAndItsAgeWhilePlayingAndUpZeroAfter() async throws {
            let play = try PlayTests.PlayHome(Self.oneStepDeck)
            let metrics = TemporaryDirectory(prefix: "sclm-metrics")
            for (key, value) in [("metrics.textfile", metrics.appending("sclm.prom")), ("play.metricsInterval", "1")] {
                #expect(try await ProcessRunner.sclm(["config", "set", key, value], home: play.home.root).status == 0)
            }
            let file = metrics.appending("sclm-play.prom")
            let read = { (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }
            let id = String(play.fixture.presentationId)
            let slide1 = #"sclm_play_slide_info{presentation="\#(id)",slide="slide1.html"}"#
            let age = #"sclm_play_slide_age_seconds{presentation="\#(id)"}"#
            let started = ContinuousClock.now
            let process = try ProcessRunner.startSclm(
                ["play", "--presentation", id, "--headless", "--duration", "20"], home: play.home.root)
            let timeout = Duration.seconds(HangGuard.seconds)
            #expect(try await process.waitForOutput(timeout: timeout) { _ in Self.value(slide1, in: read()) == 1 })
            let first = read()
            #expect(Self.value("sclm_play_up", in: first) == 1, "\(first)")
            let firstAge = try #require(Self.value(age, in: first), "\(first)")
            // The slide stays: a later write shows it older, never older than the run itself.
            #expect(
                try await process.waitForOutput(timeout: timeout) { _ in (Self.value(age, in: read()) ?? 0) > firstAge }
            )
            let laterAge = try #require(Self.value(age, in: read()))
            #expect(laterAge <= (ContinuousClock.now - started).inSeconds)
            #expect(Self.value(#"sclm_play_presentation_revision{presentation="\#(id)"}"#, in: read()) != nil)
            let result = await process.result(timeout: HangGuard.seconds)
            #expect(result.status == 0, "\(result)")
            let last = read()
            #expect(Self.value("sclm_play_up", in: last) == 0, "\(last)")
            #expect(Self.value(slide1, in: last) == nil, "\(last)")
            #expect(!FileManager.default.fileExists(atPath: metrics.appending("sclm.prom")), "only the player's file")
        }
    }
}
